/**
 * Late interaction's work budget: a query reads at most `maxPostings` index entries, rarest words first;
 * when the budget bites, the search says so in `channels.colbert.budget`, and otherwise says nothing.
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import { readWithinBudget } from "../src/channels/colbert.js";
import { wordsWithinBudget } from "../src/channels/bm25.js";
import { listCosts } from "../src/channels/list-cost.js";
import { openMemory } from "../src/index.js";

const now = "2026-07-01T00:00:00Z";

/** Two stores of the same notes, many about a team meeting and one about a zeppelin: one with a tight budget. */
async function tightAndRoomy(tight: Parameters<typeof openMemory>[0]) {
  const notes = [
    ...Array.from({ length: 40 }, (_, i) => `The team meeting ${i} covered the weekly schedule and the project status`),
    "The zeppelin hangar roof leaks during the team meeting",
  ];
  const small = await openMemory({ ...tight, path: ":memory:" });
  const roomy = await openMemory({ path: ":memory:" });
  for (const m of [small, roomy]) for (const [i, text] of notes.entries()) await m.remember({ text, at: `2026-06-${String(1 + (i % 28)).padStart(2, "0")}T00:00:00Z` });
  return { small, roomy };
}

test("lists are read cheapest first while they fit the budget, counting what was actually read; the rest are reported", async () => {
  // list lengths unlike the estimates, as under a stemming index: "rare" turns out longer than it promised
  const lists = new Map([["rare", [1, 2, 3, 4, 5, 6, 7, 8]], ["middling", [1, 2]], ["common", [1, 2, 3]], ["huge", [9]]]);
  const df = new Map([["rare", 1], ["middling", 2], ["common", 3], ["huge", 5000]]);
  const asked: string[][] = [];
  const store = { chunksWithTerms: async ({ terms }: { terms: string[] }) => (asked.push(terms), new Map(terms.map((t) => [t, lists.get(t)!]))) };
  const reports: unknown[] = [];
  const read = await readWithinBudget(store, ["huge", "common", "rare", "middling"], (t) => df.get(t)!, 10, { filter: {}, report: (r) => reports.push(r) });
  assert.deepEqual([...read.keys()], ["rare", "middling"]);
  assert.deepEqual(asked, [["rare", "middling", "common"]], "the lists estimated to fit are read in one call; none estimated past the budget");
  assert.deepEqual(reports, [{ limit: 10, used: 10, skipped: ["common", "huge"] }]);
  const expensive: unknown[] = [];
  assert.deepEqual([...(await readWithinBudget(store, ["huge"], (t) => df.get(t)!, 10, { filter: {}, report: (r) => expensive.push(r) })).keys()], [], "a list estimated over the whole budget is not read");
  assert.deepEqual(expensive, [{ limit: 10, used: 0, skipped: ["huge"] }]);
  // a list much longer than its estimate is read, found to overflow, and dropped unscored
  const under = { chunksWithTerms: async ({ terms }: { terms: string[] }) => new Map(terms.map((t) => [t, t === "a" ? [1, 2, 3, 4, 5] : [1, 2, 3, 4, 5, 6, 7, 8, 9]])) };
  const cut: unknown[] = [];
  const kept = await readWithinBudget(under, ["b", "a"], (t) => (t === "a" ? 1 : 2), 10, { filter: {}, report: (r) => cut.push(r) });
  assert.deepEqual([...kept.keys()], ["a"]);
  assert.deepEqual(cut, [{ limit: 10, used: 5, skipped: ["b"] }]);
  const quiet: unknown[] = [];
  const all = await readWithinBudget(store, ["rare", "common"], (t) => df.get(t)!, 1000, { filter: {}, report: (r) => quiet.push(r) });
  assert.deepEqual([...all.keys()], ["rare", "common"]);
  assert.equal(quiet.length, 0, "a budget that does not bite is not reported");
});

