/**
 * Entity extraction against the labelled fixture (written before the extractor's rules): precision and recall
 * over entity mentions are printed, and held above floors so that a regression fails.
 */
import { strict as assert } from "node:assert";
import { describe, it } from "node:test";
import { extractEntities, normalizeEntity } from "../src/entities/extract.js";
import { labelledSentences } from "./fixtures/entity-mentions.js";

export function scoreExtraction() {
  let tp = 0;
  let fp = 0;
  let fn = 0;
  const misses: string[] = [];
  const extras: string[] = [];
  for (const s of labelledSentences) {
    const gold = new Set(s.entities.map(normalizeEntity));
    // a tentative name (a sentence-opening English word) is dropped by a store that does not know it yet
    const got = new Set(extractEntities(s.text, s.speaker ?? null).filter((e) => !e.tentative).map((e) => e.key));
    for (const g of gold) (got.has(g) ? tp++ : (fn++, misses.push(g)));
    for (const g of got) if (!gold.has(g)) (fp++, extras.push(g));
  }
  return { tp, fp, fn, precision: tp / (tp + fp), recall: tp / (tp + fn), misses, extras };
}

describe("extractEntities", () => {
  it("the fixture holds at least 100 labelled mentions", () => {
    assert.ok(labelledSentences.reduce((n, s) => n + s.entities.length, 0) >= 100);
  });

  it("finds the fixture's entities with measured precision and recall", (t) => {
    const r = scoreExtraction();
    t.diagnostic(`entity extraction on ${r.tp + r.fn} labelled mentions: precision ${r.precision.toFixed(3)}, recall ${r.recall.toFixed(3)} (tp ${r.tp}, fp ${r.fp}, fn ${r.fn})`);
    t.diagnostic(`missed: ${r.misses.join(" | ")}`);
    t.diagnostic(`extra: ${r.extras.join(" | ")}`);
    assert.ok(r.precision >= 0.8, `precision ${r.precision}`);
    assert.ok(r.recall >= 0.75, `recall ${r.recall}`);
  });

  it("normalises case, possessives and spacing", () => {
    assert.equal(normalizeEntity("Priya's"), "priya");
    assert.equal(normalizeEntity("Node  20"), "node 20");
    assert.equal(normalizeEntity("James"), "james");
  });

  it("adds the speaker, and nothing for a text with no name in it", () => {
    assert.deepEqual(extractEntities("the weather was nice and we went for a walk.", "Ana").map((e) => e.key), ["ana"]);
    // "Thanks" opens a sentence and is an English word: at most a tentative name, which no store knows
    assert.deepEqual(extractEntities("Wow, that was so good! Thanks for sharing.", null).filter((e) => !e.tentative), []);
  });
});
