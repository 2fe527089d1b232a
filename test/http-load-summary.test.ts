/**
 * The HTTP load bench's summary (bench/http-load.ts): worker counts take turns over several rounds, and the
 * throughput ratio is taken between medians, never between two single runs.
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import { throughputSummary, type HttpLoadReport } from "../bench/http-load.js";

const run = (round: number, workers: number, connections: number, requests_per_s: number): HttpLoadReport => ({
  chunks: 100,
  workers,
  round,
  connections,
  requests: requests_per_s * 15,
  errors: 0,
  requests_per_s,
  round_trip_ms: { p50: 1, p95: 1, p99: 1 },
  engine_ms: { p50: 1, p95: 1, p99: 1 },
  overhead_ms: { p50: 0, p95: 0, p99: 0 },
});

test("each worker count's median throughput at the given connections, over the first count's", () => {
  const reports = [
    run(1, 1, 1, 40), run(1, 1, 50, 60), run(1, 2, 1, 38), run(1, 2, 50, 100),
    run(2, 1, 1, 41), run(2, 1, 50, 50), run(2, 2, 1, 39), run(2, 2, 50, 110),
    run(3, 1, 1, 42), run(3, 1, 50, 55), run(3, 2, 1, 40), run(3, 2, 50, 90),
  ];
  assert.deepEqual(throughputSummary(reports, 50), [
    { workers: 1, runs: [60, 50, 55], median: 55, ratio: 1 },
    { workers: 2, runs: [100, 110, 90], median: 100, ratio: 1.82 },
  ]);
  // an even number of runs: the mean of the middle two
  assert.deepEqual(throughputSummary(reports.slice(0, 8), 50).map((r) => r.median), [55, 105]);
});
