import { test } from "node:test";
import assert from "node:assert/strict";
import { oneTurnEach } from "../src/surfaces/http/search-queue.js";

/** Busy CPU work with the awaits a search over SQLite has: resolved promises only, no real I/O. */
async function cpuTask(log: string[], name: string, fail = false): Promise<string> {
  log.push(`start ${name}`);
  for (let i = 0; i < 3; i++) await Promise.resolve();
  log.push(`end ${name}`);
  if (fail) throw new Error(`${name} failed`);
  return name;
}

test("searches run one at a time, in the order they came", async () => {
  const run = oneTurnEach();
  const log: string[] = [];
  const answers = await Promise.all(["a", "b", "c"].map((n) => run(() => cpuTask(log, n))));
  assert.deepEqual(answers, ["a", "b", "c"]);
  assert.deepEqual(log, ["start a", "end a", "start b", "end b", "start c", "end c"]);
});

test("the event loop polls between two searches: I/O that arrives during one is handled before the next starts", async () => {
  const run = oneTurnEach();
  const log: string[] = [];
  const first = run(async () => {
    log.push("start a");
    // a callback of the poll/check phase queued while the search runs, as a new connection's would be
    setImmediate(() => log.push("io"));
    await Promise.resolve();
    log.push("end a");
  });
  const second = run(() => cpuTask(log, "b"));
  await Promise.all([first, second]);
  assert.deepEqual(log, ["start a", "end a", "io", "start b", "end b"]);
});

test("a failed search does not hold up the next, and its caller gets its error", async () => {
  const run = oneTurnEach();
  const log: string[] = [];
  const failed = run(() => cpuTask(log, "a", true));
  const next = run(() => cpuTask(log, "b"));
  await assert.rejects(failed, /a failed/);
  assert.equal(await next, "b");
  // the queue is idle again and takes more
  assert.equal(await run(() => cpuTask(log, "c")), "c");
});
