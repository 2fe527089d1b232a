/**
 * The PostgreSQL store's HNSW index (backends/postgres/hnsw-sql.ts), on PGlite: below the threshold no index
 * exists and search is exact; above it the first light search builds the namespace's index, the planner walks it,
 * and the answers agree with the exact scan (same scores for the chunks both return; nearly the same chunks);
 * a selective filter still scans exactly, and an expiry filter still gets `depth` rows (iterative scan).
 */
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { pgliteDatabase, type Database } from "../src/backends/postgres/connection.js";
import { hnswIndexName } from "../src/backends/postgres/hnsw-sql.js";
import { newPglite } from "../src/backends/postgres/open.js";
import { PostgresStore } from "../src/backends/postgres/store.js";
import { toVectorText } from "../src/backends/postgres/vector-sql.js";
import { parseFilterArg } from "../src/query/where.js";
import { prepared, queryVector, stamp } from "./contract/fixture.js";

const CHUNKS = 3000;
const words = ["billing", "cluster", "deploy", "ledger", "canary", "timeout", "postgres", "vault", "schema", "queue", "webhook", "pix"];
let db: Database;
let exact: PostgresStore;
let graph: PostgresStore;

before(async () => {
  db = pgliteDatabase(newPglite(), { owned: true, label: "pglite (hnsw test)" });
  exact = await PostgresStore.open(db, { approximate: false });
  graph = await PostgresStore.open(db, { approximate: { above: CHUNKS, efSearch: 400 } });
  const inputs = Array.from({ length: CHUNKS }, (_, i) => ({
    text: `note ${i} ${words[i % 12]} ${words[(i * 7) % 12]} ${words[(i * 5 + 3) % 12]} item${i % 97} part${i % 31}`,
    metadata: { team: i % 2 === 0 ? "core" : "edge" },
  }));
  for (let i = 0; i < CHUNKS; i += 1000) await exact.writeMemories(await prepared(inputs.slice(i, i + 1000)), stamp);
  await exact.settle();
});
after(() => exact.close());

const indexExists = async () => (await db.query("SELECT 1 FROM pg_indexes WHERE indexname = $1", [hnswIndexName("default", stamp.dimensions)])).length === 1;

test("below the threshold the search is exact and builds no index", async () => {
  const small = await PostgresStore.open(db, { approximate: { above: CHUNKS + 1 } });
  const q = queryVector("billing ledger item5");
  assert.deepEqual(await small.nearestChunks({ vector: q, depth: 10, filter: {} }), await exact.nearestChunks({ vector: q, depth: 10, filter: {} }));
  assert.equal(await indexExists(), false);
});

test("above it the first search builds the namespace's HNSW index, the planner walks it, and it agrees with the exact scan", async () => {
  let found = 0;
  const queries = ["billing ledger item5", "canary deploy part3", "vault schema", "webhook queue item40", "postgres timeout part17"];
  for (const text of queries) {
    const q = queryVector(text);
    const [approx, truth] = [await graph.nearestChunks({ vector: q, depth: 10, filter: {} }), await exact.nearestChunks({ vector: q, depth: 10, filter: {} })];
    assert.equal(approx.length, 10);
    const truthScore = new Map(truth.map((r) => [r.chunkId, r.score]));
    for (const r of approx) if (truthScore.has(r.chunkId)) assert.ok(Math.abs(truthScore.get(r.chunkId)! - r.score) < 1e-6, "the same cosine");
    // exact ties at the 10th place may be broken differently: count scores, not ids
    const cut = truth[truth.length - 1].score;
    found += approx.filter((r) => r.score >= cut - 1e-6).length;
  }
  assert.ok(await indexExists(), "the index was built");
  assert.ok(found / (10 * queries.length) >= 0.9, `recall@10 ${found / (10 * queries.length)}`);
  const q = toVectorText(queryVector("billing ledger"));
  const plan = await db.query<{ "QUERY PLAN": string }>(
    `EXPLAIN SELECT c.id FROM chunks c WHERE c.namespace = 'default' ORDER BY c.vector::vector(${stamp.dimensions}) <#> $1::vector(${stamp.dimensions}) LIMIT 10`,
    [q],
  );
  assert.match(plan.map((r) => r["QUERY PLAN"]).join("\n"), new RegExp(hnswIndexName("default", stamp.dimensions)));
});

test("a selective filter scans exactly; an expiry filter still returns depth rows", async () => {
  const q = queryVector("billing ledger item5");
  const where = [parseFilterArg("team=edge")];
  assert.deepEqual(await graph.nearestChunks({ vector: q, depth: 10, filter: { where } }), await exact.nearestChunks({ vector: q, depth: 10, filter: { where } }));
  assert.equal((await graph.nearestChunks({ vector: q, depth: 50, filter: { liveAt: Date.UTC(2026, 5, 1), excludeKinds: ["summary"] } })).length, 50);
});
