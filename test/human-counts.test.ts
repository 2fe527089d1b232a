/**
 * Counts say singular and plural right ("1 memory", "1 day"), and joined memories never
 * read as one sentence in a one-line preview.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { test } from "node:test";
import { countOf } from "../src/index.js";
import { cli, cliHere, tempDir } from "./helpers.js";

test("countOf: the noun in the right number", () => {
  assert.deepEqual(
    [countOf(1, "memory"), countOf(2, "memory"), countOf(0, "window"), countOf(1, "child"), countOf(3, "child"), countOf(2, "day"), countOf(2, "match")],
    ["1 memory", "2 memories", "0 windows", "1 child", "3 children", "2 days", "2 matches"],
  );
});

test("pyramid show: one day of two memories reads '2 memories', '1 day', '1 week'; a preview keeps lines apart", async () => {
  const db = join(tempDir(), "counts.db");
  // the first call a CLI process, the others in this process (helpers cliHere: the same output and exit code)
  const proc = (...args: string[]) => cli(["--db", db, "--now", "2026-12-01T12:00:00Z", ...args]);
  const run = (...args: string[]) => cliHere(["--db", db, "--now", "2026-12-01T12:00:00Z", ...args]);
  proc("add", "I prefer aisle seats on flights", "--speaker", "Sam", "--at", "2026-11-30T09:00:00Z");
  (await run("add", "Sam is pescatarian\nHe loves grilled sardines", "--at", "2026-11-30T10:00:00Z"));
  const out = (await run("pyramid", "show")).stdout;
  // the day's sentences, one a line of its memory, joined with " · " where no full stop ends them
  assert.match(out, /^day .* 2 memories {2}p_day_2026-11-30\n {4}Sam: I prefer aisle seats on flights · He loves grilled sardines\n/m);
  assert.match(out, /^week .* 1 day {2}p_week_/m);
  assert.match(out, /^month .* 1 week {2}p_month_/m);
  assert.match(out, /\n\(3 nodes, time zone UTC, up to date\)\n$/);
  assert.match((await run("stats")).stdout, /^2 memories, /);
  assert.match((await run("list")).stdout, /^ {4}Sam is pescatarian · He loves grilled sardines$/m);
});
