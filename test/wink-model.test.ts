/**
 * The tagger's model is assembled by text/wink-model.ts from the package's parts with a core loader of its own:
 * it must be the package's model, part for part, and its core what the package's core loader returns.
 */
import assert from "node:assert/strict";
import { createRequire } from "node:module";
import { test } from "node:test";
import { englishLiteModel } from "../src/text/wink-model.js";

const require = createRequire(import.meta.url);

test("the tagger's model is the package's: the same parts, and a core equal to the package's core", () => {
  const ours = englishLiteModel() as Record<string, any>;
  const theirs = require("wink-eng-lite-web-model") as Record<string, any>;
  assert.deepEqual(Object.keys(ours).sort(), Object.keys(theirs).sort());
  for (const key of Object.keys(theirs)) if (key !== "core" && key !== "addons") assert.equal(ours[key], theirs[key], key);
  assert.deepEqual(Object.keys(ours.addons).sort(), Object.keys(theirs.addons).sort());
  for (const key of Object.keys(theirs.addons)) assert.equal(ours.addons[key], theirs.addons[key], `addons.${key}`);
  const core = ours.core();
  assert.deepEqual(core, theirs.core());
  assert.ok(core.lexicon instanceof Uint32Array && core.lexicon.length > 0);
  // each call returns an object of its own, as the package's deep copy did
  assert.notEqual(ours.core().features, core.features);
});

test("tagging with the assembled model gives what the package's model gives", () => {
  const winkNLP = require("wink-nlp");
  const text = "The deploy freeze ends on Friday. Dr. Smith's cats ran to Berlin; she isn't happy about it, is she? Café naïve résumé 2026-06-01.";
  const outputs = [englishLiteModel(), require("wink-eng-lite-web-model")].map((model) => {
    const nlp = winkNLP(model, ["sbd", "pos"]);
    const its = nlp.its;
    const doc = nlp.readDoc(text);
    return {
      unknownId: nlp.readDoc("qzxqzxq").tokens().out(its.uniqueId),
      sentences: doc.sentences().out(),
      pos: doc.tokens().out(its.pos),
      lemma: doc.tokens().out(its.lemma),
      type: doc.tokens().out(its.type),
      ids: doc.tokens().out(its.uniqueId),
    };
  });
  assert.deepEqual(outputs[0], outputs[1]);
});
