/**
 * A graph file swapped between its check and its load. The check reads `<store>.hnsw` through a descriptor; usearch
 * then opened the file by its name again, so a file renamed over the name in between (a forged one, say) was loaded
 * unchecked. Now usearch is given a name for the very file that was checked and is still open (/proc/self/fd/N on
 * Linux), whatever the path names by then. The swap is made from the one callback that runs between the two.
 */
import assert from "node:assert/strict";
import { readFileSync, renameSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { readGraphFile } from "../src/vectors/graph-file.js";
import { HnswGraph } from "../src/vectors/hnsw.js";
import { VectorMatrix } from "../src/vectors/matrix.js";
import { tempDir } from "./helpers.js";

const OPTIONS = { threads: 1, connectivity: 8, expansionAdd: 32, expansionSearch: 32, queryCentring: 1 };

function graphOf(count: number, seed: number): HnswGraph {
  let s = seed;
  const next = () => (s = (s * 1103515245 + 12345) % 2147483648) / 2147483648;
  const matrix = new VectorMatrix(16, count);
  for (let key = 1; key <= count; key++) matrix.add(key, Float32Array.from({ length: 16 }, () => next() - 0.5));
  return HnswGraph.build(matrix, OPTIONS);
}

test("the graph usearch loads is the file that was checked, not one renamed over its path since", () => {
  const dir = tempDir();
  const path = join(dir, "memory.db.hnsw");
  const other = join(dir, "other.hnsw");
  graphOf(120, 1).save(path);
  graphOf(40, 2).save(other);
  const checkedBytes = readFileSync(path);

  let loaded: Buffer | null = null;
  const result = readGraphFile(
    path,
    () => {
      renameSync(other, path); // the swap, after the file was opened and before it is checked and loaded
      return true;
    },
    { connectivity: OPTIONS.connectivity, chunks: 120 },
    (checked) => (loaded = readFileSync(checked)),
  );
  assert.ok(Buffer.isBuffer(result), `the checked file verifies: ${JSON.stringify(result)}`);
  assert.ok(loaded && checkedBytes.equals(loaded), "what is handed to the loader is the file that was checked");
  assert.ok(!readFileSync(path).equals(checkedBytes), "the path names the other file by now");

  // and usearch itself loads a graph through that name
  graphOf(120, 1).save(path);
  const opened = HnswGraph.open(path, 16, OPTIONS, 120);
  assert.equal(opened.graph?.size, 120);
});
