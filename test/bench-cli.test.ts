/**
 * `cascade bench` as a process (it owns the process it runs in: it sets V8's heap growth at start, so the CLI in
 * the test's process refuses it). Each run costs about 3.5 s of CPU whatever --chunks is (its revision-detection
 * sample is 400 memories), so the smoke test, the memory trace and the heap growth share three runs: the default
 * one, one with --memory-trace and --heap-growth 80 together, and one with --heap-growth 0.
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import { DEFAULT_HEAP_GROWTH_PERCENT } from "../src/surfaces/heap.js";
import { cli, type CliResult } from "./helpers.js";

const runs = new Map<string, CliResult>();
/** `cascade bench --chunks 300 --queries 3 --json EXTRA`, run once per set of extra flags in this file. */
function bench(...extra: string[]): CliResult {
  const key = extra.join(" ");
  if (!runs.has(key)) runs.set(key, cli(["bench", "--chunks", "300", "--queries", "3", "--json", ...extra]));
  return runs.get(key)!;
}
const TRACED = ["--memory-trace", "1000", "--heap-growth", "80"];

test("bench runs (smoke test; timings are reported, not asserted: `cascade bench --chunks 100000` measures)", () => {
  const r = bench();
  assert.equal(r.status, 0, r.stderr);
  assert.equal(r.json.chunks, 300);
  assert.equal(r.json["ann_recall@10"], 1);
  for (const c of ["fused", "bm25", "dense", "curated", "colbert"]) assert.ok(r.json.latency_ms[c].p95 >= 0);
});

test("bench --memory-trace reports memory by phase (smoke test; sizes are reported, not asserted)", () => {
  // the trace samples at every phase change as well as on its interval, so a small run shows every phase
  const r = bench(...TRACED);
  assert.equal(r.status, 0, r.stderr);
  assert.equal(r.json.chunks, 300);
  const phases = Object.keys(r.json.memory.by_phase);
  for (const p of ["ingest", "build", "queries"]) assert.ok(phases.includes(p), `${p} in ${phases.join(", ")}`);
  for (const s of r.json.memory.samples) assert.ok(s.rss > 0 && s.heap_total > 0 && s.max_rss >= s.rss - 1);
});

test("bench reports the heap growth it ran with (--heap-growth, default, 0 for V8's own)", () => {
  const byDefault = bench();
  assert.equal(byDefault.status, 0, byDefault.stderr);
  assert.equal(byDefault.json.heap_growth_percent, DEFAULT_HEAP_GROWTH_PERCENT);
  assert.equal(bench(...TRACED).json.heap_growth_percent, 80);
  assert.equal(bench("--heap-growth", "0").json.heap_growth_percent, null);
  assert.notEqual(bench("--heap-growth", "-5").status, 0);
});
