/**
 * Sentences are not split at abbreviations, initials or decimals, and a text with no final
 * full stop never runs into the next line (a memory boundary). Boundary precision and recall are printed for the
 * development set and the held-out set (test/fixtures/sentences.ts) and held above floors.
 */
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { sentenceSpans, sentencesOf } from "../src/text/sentences.js";
import { development, heldOut, type SplitCase } from "./fixtures/sentences.js";

/** Where each sentence after the first starts, in the text the case's sentences make when joined. */
function boundaries(c: SplitCase): { text: string; gold: Set<number> } {
  const join = c.join ?? " ";
  const gold = new Set<number>();
  let text = "";
  for (const [i, s] of c.sentences.entries()) {
    if (i > 0) gold.add((text += join).length);
    text += s;
  }
  return { text, gold };
}

export function scoreSplits(cases: SplitCase[], split: (text: string) => number[]) {
  let tp = 0;
  let fp = 0;
  let fn = 0;
  const wrong: string[] = [];
  for (const c of cases) {
    const { text, gold } = boundaries(c);
    const got = new Set(split(text).slice(1));
    const missed = [...gold].filter((g) => !got.has(g)).length;
    const extra = [...got].filter((g) => !gold.has(g)).length;
    tp += gold.size - missed;
    fn += missed;
    fp += extra;
    if (missed + extra > 0) wrong.push(JSON.stringify(split(text).map((s, i, all) => text.slice(s, all[i + 1] ?? text.length).trim())));
  }
  return { tp, fp, fn, precision: tp / (tp + fp), recall: tp / (tp + fn), wrong };
}

const starts = (text: string) => sentenceSpans(text).map((s) => s.start);

describe("sentence splitting", () => {
  test("the reported cases: a title keeps its name, a line without a full stop ends its sentence", () => {
    assert.deepEqual(sentencesOf("Sam booked an appointment with Dr. Okafor. It is on Monday."), ["Sam booked an appointment with Dr. Okafor.", "It is on Monday."]);
    assert.deepEqual(sentencesOf("I prefer aisle seats on flights\nSam is pescatarian"), ["I prefer aisle seats on flights", "Sam is pescatarian"]);
    assert.deepEqual(sentencesOf("J. R. R. Tolkien wrote it. It cost 3.5 dollars."), ["J. R. R. Tolkien wrote it.", "It cost 3.5 dollars."]);
  });

  test("an address's abbreviations go on to the street or number they name; 'no.' before a word ends a sentence", () => {
    assert.deepEqual(sentencesOf("Booked: Dr Nowak, ul. Długa 7, Monday 4 May at 10:00. The confirmation is in your email.", { chat: true }), [
      "Booked: Dr Nowak, ul. Długa 7, Monday 4 May at 10:00.",
      "The confirmation is in your email.",
    ]);
    assert.deepEqual(sentencesOf("we live at flat 2, no. 14 hyde street. call tel. 555 0142 first.", { chat: true }), ["we live at flat 2, no. 14 hyde street.", "call tel. 555 0142 first."]);
    assert.deepEqual(sentencesOf("I said no. Then he left."), ["I said no.", "Then he left."]);
    // titles of other languages keep their names as "Dr." does
    assert.deepEqual(sentencesOf("My doctor is Dra. Paredes. She sees me on Mondays, Mme. Roux on Fridays."), ["My doctor is Dra. Paredes.", "She sees me on Mondays, Mme. Roux on Fridays."]);
  });

  test("spans are trimmed offsets into the text; blank text has none", () => {
    const text = "  One.  Two?\n\n Three  ";
    assert.deepEqual(sentenceSpans(text).map((s) => text.slice(s.start, s.end)), ["One.", "Two?", "Three"]);
    assert.deepEqual(sentenceSpans(" \n\n "), []);
  });

  for (const [name, cases, floor] of [
    ["development", development, 1],
    ["held-out", heldOut, 0.8],
  ] as const) {
    test(`${name} set: boundary precision and recall`, (t) => {
      const r = scoreSplits(cases, starts);
      t.diagnostic(`${name}: ${r.tp + r.fn} boundaries in ${cases.length} texts: precision ${r.precision.toFixed(3)}, recall ${r.recall.toFixed(3)} (tp ${r.tp}, fp ${r.fp}, fn ${r.fn})`);
      for (const w of r.wrong) t.diagnostic(`split as ${w}`);
      assert.ok(r.precision >= floor && r.recall >= floor, `precision ${r.precision}, recall ${r.recall}`);
    });
  }
});
