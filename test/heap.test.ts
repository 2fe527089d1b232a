import assert from "node:assert/strict";
import { test } from "node:test";
import { boundHeapGrowth, DEFAULT_HEAP_GROWTH_PERCENT } from "../src/surfaces/heap.js";

test("heap growth: sets V8's growth factor, leaves V8's own for 0 and a factor the user gave node", () => {
  const set: string[] = [];
  const setFlags = (f: string) => void set.push(f);
  assert.deepEqual(boundHeapGrowth(50, [], setFlags), { percent: 50, reason: "set" });
  assert.deepEqual(set, ["--heap-growing-percent=50"]);
  assert.deepEqual(boundHeapGrowth(0, [], setFlags), { percent: null, reason: "v8 default asked" });
  for (const user of ["--heap-growing-percent=20", "--heap_growing_percent=20", "--heap-growing-percent"]) {
    assert.deepEqual(boundHeapGrowth(50, ["--max-old-space-size=4096", user], setFlags), { percent: null, reason: "set by the user" });
  }
  // other heap flags do not stop it
  assert.deepEqual(boundHeapGrowth(30, ["--max-old-space-size=4096", "--heap-growing-percentile"], setFlags), { percent: 30, reason: "set" });
  assert.deepEqual(set, ["--heap-growing-percent=50", "--heap-growing-percent=30"]);
  assert.throws(() => boundHeapGrowth(-1, [], setFlags), RangeError);
  assert.throws(() => boundHeapGrowth(1.5, [], setFlags), RangeError);
  assert.ok(DEFAULT_HEAP_GROWTH_PERCENT > 0);
});
