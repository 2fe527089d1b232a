/**
 * Figures the docs quote from the generated report (docs/BENCHMARKS.md, written by bench/report.ts) stay in step
 * with it, and the hand-written figures quoted in two places say the same in both.
 */
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { test } from "node:test";

const read = (path: string): string => readFileSync(new URL(`../../${path}`, import.meta.url), "utf8");
const BENCHMARKS = read("docs/BENCHMARKS.md");
const NOTES = read("docs/benchmark-notes.md");
const NOTES_HEADING = "\n## Notes and findings\n\n";
const generated = BENCHMARKS.slice(0, BENCHMARKS.indexOf(NOTES_HEADING));

/** The cells of the row labelled `label` in the first table after `heading` in the generated report. */
function row(heading: string, label: string): string[] {
  const section = generated.slice(generated.indexOf(`\n## ${heading}`));
  assert.ok(section.length < generated.length, `the report has a section "${heading}"`);
  const line = section.split("\n").find((l) => l.startsWith(`| ${label} |`));
  assert.ok(line, `"${heading}" has a row "${label}"`);
  return line.split("|").slice(2, -1).map((c) => c.trim());
}

test("BENCHMARKS.md ends with benchmark-notes.md as the report copies it (the notes are edited in one place)", () => {
  assert.ok(BENCHMARKS.includes(NOTES_HEADING), "the report has its notes section");
  assert.equal(BENCHMARKS.slice(BENCHMARKS.indexOf(NOTES_HEADING) + NOTES_HEADING.length).trim(), NOTES.trim());
  // bench/report.ts writes the same heading it is read back by
  assert.ok(read("bench/report.ts").includes("## Notes and findings\\n\\n${notes}"));
});

test("figures quoted from the generated report match it", () => {
  const fused = row("Retrieval quality: LoCoMo", "all channels (fused)")[1];
  const lance = row("Peers: LanceDB and Orama in the same run", "lancedb hybrid (RRF)")[1];
  const orama = row("Peers: LanceDB and Orama in the same run", "orama hybrid")[1];
  const evaluation = read("docs/EVALUATION.md").replace(/\s+/g, " ");
  assert.ok(evaluation.includes(`side-by-side run with peers, Cascade ${fused} against LanceDB hybrid ${lance} and Orama hybrid ${orama}`), "EVALUATION.md quotes the peers table");
  assert.ok(NOTES.replace(/\s+/g, " ").includes(`against ${fused} above`), "the notes compare their LoCoMo figure with the report's");
});

test("the 1,000,000-chunk figures in SCALING.md are the findings' own", () => {
  const notes = (label: string) => {
    const line = NOTES.split("\n").find((l) => l.startsWith(`| ${label} |`));
    assert.ok(line, `the notes' 1,000,000-chunk table has "${label}"`);
    return line.split("|")[2].trim();
  };
  const scaling = read("docs/SCALING.md");
  const stage1 = (label: string) => scaling.split("\n").find((l) => l.startsWith(`| ${label} |`))!.split("|")[3].trim();
  assert.equal(stage1("fused search p50 / p95 / p99"), notes("fused p50 / p95 / p99").replace(/ ms$/, " ms (four runs)"));
  assert.equal(stage1("bulk ingest"), notes("bulk ingest"));
  assert.equal(stage1("store on disk"), notes("store on disk"));
  assert.ok(stage1("peak RSS of the benchmark process").startsWith(notes("peak RSS")));
  const recall = /recall@10 against exact ([\d.–]+)$/.exec(notes("dense p50 / p95 (HNSW)"))![1];
  assert.equal(stage1("dense search"), `HNSW, recall@10 ${recall} against exact`);
});
