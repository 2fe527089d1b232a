/**
 * @module text/wink
 * The one wink-nlp instance (its English lite model: sentence boundaries, part of speech, lemmas; in process,
 * no download), shared by entity extraction and revision judging so that the model is loaded once.
 */
import winkNLP from "wink-nlp";
import model from "wink-eng-lite-web-model";

export const nlp = winkNLP(model, ["sbd", "pos"]);
export const its = nlp.its;
