/**
 * The store as searches read it (api/paced-store.ts): each call answers what the store answers, and once 10 ms of
 * work have passed without a pause, the caller resumes only after pending I/O callbacks (here an immediate queued
 * before the call) have run. The work is a busy wait of 15 ms, so the pause is certain whatever the machine's load;
 * no duration is asserted.
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import { pacedStore } from "../src/api/paced-store.js";
import type { Store } from "../src/ports/store.js";

const busy = (ms: number) => {
  const until = performance.now() + ms;
  while (performance.now() < until);
};

/** A stand-in store: two async reads that hold the thread, one sync method, and entity reads. */
function fakeStore() {
  return {
    calls: 0,
    async getMemory(id: string) {
      this.calls++;
      busy(15);
      return { id };
    },
    async termStats(words: string[]) {
      this.calls++;
      return new Map(words.map((w) => [w, 1]));
    },
    stamp() {
      return "sync";
    },
    entities: {
      async wordsOf(ids: string[]) {
        busy(15);
        return new Map(ids.map((id) => [id, []]));
      },
    },
  };
}

test("a paced store answers what the store answers, a sync method as it is, and its methods run on the store", async () => {
  const raw = fakeStore();
  const store = pacedStore(raw as unknown as Store) as unknown as ReturnType<typeof fakeStore>;
  assert.deepEqual(await store.getMemory("m1"), { id: "m1" });
  assert.deepEqual(await store.termStats(["a", "b"]), new Map([["a", 1], ["b", 1]]));
  assert.equal(store.stamp(), "sync");
  assert.equal(raw.calls, 2, "`this` is the store itself");
  assert.deepEqual(await store.entities.wordsOf(["m1"]), new Map([["m1", []]]));
});

test("after a call that held the thread past 10 ms, the caller resumes only after waiting I/O callbacks ran", async () => {
  for (const read of [(s: ReturnType<typeof fakeStore>) => s.getMemory("m1"), (s: ReturnType<typeof fakeStore>) => s.entities.wordsOf(["m1"])]) {
    const store = pacedStore(fakeStore() as unknown as Store) as unknown as ReturnType<typeof fakeStore>;
    let ran = false;
    setImmediate(() => (ran = true));
    await read(store);
    assert.equal(ran, true, "the immediate queued before the call ran before the caller resumed");
    // without the wrapper, the same call resumes its caller first (an await of an answered call is a microtask)
    let rawRan = false;
    setImmediate(() => (rawRan = true));
    await read(fakeStore());
    assert.equal(rawRan, false);
  }
});
