/**
 * What only the PostgreSQL store has: several stores (namespaces) in one database, migrations applied once, the
 * doctor finding and rebuilding damaged derived data, and namespace names that are data, never SQL.
 */
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, test } from "node:test";
import { openPglite } from "../src/backends/postgres/open.js";
import { PG_SCHEMA_VERSION } from "../src/backends/postgres/schema.js";
import { PostgresStore } from "../src/backends/postgres/store.js";
import { CascadeError } from "../src/errors.js";
import type { EdgeDraft } from "../src/model/graph.js";
import { prepared, queryVector, stamp } from "./contract/fixture.js";
import { pgliteSchemaPerTest } from "./shared-pglite.js";

// the tests that need only a database share one PGlite, each in a schema of its own (test/shared-pglite)
const schemas = pgliteSchemaPerTest();
after(() => schemas.close());

const at = (day: number) => new Date(Date.UTC(2026, 0, day, 12)).toISOString();

test("namespaces in one database: each store sees only its own memories, words, vectors and counts", async () => {
  await schemas.use(async (db) => {
    const a = await PostgresStore.open(db, { namespace: "alpha" });
    const b = await PostgresStore.open(db, { namespace: "beta'; DROP TABLE memories; --" });
    await a.writeMemories(await prepared([{ text: "Alpha deploys the billing service.", at: at(1) }]), stamp);
    await b.writeMemories(await prepared([{ text: "Beta deploys the billing service too.", at: at(1) }, { text: "Beta only.", at: at(2) }]), stamp);
    assert.equal((await a.stats()).memories, 1);
    assert.equal((await b.stats()).memories, 2);
    assert.equal((await a.searchBody({ words: ["billing"], depth: 10, filter: {} })).length, 1);
    assert.equal((await a.nearestChunks({ vector: queryVector("billing"), depth: 10, filter: {} })).length, 1);
    assert.equal((await a.termStats(["billing"])).df.get("billing"), 1);
    assert.equal((await b.termStats(["billing"])).chunks, 2);
    const [only] = await a.memoryIdsInOrder();
    assert.equal(await b.getMemory(only), null, "a memory id of one namespace is unknown in another");
    await assert.rejects(b.addEdges([{ type: "relates_to", from: (await b.memoryIdsInOrder())[0], to: only, validFrom: 0, validTo: null, recordedAt: 0, provenance: "api", confidence: 1, reason: null }]), CascadeError);
  });
});

test("migrations are applied once; a second store on the same database finds them done; a newer schema is refused", async () => {
  await schemas.use(async (db) => {
    await PostgresStore.open(db);
    await PostgresStore.open(db);
    const rows = await db.query<{ version: number }>("SELECT version FROM cascade_schema_version ORDER BY version");
    assert.deepEqual(rows.map((r) => r.version), Array.from({ length: PG_SCHEMA_VERSION }, (_, i) => i + 1));
    // migration 5: ANALYZE skips the bodies and vectors no plan estimates from (it spent most of its time on them)
    const skipped = await db.query<{ col: string }>(
      "SELECT attrelid::regclass::text || '.' || attname AS col FROM pg_attribute WHERE attrelid IN ('chunks'::regclass, 'memories'::regclass) AND attstattarget = 0 ORDER BY 1",
    );
    assert.deepEqual(skipped.map((r) => r.col), ["chunks.indexed_text", "chunks.keys", "chunks.terms", "chunks.vector", "memories.at", "memories.description", "memories.metadata", "memories.recorded_at", "memories.tags", "memories.text", "memories.title"]);
    await db.query("INSERT INTO cascade_schema_version (version) VALUES ($1)", [PG_SCHEMA_VERSION + 1]);
    await assert.rejects(PostgresStore.open(db), (e: unknown) => e instanceof CascadeError && e.code === "STORE_ERROR" && /upgrade Cascade/.test(e.message));
  });
});

test("a store built with one embedder refuses vectors from another", async () => {
  await schemas.use(async (db) => {
    const store = await PostgresStore.open(db);
    await store.writeMemories(await prepared([{ text: "first", at: at(1) }]), stamp);
    await assert.rejects(
      store.writeMemories(await prepared([{ text: "second", at: at(2) }]), { id: "other", dimensions: 8 }),
      (e: unknown) => e instanceof CascadeError && e.code === "EMBEDDER_MISMATCH",
    );
    assert.equal((await store.stats()).memories, 1, "nothing of the refused write was kept");
  });
});