test("a search whose late-interaction budget bites still answers, from the rare words, and reports the cut", async () => {
  const { small, roomy } = await tightAndRoomy({ lateInteraction: { maxPostings: 10 } });
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

test("BM25 ranks the rarest words while their lists fit its budget, a word's list counted as long as its index key's", async () => {
  const stats = { chunks: 10_000, df: new Map([["zeppelin", 3], ["hangar", 40], ["helped", 5], ["roof", 600], ["meeting", 900]]) };
  const keys = new Map([["zeppelin", "zeppelin"], ["hangar", "hangar"], ["helped", "help"], ["roof", "roof"], ["meeting", "meet"]]);
  const keyDf = new Map([["help", 700], ["meet", 20]]);
  const store = {
    indexKeys: async (words: string[]) => new Map(words.map((w) => [w, keys.get(w)!])),
    termStats: async (terms: string[]) => ({ chunks: 10_000, df: new Map(terms.map((t) => [t, keyDf.get(t) ?? 0])) }),
  };
  const reports: unknown[] = [];
  const words = ["meeting", "helped", "roof", "zeppelin", "hangar"];
  // costs: zeppelin 3, hangar 40, roof 600, helped 700 (its key "help"), meeting 900
  const kept = await wordsWithinBudget(store, { words, stats, report: (r) => reports.push(r) }, 1000);
  assert.deepEqual(kept, ["zeppelin", "hangar", "roof"]);
  assert.deepEqual(reports, [{ limit: 1000, used: 643, skipped: ["helped", "meeting"] }]);
  // the cheapest word is always read, however long its list
  const alone: unknown[] = [];
  assert.deepEqual(await wordsWithinBudget(store, { words: ["meeting", "roof"], stats, report: (r) => alone.push(r) }, 100), ["roof"]);
  assert.deepEqual(alone, [{ limit: 100, used: 600, skipped: ["meeting"] }]);
  // inside the budget: every word, in the query's order, nothing reported
  const quiet: unknown[] = [];
  assert.deepEqual(await wordsWithinBudget(store, { words, stats, report: (r) => quiet.push(r) }, 5000), words);
  assert.equal(quiet.length, 0);
});

test("a search whose BM25 budget bites still answers from the rare words and says which it skipped", async () => {
  const { small, roomy } = await tightAndRoomy({ bm25: { maxPostings: 10 } });
  const cut = await small.recall("zeppelin team meeting schedule", { channels: ["bm25"], now });
  const budget = cut.channels.bm25!.budget!;
  assert.equal(budget.limit, 10);
  assert.deepEqual([...budget.skipped].sort(), ["meeting", "schedule", "team"]);
  assert.match(cut.hits[0].text, /zeppelin/);
  assert.equal(cut.hits.length, 1, "only the rare word was ranked");
  const full = await roomy.recall("zeppelin team meeting schedule", { channels: ["bm25"], now });
  assert.equal(full.channels.bm25!.budget, undefined);
  assert.ok(full.hits.length > 1);
  await small.close();
  await roomy.close();
});

test("a word FTS5 files under a stop word costs the whole store: skipped beside others, and alone past ten budgets", async () => {
  // "innings" is filed under "in", which the store does not count (it counts content words): its 12 is meaningless
  const stats = { chunks: 50_000, df: new Map([["innings", 40], ["cricket", 30]]) };
  const asked: string[][] = [];
  const store = {
    indexKeys: async (words: string[]) => new Map(words.map((w) => [w, w === "innings" ? "in" : w])),
    termStats: async (terms: string[]) => (asked.push(terms), { chunks: 50_000, df: new Map(terms.map((t) => [t, t === "in" ? 12 : 0])) }),
  };
  const { cost } = await listCosts(store, ["innings", "cricket"], (t) => stats.df.get(t), stats.chunks);
  assert.equal(cost("innings"), 50_000);
  assert.equal(cost("cricket"), 30);
  assert.ok(!asked.flat().includes("in"), "a stop word's count is not read");
  const beside: unknown[] = [];
  assert.deepEqual(await wordsWithinBudget(store, { words: ["innings", "cricket"], stats, report: (r) => beside.push(r) }, 1000), ["cricket"]);
  assert.deepEqual(beside, [{ limit: 1000, used: 30, skipped: ["innings"] }]);
  const alone: unknown[] = [];
  assert.deepEqual(await wordsWithinBudget(store, { words: ["innings"], stats, report: (r) => alone.push(r) }, 1000), []);
  assert.deepEqual(alone, [{ limit: 1000, used: 0, skipped: ["innings"] }]);
  // within ten budgets the only word is still ranked
  assert.deepEqual(await wordsWithinBudget(store, { words: ["innings"], stats }, 5000), ["innings"]);
});

test("a search for a word filed under a stop word, in a store past ten budgets, ranks nothing by BM25 and says why", async () => {
  const { small, roomy } = await tightAndRoomy({ bm25: { maxPostings: 2 } });
  await small.remember({ text: "Rain stopped play after two innings", at: "2026-06-29T00:00:00Z" });
  const cut = await small.recall("innings", { channels: ["bm25"], now });
  assert.deepEqual(cut.channels.bm25!.budget, { limit: 2, used: 0, skipped: ["innings"] });
  assert.equal(cut.hits.length, 0);
  await roomy.remember({ text: "Rain stopped play after two innings", at: "2026-06-29T00:00:00Z" });
  const full = await roomy.recall("innings", { channels: ["bm25"], now });
  assert.match(full.hits[0].text, /innings/, "with room, the word is ranked");
  await small.close();
  await roomy.close();
});
