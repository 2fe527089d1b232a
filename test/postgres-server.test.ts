/**
 * The PostgreSQL store under concurrent writers on a real server (CASCADE_PG_URL; skipped, with that reason,
 * without one: PGlite has a single session, so it cannot run writers side by side). Writers of one namespace
 * take turns on its advisory lock, so the kept counts stay exact and two edges that would each close a
 * supersedes cycle with the other cannot both be written.
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import { poolDatabase } from "../src/backends/postgres/connection.js";
import { openPostgresUrl } from "../src/backends/postgres/open.js";
import type { EdgeDraft } from "../src/model/graph.js";
import { prepared, stamp } from "./contract/fixture.js";
import { PG_SKIP, PG_URL } from "./pg-server.js";

const url = PG_URL;
const skip = PG_SKIP;
const at = (day: number) => new Date(Date.UTC(2026, 0, day, 12)).toISOString();

test("concurrent writers on one namespace: every write lands and the kept counts stay exact", { skip }, async () => {
  const namespace = `concurrent_${process.pid}_${Date.now()}`;
  const stores = await Promise.all([0, 1, 2].map((i) => openPostgresUrl(url!, { namespace, poolSize: 4 + i })));
  try {
    const batches = await Promise.all(
      Array.from({ length: 24 }, (_, b) => prepared(Array.from({ length: 5 }, (_, i) => ({ text: `Batch ${b} note ${i} about billing timeouts and the cluster ${b % 3}`, at: at(1 + (b % 20)) })))),
    );
    await Promise.all(batches.map((batch, b) => stores[b % stores.length].writeMemories(batch, stamp)));
    const stats = await stores[0].stats();
    assert.equal(stats.memories, 120);
    assert.equal(stats.chunks, 120);
    assert.equal((await stores[1].termStats(["billing"])).df.get("billing"), 120);
    const checks = await stores[2].doctor(false);
    assert.ok(checks.every((c) => c.ok), JSON.stringify(checks.filter((c) => !c.ok)));
  } finally {
    await Promise.all(stores.map((s) => s.close()));
  }
});

test("four agents on one namespace, two writing and two searching at once: no errors, no lost writes, every search answered", { skip }, async () => {
  const namespace = `agents_${process.pid}_${Date.now()}`;
  const stores = await Promise.all([0, 1, 2, 3].map(() => openPostgresUrl(url!, { namespace, poolSize: 2 })));
  try {
    await stores[0].writeMemories(await prepared([{ text: "The billing cluster runs in Frankfurt", at: at(1) }]), stamp);
    const batches = await Promise.all(Array.from({ length: 12 }, (_, b) => prepared([{ text: `Agent note ${b} about billing and the cluster`, at: at(2 + b) }])));
    const vector = (await prepared([{ text: "billing cluster", at: at(1) }]))[0].chunks[0].vector;
    // the writers take turns on the namespace's lock; the readers never wait for it
    const writers = [0, 1].map(async (w) => {
      for (let b = w; b < batches.length; b += 2) await stores[w].writeMemories(batches[b], stamp);
    });
    const found: number[] = [];
    const readers = [2, 3].map(async (r) => {
      for (let i = 0; i < 12; i++) {
        const [body, dense] = await Promise.all([
          stores[r].searchBody({ words: ["billing", "cluster"], depth: 50, filter: { liveAt: Date.UTC(2026, 1, 1) } }),
          stores[r].nearestChunks({ vector, depth: 50, filter: { liveAt: Date.UTC(2026, 1, 1) } }),
        ]);
        assert.ok(body.length >= 1 && dense.length >= 1);
        found.push(body.length);
      }
    });
    await Promise.all([...writers, ...readers]);
    assert.equal(found.length, 24);
    assert.equal((await stores[3].stats()).memories, 13);
    // what the readers end with is every write: the last search on each store sees all 13 memories
    for (const r of [2, 3]) assert.equal((await stores[r].searchBody({ words: ["billing"], depth: 50, filter: {} })).length, 13);
    assert.equal((await stores[2].nearestChunks({ vector, depth: 50, filter: {} })).length, 13);
  } finally {
    await Promise.all(stores.map((s) => s.close()));
  }
});

test("two edges that would close a supersedes cycle together: exactly one is written", { skip }, async () => {
  const namespace = `cycle_${process.pid}_${Date.now()}`;
  const [a, b] = await Promise.all([openPostgresUrl(url!, { namespace, poolSize: 2 }), openPostgresUrl(url!, { namespace, poolSize: 3 })]);
  try {
    const memories = await prepared([{ text: "old decision", at: at(1) }, { text: "new decision", at: at(2) }]);
    await a.writeMemories(memories, stamp);
    const [x, y] = memories.map((m) => m.memory.id);
    const edge = (from: string, to: string): EdgeDraft => ({ type: "supersedes", from, to, validFrom: 0, validTo: null, recordedAt: 0, provenance: "api", confidence: 1, reason: null });
    for (let round = 0; round < 5; round++) {
      const results = await Promise.allSettled([a.addEdges([edge(x, y)]), b.addEdges([edge(y, x)])]);
      assert.equal(results.filter((r) => r.status === "fulfilled").length, 1, `round ${round}: one of the two`);
      const live = (await a.edgesTouching([x])).filter((e) => e.retractedAt === null);
      assert.equal(live.length, 1);
      await a.retractEdge(live[0].id, round + 1);
    }
  } finally {
    await a.close();
    await b.close();
  }
});

test("a transaction whose connection is killed mid-way runs again on a fresh connection", { skip }, async () => {
  const db = poolDatabase(url!, { max: 2 });
  const table = `cascade_dropped_${process.pid}`;
  try {
    await db.exec(`CREATE TABLE ${table} (n integer)`);
    let attempts = 0;
    await db.transaction(async (tx) => {
      await tx.query(`INSERT INTO ${table} VALUES (1)`);
      if (attempts++ === 0) await tx.query("SELECT pg_terminate_backend(pg_backend_pid())");
    });
    assert.equal(attempts, 2);
    assert.deepEqual(await db.query(`SELECT n FROM ${table}`), [{ n: 1 }], "only the second attempt's row");
  } finally {
    await db.exec(`DROP TABLE IF EXISTS ${table}`);
    await db.close();
  }
});

test("on a server, statistics are refreshed beside the writes: a write that outgrew them returns while ANALYZE waits", { skip }, async () => {
  // analyzing between the writes cost a bulk load of 100,000 chunks 12 s of its 50 (docs/SCALING.md)
  const namespace = `stats_${process.pid}_${Date.now()}`;
  const store = await openPostgresUrl(url!, { namespace, dropOnClose: true });
  const watcher = poolDatabase(url!, { max: 1 });
  const blocker = poolDatabase(url!, { max: 1 });
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  const poll = async (sql: string): Promise<void> => {
    while ((await watcher.query(sql)).length === 0) await new Promise((resolve) => setTimeout(resolve, 20));
  };
  try {
    // ANALYZE memories waits for this lock; inserts do not
    const holding = blocker.transaction(async (tx) => {
      await tx.query("LOCK TABLE memories IN SHARE UPDATE EXCLUSIVE MODE");
      await released;
    });
    await poll("SELECT 1 FROM pg_locks WHERE relation = 'memories'::regclass AND mode = 'ShareUpdateExclusiveLock' AND granted");
    const write = store.writeMemories(await prepared(Array.from({ length: 150 }, (_, i) => ({ text: `note ${i} about billing`, at: at(1 + (i % 20)) }))), stamp);
    const analyzing = poll("SELECT 1 FROM pg_stat_activity WHERE query LIKE 'ANALYZE %' AND wait_event_type = 'Lock'");
    const first = await Promise.race([write.then(() => "the write"), analyzing.then(() => "ANALYZE")]);
    assert.equal(first, "the write", "the write returned before the statistics it triggered were taken");
    await analyzing;
    release();
    await holding;
    await write;
    await store.settle(); // waits for the refresh beside, then takes its own
    const [row] = await watcher.query<{ n: number }>("SELECT reltuples::float8 AS n FROM pg_class WHERE oid = 'chunks'::regclass");
    assert.ok(row.n >= 150, `the statistics count the namespace's chunks (${row.n})`);
  } finally {
    release();
    await store.close();
    await Promise.all([watcher.close(), blocker.close()]);
  }
});
