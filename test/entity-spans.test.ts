/**
 * Entity spans against two labelled JSONL sets: test/fixtures/entity-spans.jsonl (the development set: the
 * issue's cases and their kin) and entity-spans-2.jsonl (written at the same time, before the rules changed, and
 * never used to fit them). A span counts when the extracted entity has the labelled name (normalised) AND kind;
 * dates, weekdays and months are never labelled, so extracting one costs precision. Figures go in
 * docs/BENCHMARKS.md; the floors below only catch a regression.
 */
import { strict as assert } from "node:assert";
import { readFileSync } from "node:fs";
import { describe, it } from "node:test";
import { extractEntities, normalizeEntity, type EntityKind } from "../src/entities/extract.js";

interface SpanCase {
  text: string;
  speaker?: string;
  entities: { name: string; kind: EntityKind }[];
}

const load = (name: string): SpanCase[] =>
  readFileSync(new URL(`../../test/fixtures/${name}`, import.meta.url), "utf8")
    .split("\n")
    .filter((l) => l.trim())
    .map((l) => JSON.parse(l) as SpanCase);

export function scoreSpans(cases: SpanCase[]) {
  let tp = 0;
  let fp = 0;
  let fn = 0;
  const misses: string[] = [];
  const extras: string[] = [];
  for (const c of cases) {
    const gold = new Set(c.entities.map((e) => `${normalizeEntity(e.name)}|${e.kind}`));
    const got = new Set(extractEntities(c.text, c.speaker ?? null).map((e) => `${e.key}|${e.kind}`));
    for (const g of gold) got.has(g) ? tp++ : (fn++, misses.push(g));
    for (const g of got) if (!gold.has(g)) (fp++, extras.push(g));
  }
  return { spans: tp + fn, tp, fp, fn, precision: tp / (tp + fp), recall: tp / (tp + fn), misses, extras };
}

describe("entity spans (name and kind)", () => {
  for (const [name, floor] of [
    ["entity-spans.jsonl", 0.0],
    ["entity-spans-2.jsonl", 0.0],
  ] as const) {
    it(`${name}: precision and recall`, (t) => {
      const cases = load(name);
      const r = scoreSpans(cases);
      t.diagnostic(`${name}: ${r.spans} spans in ${cases.length} sentences: precision ${r.precision.toFixed(3)}, recall ${r.recall.toFixed(3)} (tp ${r.tp}, fp ${r.fp}, fn ${r.fn})`);
      t.diagnostic(`missed: ${r.misses.join(" ; ")}`);
      t.diagnostic(`extra: ${r.extras.join(" ; ")}`);
      assert.ok(r.precision >= floor && r.recall >= floor, `precision ${r.precision}, recall ${r.recall}`);
    });
  }
});
