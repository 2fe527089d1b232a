/**
 * @module text/wink
 * The one wink-nlp instance (its English lite model: sentence boundaries, part of speech, lemmas; in process,
 * no download), shared by entity extraction and revision judging so that the model is loaded once.
 *
 * Loaded on first use, not at import: reading the model costs about half a second of CPU, which a command that
 * never tags a sentence (`cascade --version`, `stats`, `show`, `list`) should not pay. Both packages are CommonJS,
 * so a synchronous require keeps every caller synchronous.
 */
import { createRequire } from "node:module";
import type winkNLP from "wink-nlp";
import { englishLiteModel } from "./wink-model.js";

type Nlp = ReturnType<typeof winkNLP>;

interface Wink {
  nlp: Nlp;
  its: Nlp["its"];
  /**
   * How many words the model's own lexicon holds: wink numbers those first, and a word read later that is not in
   * it gets a larger id. Read before any text, since every unknown word a text brings takes the next id.
   */
  lexiconSize: number;
}

let loaded: Wink | undefined;

/** The shared tagger and its accessors (`its.pos`, `its.lemma`, …), loaded on the first call. */
export function wink(): Wink {
  if (!loaded) {
    const require = createRequire(import.meta.url);
    const make = require("wink-nlp") as typeof winkNLP;
    // the package's model but for its core loader's deep copy (text/wink-model.ts)
    const nlp = make(englishLiteModel() as unknown as Parameters<typeof winkNLP>[0], ["sbd", "pos"]);
    const lexiconSize = nlp.readDoc("qzxqzxq").tokens().out(nlp.its.uniqueId)[0] as unknown as number;
    loaded = { nlp, its: nlp.its, lexiconSize };
  }
  return loaded;
}

/** Whether wink's lexicon holds a word in lowercase (a common word, not a name); cached, as tagging one word costs ~10 µs. */
const lexiconCache = new Map<string, boolean>();
export function inLexicon(word: string): boolean {
  const w = word.toLowerCase();
  let known = lexiconCache.get(w);
  if (known === undefined) {
    if (lexiconCache.size > 200_000) lexiconCache.clear();
    const { nlp, its, lexiconSize } = wink();
    known = (nlp.readDoc(w).tokens().out(its.uniqueId)[0] as unknown as number) < lexiconSize;
    lexiconCache.set(w, known);
  }
  return known;
}

/** Words of three letters or more, written in lowercase, that the lexicon does not hold: names in a chat written
 * without capitals ("sold the skoda", "signed off by ewelina"). */
export function lowercaseNames(text: string): string[] {
  return (text.match(/(?<![\p{L}\d'’-])\p{Ll}{3,}(?![\p{L}\d'’-])/gu) ?? []).filter((w) => !inLexicon(w));
}
