/**
 * Entity spans against two labelled JSONL sets: test/fixtures/entity-spans.jsonl (the development set: the
 * reported cases and their kin) and entity-spans-2.jsonl (written at the same time, before the rules changed, and
 * never used to fit them). A span counts when the extracted entity has the labelled name (normalised) AND kind;
 * dates, weekdays and months are never labelled, so extracting one costs precision. Scored twice: each sentence
 * alone (a tentative name, a sentence-opening English word, is dropped, as an empty store drops it) and as a
 * store holding the whole set sees it (a tentative name is kept when another sentence named it for sure).
 * Figures go in docs/BENCHMARKS.md; the floors below only catch a regression.
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

export function scoreSpans(cases: SpanCase[], mode: "alone" | "store") {
  const extracted = cases.map((c) => extractEntities(c.text, c.speaker ?? null));
  const sure = new Set(extracted.flatMap((es) => es.filter((e) => !e.tentative).map((e) => e.key)));
  let tp = 0;
  let fp = 0;
  let fn = 0;
  const misses: string[] = [];
  const extras: string[] = [];
  for (const [i, c] of cases.entries()) {
    const gold = new Set(c.entities.map((e) => `${normalizeEntity(e.name)}|${e.kind}`));
    const kept = extracted[i].filter((e) => !e.tentative || (mode === "store" && sure.has(e.key)));
    const got = new Set(kept.map((e) => `${e.key}|${e.kind}`));
    for (const g of gold) got.has(g) ? tp++ : (fn++, misses.push(g));
    for (const g of got) if (!gold.has(g)) (fp++, extras.push(g));
  }
  return { spans: tp + fn, tp, fp, fn, precision: tp / (tp + fp), recall: tp / (tp + fn), misses, extras };
}

describe("entity spans (name and kind)", () => {
  for (const [name, floor] of [
    ["entity-spans.jsonl", 0.9],
    ["entity-spans-2.jsonl", 0.9],
  ] as const) {
    for (const mode of ["alone", "store"] as const) {
      it(`${name}, ${mode}: precision and recall`, (t) => {
        const cases = load(name);
        const r = scoreSpans(cases, mode);
        t.diagnostic(`${name} (${mode}): ${r.spans} spans in ${cases.length} sentences: precision ${r.precision.toFixed(3)}, recall ${r.recall.toFixed(3)} (tp ${r.tp}, fp ${r.fp}, fn ${r.fn})`);
        t.diagnostic(`missed: ${r.misses.join(" ; ")}`);
        t.diagnostic(`extra: ${r.extras.join(" ; ")}`);
        assert.ok(r.precision >= floor && r.recall >= (mode === "store" ? floor : floor - 0.1), `precision ${r.precision}, recall ${r.recall}`);
      });
    }
  }
});