test("the doctor finds damaged postings, counts and vocabulary, and repair rebuilds them from the tables", async () => {
  await schemas.use(async (db) => {
    const store = await PostgresStore.open(db);
    await store.writeMemories(
      await prepared([
        { text: "The billing cluster timed out twice.", at: at(1), title: "Billing outage" },
        { text: "Sourdough starter needs rye flour.", at: at(2), tags: ["baking"] },
      ]),
      stamp,
    );
    const before = await store.searchBody({ words: ["billing", "flour"], depth: 10, filter: {} });
    await db.query("DELETE FROM postings WHERE term = 'bill'");
    await db.query("DELETE FROM curated_postings WHERE term = 'bake'");
    await db.query("UPDATE terms SET df = 7 WHERE term = 'flour'");
    await db.query("UPDATE meta SET value = '99' WHERE key = 'chunk_count'");
    // a posting whose chunk is gone (a chunk's postings are deleted by the keys it lists)
    await db.query("INSERT INTO postings (namespace, term, chunk_id, tf, len) VALUES ('default', 'ghost', 987654, 1, 1)");
    const found = await store.doctor(false);
    const failed = found.filter((c) => !c.ok).map((c) => c.name).sort();
    assert.deepEqual(failed, ["body index (bm25, late interaction)", "corpus counts", "curated index (titles, descriptions, tags)", "vocabulary counts"]);
    const repaired = await store.doctor(true);
    assert.ok(repaired.filter((c) => !c.ok).every((c) => c.repaired));
    assert.ok((await store.doctor(false)).every((c) => c.ok));
    assert.deepEqual(await store.searchBody({ words: ["billing", "flour"], depth: 10, filter: {} }), before);
    assert.equal((await store.searchCurated({ words: ["baking"], depth: 5, filter: {} })).length, 1);
  });
});

test("postings go with their chunk (no foreign key does it for them): a memory forgotten, a memory corrected", async () => {
  await schemas.use(async (db) => {
    const store = await PostgresStore.open(db);
    const memories = await prepared([
      { text: "The billing cluster timed out twice.", at: at(1), session: "s" },
      { text: "Which cluster was that again?", at: at(2), session: "s" },
      { text: "Sourdough starter needs rye flour.", at: at(3) },
      { text: "The deploy window moved to Friday.", at: at(4) },
    ]);
    await store.writeMemories(memories, stamp);
    const orphans = async () =>
      (await db.query<{ n: number }>("SELECT count(*)::int AS n FROM postings p WHERE NOT EXISTS (SELECT 1 FROM chunks c WHERE c.namespace = p.namespace AND c.id = p.chunk_id)"))[0].n;
    const postings = async () => (await db.query<{ n: number }>("SELECT count(*)::int AS n FROM postings"))[0].n;
    const [first, , flour, deploy] = memories.map((m) => m.memory.id);
    const before = await postings();
    await store.deleteMemory(flour);
    assert.ok((await postings()) < before);
    const [fixed] = await prepared([{ text: "The deploy window moved to Monday.", at: at(4) }]);
    await store.reviseMemory({ ...fixed, memory: { ...fixed.memory, id: deploy } }, stamp, Date.UTC(2026, 0, 5));
    await store.deleteMemory(first);
    assert.equal(await orphans(), 0);
    assert.deepEqual((await store.searchBody({ words: ["flour", "friday", "billing"], depth: 10, filter: {} })).length, 0);
    assert.equal((await store.searchBody({ words: ["monday"], depth: 10, filter: {} })).length, 1);
    assert.ok((await store.doctor(false)).every((c) => c.ok));
  });
});

