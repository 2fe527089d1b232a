/**
 * The vector matrix's exact search (vectors/matrix.ts): from QUANTIZED_FROM rows an unfiltered search scans an
 * 8-bit copy and re-scores a shortlist exactly. What it returns must be the exact neighbours, and the copy must
 * stay in step with adds, removals and rows that do not fit its scale.
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import { seededRandom } from "../src/bench/corpus.js";
import { QUANTIZED_FROM, VectorMatrix } from "../src/vectors/matrix.js";

const D = 64;

/** Unit vectors sharing one large direction, as sentence vectors do (random texts have cosines ≈ 0.8). */
function vectors(count: number, seed: number, spread = 1): Float32Array[] {
  const random = seededRandom(seed);
  const common = Array.from({ length: D }, () => random() - 0.5);
  return Array.from({ length: count }, () => {
    const v = new Float32Array(D);
    for (let j = 0; j < D; j++) v[j] = 2 * common[j] + spread * (random() - 0.5);
    const norm = Math.hypot(...v);
    return v.map((x) => x / norm);
  });
}

/** Keys in order; similarities compared to float precision (the exact path works in float32, the other in double). */
function assertSameNeighbours(got: { key: number; similarity: number }[], want: { key: number; similarity: number }[], what: string) {
  assert.deepEqual(got.map((n) => n.key), want.map((n) => n.key), what);
  got.forEach((n, i) => assert.ok(Math.abs(n.similarity - want[i].similarity) < 1e-5, `${what}: similarity ${i}`));
}

test("from QUANTIZED_FROM rows the 8-bit scan returns the exact neighbours, in order", () => {
  const m = new VectorMatrix(D);
  const rows = vectors(QUANTIZED_FROM + 500, 7);
  rows.forEach((v, i) => m.add(1000 + i, v));
  const keys = m.keyList();
  for (const q of vectors(30, 11)) {
    for (const k of [1, 10, 100]) assertSameNeighbours(m.nearest(q, k), m.nearestAmong(q, keys, k), `k ${k}`);
  }
});

test("the 8-bit copy follows adds, removals and a row larger than its scale", () => {
  const m = new VectorMatrix(D, 16);
  vectors(QUANTIZED_FROM + 10, 3).forEach((v, i) => m.add(i, v));
  const queries = vectors(10, 5);
  m.nearest(queries[0], 10); // builds the copy
  for (let key = 0; key < 400; key += 2) m.remove(key); // rows move: the copy must move with them
  const spiky = new Float32Array(D);
  spiky[0] = 1; // a component larger than any before: does not fit the scale, so the copy is rebuilt
  m.add(-1, spiky);
  vectors(300, 9, 4).forEach((v, i) => m.add(100_000 + i, v));
  const keys = m.keyList();
  assert.ok(m.count >= QUANTIZED_FROM);
  for (const q of [...queries, spiky]) assertSameNeighbours(m.nearest(q, 20), m.nearestAmong(q, keys, 20), "after changes");
  assert.equal(m.nearest(spiky, 1)[0].key, -1);
});

test("below QUANTIZED_FROM rows the search is the float scan, unchanged", () => {
  const m = new VectorMatrix(D);
  vectors(2000, 13).forEach((v, i) => m.add(i, v));
  const keys = m.keyList();
  for (const q of vectors(10, 17)) assertSameNeighbours(m.nearest(q, 25), m.nearestAmong(q, keys, 25), "small");
});

/** The null distribution by the definition: a pass over every `step`-th row. */
function sampledMoments(rows: Float32Array[], query: Float32Array, maxRows: number) {
  const step = Math.max(1, Math.ceil(rows.length / maxRows));
  const sims: number[] = [];
  for (let r = 0; r < rows.length; r += step) sims.push(rows[r].reduce((s, x, j) => s + x * query[j], 0));
  const mean = sims.reduce((a, b) => a + b, 0) / sims.length;
  return { mean, sd: Math.sqrt(sims.reduce((a, s) => a + s * s, 0) / sims.length - mean * mean), rows: sims.length };
}

test("the null distribution from the kept moments equals a pass over the sampled rows, and follows the matrix", () => {
  const rows = vectors(5000, 7);
  const m = new VectorMatrix(D);
  rows.forEach((v, i) => m.add(i, v));
  const close = (got: { mean: number; sd: number; rows: number }, want: { mean: number; sd: number; rows: number }, what: string) => {
    assert.equal(got.rows, want.rows, `${what}: rows`);
    assert.ok(Math.abs(got.mean - want.mean) < 1e-9, `${what}: mean ${got.mean} vs ${want.mean}`);
    assert.ok(Math.abs(got.sd - want.sd) < 1e-7, `${what}: sd ${got.sd} vs ${want.sd}`);
  };
  for (const [i, q] of vectors(5, 8, 3).entries()) close(m.similarityMoments(q, 512), sampledMoments(rows, q, 512), `query ${i}`);
  // a store no larger than the sample: every row, read directly
  close(m.similarityMoments(rows[0], 8000), sampledMoments(rows, rows[0], 8000), "small store");

  // rows far from the rest: a few change nothing yet, more than 1/64 of the matrix and the sample is read again
  const outliers = vectors(200, 9, 40).map((v) => v.map((x, j) => (j === 0 ? -Math.abs(x) : x)));
  const query = rows[1];
  const before = m.similarityMoments(query, 512);
  outliers.slice(0, 40).forEach((v, i) => m.add(10_000 + i, v));
  assert.deepEqual(m.similarityMoments(query, 512), before, "40 of 5,040 rows added: the kept moments still answer");
  outliers.slice(40).forEach((v, i) => m.add(10_040 + i, v));
  const all = [...rows, ...outliers];
  close(m.similarityMoments(query, 512), sampledMoments(all, query, 512), "after 200 rows added");
  for (let i = 0; i < 200; i++) m.remove(10_000 + i);
  close(m.similarityMoments(query, 512), sampledMoments(rows, query, 512), "after they were removed");
});
