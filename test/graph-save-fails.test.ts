/**
 * The saved vector graph is derived state: failing to save it (a full disk: usearch's "Failed to serialize into
 * stream"; here a folder that does not exist) must fail neither the search that built it nor a committed write whose
 * store is closed afterwards. Before, the save's error reached the caller: `add` on a nearly full disk exited 1 with
 * INTERNAL although the memory was stored (a retry without `ref` stored it twice), and search answered INTERNAL too.
 * Now the graph is used from memory, and doctor says why it is not saved.
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import { VectorIndex, defaultApproximateSearch } from "../src/backends/sqlite/vector-index.js";

const D = 8;
let seed = 9;
const next = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648 - 0.5;
const rows: [number, Buffer][] = Array.from({ length: 150 }, (_, i) => {
  const v = Float32Array.from({ length: D }, next);
  const n = Math.hypot(...v);
  return [i + 1, Buffer.from(v.map((x) => x / n).buffer)];
});

test("a graph that cannot be saved fails neither the search that built it nor the close after a write; doctor says why", () => {
  const index = new VectorIndex(() => 1, () => 1, () => rows, () => rows.length, { ...defaultApproximateSearch, above: 100, threads: 1, path: "/nonexistent-folder-for-a-test/memory.db.hnsw" });
  const query = new Float32Array(rows[7][1].buffer, rows[7][1].byteOffset, D);
  const [hits] = index.nearestMany([query], 5, (ids) => new Map(ids.map((id) => [id, `m${id}`])));
  assert.equal(hits[0].chunkId, 8, "the graph answers from memory");
  index.add([{ chunkId: 500, vector: query }]);
  assert.doesNotThrow(() => index.persist(), "closing after a committed write does not fail on the side file");
  assert.equal(index.persist(), false, "and says it could not save");
  const check = index.check(D, false)!;
  assert.match(check.detail, /the graph could not be saved \(.+\): searches use it from memory/);
});