test("migration 6 lists each chunk's posting keys from its postings, so a store written before it deletes them all", async () => {
  await schemas.use(async (db) => {
    const store = await PostgresStore.open(db);
    const memories = await prepared([
      { text: "The billing cluster timed out twice.", at: at(1) },
      { text: "Sourdough starter needs rye flour and the billing of it.", at: at(2) },
    ]);
    await store.writeMemories(memories, stamp);
    // the database as migration 5 left it: no keys, postings indexed by chunk
    await db.exec(`ALTER TABLE chunks DROP COLUMN keys; CREATE INDEX postings_chunk ON postings (namespace, chunk_id);
                   DELETE FROM cascade_schema_version WHERE version >= 6`);
    const again = await PostgresStore.open(db);
    const [row] = await db.query<{ keys: string }>("SELECT keys FROM chunks ORDER BY id LIMIT 1");
    assert.equal(row.keys, "bill cluster out the time twice");
    assert.equal((await db.query("SELECT 1 FROM pg_indexes WHERE indexname = 'postings_chunk'")).length, 0);
    await again.deleteMemory(memories[1].memory.id);
    assert.deepEqual((await db.query<{ term: string }>("SELECT DISTINCT term FROM postings ORDER BY term")).map((r) => r.term), ["bill", "cluster", "out", "the", "time", "twice"]);
    assert.ok((await again.doctor(false)).every((c) => c.ok));
  });
});

test("migration 7: summary links lose their foreign keys, go with their memory, and the doctor finds any left over", async () => {
  await schemas.use(async (db) => {
    const store = await PostgresStore.open(db);
    const memories = await prepared([
      { text: "The day the billing cluster timed out.", at: at(1) },
      { text: "The billing cluster timed out twice.", at: at(1) },
      { text: "Sourdough starter needs rye flour.", at: at(2) },
    ]);
    await store.writeMemories(memories, stamp);
    const keys = () => db.query("SELECT conname FROM pg_constraint WHERE conrelid = 'summary_children'::regclass AND contype = 'f'");
    assert.deepEqual(await keys(), []);
    // the database as migration 6 left it: links with their foreign keys
    await db.exec(`ALTER TABLE summary_children ADD FOREIGN KEY (namespace, parent_rowid) REFERENCES memories (namespace, rowid) ON DELETE CASCADE;
                   ALTER TABLE summary_children ADD FOREIGN KEY (namespace, child_rowid) REFERENCES memories (namespace, rowid) ON DELETE CASCADE;
                   DELETE FROM cascade_schema_version WHERE version >= 7`);
    assert.equal((await keys()).length, 2);
    const again = await PostgresStore.open(db);
    assert.deepEqual(await keys(), []);
    const rowids = (await db.query<{ rowid: number }>("SELECT rowid FROM memories ORDER BY rowid")).map((r) => r.rowid);
    await db.query("INSERT INTO summary_children (namespace, parent_rowid, child_rowid) VALUES ('default', $1, $2), ('default', $1, $3)", [rowids[0], rowids[1], rowids[2]]);
    await again.deleteMemory(memories[1].memory.id);
    assert.deepEqual((await db.query<{ child_rowid: number }>("SELECT child_rowid FROM summary_children")).map((r) => Number(r.child_rowid)), [rowids[2]], "the forgotten child's link went with it");
    // a link whose memory is gone (left by a crash of older code, or written by hand)
    await db.query("INSERT INTO summary_children (namespace, parent_rowid, child_rowid) VALUES ('default', $1, 987654)", [rowids[0]]);
    const found = (await again.doctor(false)).find((c) => c.name === "summary nodes")!;
    assert.equal(found.ok, false);
    assert.match(found.detail, /1 summary links to a memory that is gone/);
    await again.doctor(true);
    assert.ok((await again.doctor(false)).every((c) => c.ok));
    assert.equal((await db.query("SELECT 1 FROM summary_children")).length, 1, "only the link to a memory still there is kept");
  });
});

