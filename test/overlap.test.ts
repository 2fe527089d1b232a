/**
 * The PostgreSQL write's client work done while the server answers (backends/postgres/overlap.ts): the same
 * results in the same order as doing it at once, some of it done while a statement was pending, and a failed
 * statement's error passed on untouched.
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import { Overlap } from "../src/backends/postgres/overlap.js";

const later = <T>(value: T, ms: number) => new Promise<T>((resolve) => setTimeout(() => resolve(value), ms));

test("work runs while a statement is pending, and all() finishes it in order", async () => {
  const done: number[] = [];
  const items = Array.from({ length: 5000 }, (_, i) => i);
  const overlap = new Overlap(items, (i) => {
    done.push(i);
    return i * 2;
  });
  const q = overlap.over({ query: async <T>() => later([{ ok: 1 }] as T[], 20) });
  assert.deepEqual(await q.query("SELECT 1"), [{ ok: 1 }]);
  const whileWaiting = done.length;
  assert.ok(whileWaiting > 32, `more than the first slice was done while the statement was pending (${whileWaiting})`);
  assert.deepEqual(overlap.all(), items.map((i) => i * 2));
  assert.deepEqual(done, items, "each item once, in order");
});

test("a statement's failure reaches the caller as it was", async () => {
  const overlap = new Overlap([1, 2, 3], (i) => i);
  const failure = new Error("duplicate key value violates unique constraint");
  const q = overlap.over({ query: () => later(null, 5).then(() => Promise.reject(failure)) });
  await assert.rejects(q.query("INSERT"), (err) => err === failure);
  assert.deepEqual(overlap.all(), [1, 2, 3]);
});

test("nothing to do waits for the statement alone", async () => {
  const overlap = new Overlap<number, number>([], (i) => i);
  assert.equal(await overlap.during(later("answer", 5)), "answer");
  assert.deepEqual(overlap.all(), []);
});
