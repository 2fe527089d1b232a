/**
 * Late interaction's work budget (issue 20): a query reads at most `maxPostings` index entries, rarest words first;
 * when the budget bites, the search says so in `channels.colbert.budget`, and otherwise says nothing.
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import { withinBudget } from "../src/channels/colbert.js";
import { openMemory } from "../src/index.js";

test("withinBudget reads the rarest words first, always at least one, and reports what it skipped", () => {
  const df = new Map([["rare", 2], ["middling", 30], ["common", 500], ["huge", 5000]]);
  const reports: unknown[] = [];
  const read = withinBudget(["huge", "common", "rare", "middling"], (t) => df.get(t)!, 600, (r) => reports.push(r));
  assert.deepEqual(read, ["rare", "middling", "common"]);
  assert.deepEqual(reports, [{ limit: 600, used: 532, skipped: ["huge"] }]);
  assert.deepEqual(withinBudget(["huge"], (t) => df.get(t)!, 10), ["huge"], "the rarest word is read even over budget");
  const quiet: unknown[] = [];
  assert.deepEqual(withinBudget(["rare", "common"], (t) => df.get(t)!, 10_000, (r) => quiet.push(r)), ["rare", "common"]);
  assert.equal(quiet.length, 0, "a budget that does not bite is not reported");
});

test("a search whose late-interaction budget bites still answers, from the rare words, and reports the cut", async () => {
  const now = "2026-07-01T00:00:00Z";
  const notes = [
    ...Array.from({ length: 40 }, (_, i) => `The team meeting ${i} covered the weekly schedule and the project status`),
    "The zeppelin hangar roof leaks during the team meeting",
  ];
  const small = await openMemory({ path: ":memory:", lateInteraction: { maxPostings: 10 } });
  const roomy = await openMemory({ path: ":memory:" });
  for (const m of [small, roomy]) for (const [i, text] of notes.entries()) await m.remember({ text, at: `2026-06-${String(1 + (i % 28)).padStart(2, "0")}T00:00:00Z` });
  const cut = await small.recall("zeppelin team meeting schedule", { channels: ["colbert"], now });
  const budget = cut.channels.colbert!.budget!;
  assert.equal(budget.limit, 10);
  assert.ok(budget.skipped.includes("team") && budget.skipped.includes("meeting"), `the common words are the ones skipped: ${budget.skipped}`);
  assert.ok(!budget.skipped.includes("zeppelin"));
  assert.match(cut.hits[0].text, /zeppelin/, "the rare word still finds its memory");
  const full = await roomy.recall("zeppelin team meeting schedule", { channels: ["colbert"], now });
  assert.equal(full.channels.colbert!.budget, undefined);
  await small.close();
  await roomy.close();
});
