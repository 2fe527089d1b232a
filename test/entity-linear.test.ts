/**
 * Entity extraction stays linear in its input and reads a long text in pieces: a run of months is read once (it
 * was read again from each of its words), a long text is tagged in blocks that give the tagger's same tokens, tags
 * and spaces as the whole text, and the paced extractor lets other work run while it reads a long text, with the
 * same entities as the one-piece reading. The entities themselves are checked by entities.test.ts and
 * entity-*.test.ts, unchanged.
 */
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { extractEntities, extractEntitiesPaced, tagText } from "../src/entities/extract.js";
import { nameSpans } from "../src/entities/names.js";
import { wink } from "../src/text/wink.js";
import { bigText } from "../bench/big-text.js";

function wholeTags(text: string) {
  const { nlp, its } = wink();
  const tokens = nlp.readDoc(text).tokens();
  return { values: tokens.out(its.value) as string[], pos: tokens.out(its.pos) as string[], spaces: tokens.out(its.precedingSpaces) as string[] };
}

describe("entity extraction on long texts", () => {
  test("a run of months before a name is read once: the tokens read grow with the text, not its square", () => {
    const reads: number[] = [];
    for (const n of [500, 2000]) {
      const words = [...Array(n).fill("May"), "Chen"];
      let read = 0;
      // every read of a token counted (the run was read again from each of its words: 2,000 months, 2 million reads)
      const values = new Proxy(words, { get: (t, k) => (typeof k === "string" && /^\d+$/.test(k) && read++, Reflect.get(t, k)) });
      const spans = nameSpans({ values, pos: words.map(() => "PROPN"), spaces: words.map((_, i) => (i === 0 ? "" : " ")) }, { skip: () => false, knownLowercase: () => false });
      // "May May … May Chen": one name (a month before a name is a name word)
      assert.deepEqual(spans, [{ first: 0, last: n }]);
      reads.push(read / (n + 1));
    }
    assert.ok(reads[1] < 1.5 * reads[0], `reads per token ${reads.join(" then ")}`);
  });

  test("tagging in blocks gives the whole text's tokens, tags and spaces", () => {
    const paragraphs = bigText(60_000, 7);
    for (const [name, text] of [
      ["paragraphs", paragraphs],
      ["single line breaks", paragraphs.replace(/\n\n/g, "\n")],
      ["indented lines", paragraphs.replace(/\n\n/g, "\n   ")],
    ] as const) {
      assert.deepEqual(tagText(text), wholeTags(text), name);
    }
  });

  test("the paced extractor finds the same entities and lets other work run while it reads", async () => {
    const text = bigText(200_000, 3);
    let ran = false;
    setImmediate(() => (ran = true));
    const paced = await extractEntitiesPaced(text, "Dana");
    assert.equal(ran, true, "an immediate queued before the extraction ran during it");
    assert.deepEqual(paced, extractEntities(text, "Dana"));
    assert.ok(paced.some((e) => e.key === "priya raman"));
  });

  test("a text of many identifiers keeps each name outside them and skips the tokens inside", () => {
    const text = Array.from({ length: 3000 }, (_, i) => `Priya Raman fixed ERR_TIMEOUT_${i} in payments-api v2.${i % 10}.1 yesterday.`).join(" ");
    const keys = extractEntities(text, null).map((e) => e.key);
    assert.ok(keys.includes("priya raman"));
    assert.ok(keys.includes("err_timeout_2999"));
    assert.ok(!keys.some((k) => k.startsWith("err_timeout") && k.includes(" ")), "no name runs into an identifier");
  });
});
