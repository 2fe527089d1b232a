/**
 * Searches first (event-loop.ts): while a search runs under `asSearch`, another work's pause (`letIoIn`) lasts until
 * the search has answered, or at most 50 ms; a search's own pause (`letIoInNow`) is one turn of the event loop. The
 * order of events is asserted, never a duration.
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import { asSearch, letIoIn, letIoInNow } from "../src/event-loop.js";

const turns = async (n: number) => {
  for (let i = 0; i < n; i++) await letIoInNow();
};

test("with no search under way, a pause ends after I/O callbacks queued before it", async () => {
  let ran = false;
  setImmediate(() => (ran = true));
  await letIoIn();
  assert.equal(ran, true);
});

test("a pause of other work taken during a search ends once the search has answered", async () => {
  const events: string[] = [];
  let finish!: () => void;
  const search = asSearch(async () => {
    await new Promise<void>((r) => (finish = r));
    events.push("search answered");
  });
  const pause = letIoIn().then(() => events.push("pause ended"));
  await turns(5);
  assert.deepEqual(events, [], "the pause waits while the search is under way");
  finish();
  await Promise.all([search, pause]);
  assert.deepEqual(events, ["search answered", "pause ended"]);
});

test("a search's own pauses do not wait for searches", async () => {
  const events: string[] = [];
  await asSearch(async () => {
    await letIoInNow();
    events.push("own pause ended");
    await turns(3);
    events.push("search answered");
  });
  assert.deepEqual(events, ["own pause ended", "search answered"]);
});

test("a search that never answers holds other work's pauses only for a while", async () => {
  let finish!: () => void;
  const search = asSearch(() => new Promise<void>((r) => (finish = r)));
  await letIoIn(); // ends by its time limit, the search still under way
  let after = false;
  await letIoIn().then(() => (after = true));
  assert.equal(after, true);
  finish();
  await search;
});

test("a failing search still lets other work go on", async () => {
  const pause = letIoIn();
  await assert.rejects(asSearch(async () => { await turns(2); throw new Error("boom"); }), /boom/);
  await pause;
});
