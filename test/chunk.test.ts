import assert from "node:assert/strict";
import { test } from "node:test";
import fc from "fast-check";
import { chunkText } from "../src/text/chunk.js";

test("short text is one chunk", () => {
  assert.deepEqual(chunkText("One sentence. Two sentences.", { maxChars: 900, overlapSentences: 1 }), [
    { ord: 0, start: 0, end: 28, text: "One sentence. Two sentences." },
  ]);
});

test("long text is cut at sentence boundaries, bounded, with one sentence of overlap", () => {
  const sentences = Array.from({ length: 40 }, (_, i) => `Sentence number ${i} talks about topic ${i % 7} at some length.`);
  const text = sentences.join(" ");
  const chunks = chunkText(text, { maxChars: 300, overlapSentences: 1 });
  assert.ok(chunks.length > 5);
  for (const c of chunks) {
    assert.ok(c.text.length <= 300);
    assert.equal(text.slice(c.start, c.end), c.text);
    assert.match(c.text, /^Sentence number \d+/);
    assert.match(c.text, /length\.$/);
  }
  for (let i = 1; i < chunks.length; i++) {
    const lastOfPrevious = chunks[i - 1].text.split(/(?<=\.) /).pop()!;
    assert.ok(chunks[i].text.startsWith(lastOfPrevious), "the next chunk opens with the previous chunk's last sentence");
  }
  assert.equal(chunks.at(-1)!.end, text.length);
});

test("a sentence longer than the bound is split at word boundaries", () => {
  const text = "word ".repeat(500).trim();
  const chunks = chunkText(text, { maxChars: 100, overlapSentences: 1 });
  for (const c of chunks) {
    assert.ok(c.text.length <= 100);
    assert.match(c.text, /^word( word)*$/);
  }
});

test("property: every chunk is a bounded slice of the text and the chunks cover every non-space character", () => {
  fc.assert(
    fc.property(fc.string({ unit: "grapheme", maxLength: 3000 }), fc.integer({ min: 20, max: 400 }), (text, maxChars) => {
      const chunks = chunkText(text, { maxChars, overlapSentences: 1 });
      const covered = new Uint8Array(text.length);
      for (const c of chunks) {
        assert.equal(text.slice(c.start, c.end), c.text);
        assert.ok(c.text.length <= maxChars);
        assert.ok(c.text.isWellFormed());
        covered.fill(1, c.start, c.end);
      }
      for (let i = 0; i < text.length; i++) if (!/\s/.test(text[i])) assert.equal(covered[i], 1, `character ${i} lost`);
    }),
    { numRuns: 300, seed: 7 },
  );
});

test("a sentence longer than a chunk is cut at its last space inside the window, else at the window's end", () => {
  // one space, in the first window only: every later window of the long word is cut at its end
  const text = `Hi ${"a".repeat(2500)}`;
  const cuts = chunkText(text, { maxChars: 1000, overlapSentences: 0 }).map((c) => [c.start, c.end]);
  assert.deepEqual(cuts, [[0, 2], [3, 1003], [1003, 2003], [2003, 2503]]);
  const spaced = `${"b".repeat(900)} ${"c".repeat(900)}`;
  assert.deepEqual(chunkText(spaced, { maxChars: 1000, overlapSentences: 0 }).map((c) => c.text.length), [900, 900]);
});