test("stores of two namespaces open at once on one PGlite data directory share one instance, closed after the last", async () => {
  const dir = mkdtempSync(join(tmpdir(), "cascade-pglite-"));
  try {
    const [a, b] = await Promise.all([openPglite({ dataDir: dir, namespace: "a" }), openPglite({ dataDir: dir, namespace: "b" })]);
    await a.writeMemories(await prepared([{ text: "from a", at: at(1) }]), stamp);
    await b.writeMemories(await prepared([{ text: "from b", at: at(1) }, { text: "again b", at: at(2) }]), stamp);
    await a.close();
    assert.equal((await b.stats()).memories, 2, "b still works after a closed");
    await b.close();
    const again = await openPglite({ dataDir: dir, namespace: "a" });
    assert.equal((await again.stats()).memories, 1, "a's memory was kept on disk");
    await again.close();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("the store analyzes its tables once they have grown (PGlite has no autovacuum to do it)", async () => {
  await schemas.use(async (db) => {
    const store = await PostgresStore.open(db);
    const reltuples = async () => (await db.query<{ n: number }>("SELECT reltuples::float8 AS n FROM pg_class WHERE oid = 'chunks'::regclass"))[0].n;
    await store.writeMemories(await prepared([{ text: "a few words", at: at(1) }]), stamp);
    assert.ok((await reltuples()) <= 0, "one small write: no statistics yet");
    await store.writeMemories(await prepared(Array.from({ length: 120 }, (_, i) => ({ text: `note ${i} about billing`, at: at(1 + (i % 20)) }))), stamp);
    assert.equal(await reltuples(), 121, "analyzed after the tables grew");
    // edges grow without chunks (a bulk of supersessions): analyzed on their own once they outgrow their statistics
    const edgeTuples = async () => (await db.query<{ n: number }>("SELECT reltuples::float8 AS n FROM pg_class WHERE oid = 'edges'::regclass"))[0].n;
    assert.ok((await edgeTuples()) <= 0);
    const ids = await store.memoryIdsInOrder();
    const edge = (from: string, to: string): EdgeDraft => ({ type: "supersedes", from, to, validFrom: 0, validTo: null, recordedAt: 0, provenance: "api", confidence: 1, reason: null });
    await store.addEdges(ids.slice(1).map((id, i) => edge(id, ids[i])));
    assert.equal(await edgeTuples(), 120, "analyzed after 120 edges");
  });
});

test("a namespace the statistics have not seen is analyzed as it grows, however large the tables already are", async () => {
  // Tables are shared by namespaces and statistics are the table's: a new namespace was estimated at one row in
  // every table (a 450-memory conversation's searches took seconds beside a 100,000-memory namespace)
  await schemas.use(async (db) => {
    const estimate = async (ns: string) => {
      const [row] = await db.query<Record<string, unknown>>(`EXPLAIN (FORMAT JSON) SELECT * FROM chunks WHERE namespace = '${ns}'`);
      const plan = Object.values(row)[0]; // the column is "QUERY PLAN": JSON text or parsed, by driver
      return (typeof plan === "string" ? JSON.parse(plan) : plan)[0].Plan["Plan Rows"] as number;
    };
    const notes = (n: number, what: string) => Array.from({ length: n }, (_, i) => ({ text: `${what} note ${i} about billing`, at: at(1 + (i % 20)) }));
    const big = await PostgresStore.open(db, { namespace: "big" });
    await big.writeMemories(await prepared(notes(1200, "big")), stamp);
    assert.ok((await estimate("big")) > 600, "the first namespace is analyzed after its load");
    const small = await PostgresStore.open(db, { namespace: "small" });
    assert.ok((await estimate("small")) < 10, "unseen: estimated empty");
    for (let i = 0; i < 4; i++) await small.writeMemories(await prepared(notes(100, `small ${i}`)), stamp);
    // 400 chunks: a third of the table's statistics, never enough to refresh them by the table's growth alone
    assert.ok((await estimate("small")) >= 200, `the new namespace is seen at about its size (estimated ${await estimate("small")} of 400)`);
  });
});

test("a PGlite data directory open in another living process is refused; a dead process's lock is taken over", async () => {
  const dir = mkdtempSync(join(tmpdir(), "cascade-pglite-"));
  const data = join(dir, "data");
  try {
    mkdirSync(data);
    writeFileSync(join(data, "cascade.lock"), String(process.ppid)); // the test runner: alive
    await assert.rejects(openPglite({ dataDir: data }), (e: unknown) => e instanceof CascadeError && e.code === "STORE_ERROR" && /one process at a time/.test(e.message));
    const ended = spawnSync(process.execPath, ["-e", "process.stdout.write(String(process.pid))"], { encoding: "utf8" }).stdout;
    writeFileSync(join(data, "cascade.lock"), ended);
    const store = await openPglite({ dataDir: data });
    assert.equal((await store.stats()).memories, 0);
    await store.close();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
