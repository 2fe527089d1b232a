/**
 * The PostgreSQL store's BM25 against SQLite's FTS5 on the same memories: the same chunks in the same order
 * with the same scores (FTS5's bm25(), k1 = 1.2, b = 0.75), for the body and the curated index. Stemming
 * (Porter on both sides), document lengths (every token, stop words included) and idf over the whole index
 * must all agree for the scores to.
 */
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { openPglite } from "../../src/backends/postgres/open.js";
import type { PostgresStore } from "../../src/backends/postgres/store.js";
import { SqliteStore } from "../../src/backends/sqlite/store.js";
import type { Ranked } from "../../src/model/types.js";
import { prepared, stamp } from "./fixture.js";

const at = (day: number) => new Date(Date.UTC(2026, 0, day, 12)).toISOString();

const TEXTS = [
  "We deployed the billing service to the new cluster.",
  "The deployment of billing failed twice with timeouts, and the billing team rolled the deploy back.",
  "Lunch with Maria about the sourdough starter.",
  "Postgres is the primary store for billing; the replicas serve the reports.",
  "Billing moves from Postgres to DynamoDB next quarter, said the platform team after a long review of costs and latency.",
  "Feeding the starter twice a day with rye flour keeps it lively.",
  "Deploying on Fridays is forbidden after the incident with the café's payment terminal.",
  "The café near the office switched to a new payments provider.",
  "Timeouts again: the cluster autoscaler was too slow for the Monday peak.",
  "Running, ran, runs: the runner's runs were counted by the running club.",
];

const QUERIES = [
  ["billing"],
  ["billing", "timeouts"],
  ["deploy", "deployed", "deployment"],
  ["postgres", "dynamodb", "billing"],
  ["starter", "rye", "flour"],
  ["cafe"],
  ["café"],
  ["running", "runs"],
  ["the", "billing"],
  ["cluster", "cluster"],
  ["nothingmatches"],
];

let sqlite: SqliteStore;
let pg: PostgresStore;

before(async () => {
  sqlite = new SqliteStore(":memory:");
  pg = await openPglite();
  const memories = await prepared(
    TEXTS.map((text, i) => ({ text, at: at(i + 1), title: i % 3 === 0 ? `Note ${i} about ${text.split(" ")[1]}` : undefined, tags: i % 4 === 0 ? ["ops", "billing"] : [] })),
  );
  await sqlite.writeMemories(memories, stamp);
  await pg.writeMemories(memories, stamp);
});

after(async () => {
  await sqlite?.close();
  await pg?.close();
});

/** Memory ids and scores, best first; ties (equal to 1e-9) compared as sets. */
function compare(a: Ranked[], b: Ranked[], what: string): void {
  assert.equal(b.length, a.length, `${what}: as many hits`);
  for (let i = 0; i < a.length; i++) assert.ok(Math.abs(a[i].score - b[i].score) < 1e-6, `${what}: score ${i} (${a[i].score} vs ${b[i].score})`);
  const key = (r: Ranked) => `${r.score.toFixed(6)}|${r.memoryId}`;
  assert.deepEqual(b.map(key).sort(), a.map(key).sort(), `${what}: the same memories at the same scores`);
  assert.deepEqual(
    b.map((r) => r.memoryId),
    a.map((r) => r.memoryId),
    `${what}: the same order`,
  );
}

test("body BM25 matches SQLite FTS5: same hits, same order, same scores", async () => {
  for (const words of QUERIES) {
    compare(await sqlite.searchBody({ words, depth: 20, filter: {} }), await pg.searchBody({ words, depth: 20, filter: {} }), `body ${words.join(" ")}`);
  }
});

test("curated BM25 matches SQLite FTS5 over titles, descriptions and tags", async () => {
  for (const words of [["note"], ["billing"], ["ops", "deployment"], ["about", "postgres"]]) {
    compare(await sqlite.searchCurated({ words, depth: 20, filter: {} }), await pg.searchCurated({ words, depth: 20, filter: {} }), `curated ${words.join(" ")}`);
  }
});

test("index keys agree with the SQLite store's", async () => {
  const words = ["deployed", "deployment", "running", "runs", "café", "flour", "a", "is"];
  const a = await sqlite.indexKeys(words);
  const b = await pg.indexKeys(words);
  for (const w of words) if (w !== "café") assert.equal(b.get(w), a.get(w), w);
});
