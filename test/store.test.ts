import assert from "node:assert/strict";
import { join } from "node:path";
import { describe, test } from "node:test";
import Database from "better-sqlite3";
import { CascadeError, DEMO_NOW, SqliteStore, defaultGloveEmbedder, openMemory, parseInstant } from "../src/index.js";
import { SCHEMA_VERSION } from "../src/backends/sqlite/schema.js";
import { OWNERS_SQL } from "../src/backends/sqlite/owner-cache.js";
import type { Embedder } from "../src/index.js";
import { demoEngine, emptyEngine, tempDir, cliHere } from "./helpers.js";

describe("the SQLite store", () => {
  test("runs in WAL mode at the current schema version", async () => {
    const { engine, path } = await emptyEngine();
    await engine.remember({ text: "hello world" });
    await engine.close();
    const db = new Database(path, { readonly: true });
    assert.equal(db.pragma("journal_mode", { simple: true }), "wal");
    assert.equal(db.pragma("user_version", { simple: true }), SCHEMA_VERSION);
    db.close();
  });

  test("chunks are named by their memories from the narrow id indexes, never the wide rows", async () => {
    const { engine, path } = await emptyEngine();
    await engine.remember({ text: "hello world" });
    await engine.close();
    const db = new Database(path, { readonly: true });
    const plan = (db.prepare(`EXPLAIN QUERY PLAN ${OWNERS_SQL}`).all("[1]") as { detail: string }[]).map((r) => r.detail).join(" | ");
    assert.match(plan, /COVERING INDEX chunks_owner/);
    assert.match(plan, /COVERING INDEX memories_id_by_rowid/);
    db.close();
  });

  test("forget removes a memory from every channel", async () => {
    const { engine } = await demoEngine();
    const query = "dog ate my headphones";
    const before = await engine.recall(query, { k: 1 });
    const id = before.hits[0].id;
    // recency and graph rank what the others found; the three that match the text itself are the point here
    assert.deepEqual(before.hits[0].sources_hit.filter((c) => c !== "recency" && c !== "graph").sort(), ["bm25", "colbert", "dense"]);
    await engine.forget(id);
    for (const channel of ["bm25", "dense", "curated", "colbert", "graph"] as const) {
      const r = await engine.recall(query, { channels: [channel], k: 50 });
      assert.ok(!r.hits.some((h) => h.id === id), `${channel} still returns the forgotten memory`);
    }
    await assert.rejects(engine.show(id), (e: unknown) => e instanceof CascadeError && e.code === "NOT_FOUND");
    await engine.close();
  });

  test("curated memories are forgotten from the curated index too", async () => {
    const { engine } = await emptyEngine();
    const { id } = await engine.remember({ text: "body text", title: "Zanzibar offsite", tags: ["travel"] });
    assert.equal((await engine.recall("zanzibar", { channels: ["curated"] })).hits.length, 1);
    await engine.forget(id);
    assert.equal((await engine.recall("zanzibar", { channels: ["curated"] })).hits.length, 0);
    await engine.close();
  });

  test("long texts become several chunks; a hit reports its memory and the chunk that matched", async () => {
    const { engine } = await emptyEngine();
    const filler = Array.from({ length: 30 }, (_, i) => `Paragraph ${i} is about nothing in particular, weather and lunch.`).join(" ");
    const text = `${filler} The cutover to the new billing cluster happens on the ninth of July. ${filler}`;
    const { id } = await engine.remember({ text });
    const m = await engine.show(id);
    assert.ok(m.chunks >= 3, `${m.chunks} chunks`);
    const r = await engine.recall("billing cluster cutover", { channels: ["bm25"] });
    assert.equal(r.hits.length, 1);
    assert.equal(r.hits[0].id, id);
    assert.match(r.hits[0].chunk.text, /billing cluster/);
    assert.equal(text.slice(r.hits[0].chunk.start, r.hits[0].chunk.end), r.hits[0].chunk.text);
    await engine.close();
  });

  test("a write that fails in its transaction leaves nothing behind", async () => {
    const { engine, path } = await emptyEngine();
    await engine.remember({ text: "first" });
    const store = new SqliteStore(path);
    const embedder = defaultGloveEmbedder();
    const [vector] = await embedder.embed(["x"]);
    const memory = { id: "m_dup", kind: "note", text: "x", title: null, description: null, tags: [], topic: null, role: null, speaker: null, session: null, user: null, agent: null, expires: null, at: "2026-01-01T00:00:00Z", recordedAt: "2026-01-01T00:00:00Z", metadata: {} };
    const chunk = { ord: 0, start: 0, end: 1, text: "x", indexedText: "x", contextChars: 0, vector, terms: ["x"] };
    const stamp = { id: embedder.id, dimensions: embedder.dimensions };
    const before = await store.stats();
    // the second memory reuses the first one's id: the unique index fails the whole transaction
    await assert.rejects(store.writeMemories([{ memory, chunks: [chunk] }, { memory, chunks: [chunk] }], stamp));
    assert.deepEqual(await store.stats(), before);
    await store.close();
    await engine.close();
  });

  test("a store built with one embedder refuses another", async () => {
    const path = join(tempDir(), "m.db");
    const engine = await openMemory({ path });
    await engine.remember({ text: "built with GloVe" });
    await engine.close();
    const other: Embedder = { id: "other-model", dimensions: 8, embed: async (t) => t.map(() => new Float32Array(8)) };
    await assert.rejects(openMemory({ path, embedder: other }), (e: unknown) => {
      assert.ok(e instanceof CascadeError);
      assert.equal(e.code, "EMBEDDER_MISMATCH");
      assert.match(e.message, /built with embedder glove-wink-sg-100d\/sif-content \(100-d\).*not other-model \(8-d\)/);
      return true;
    });
  });

  test("a second connection sees the first one's writes in the dense index", async () => {
    const path = join(tempDir(), "m.db");
    const reader = await openMemory({ path });
    const writer = await openMemory({ path });
    await writer.remember({ text: "the kettle is broken" });
    assert.equal((await reader.recall("kettle broken", { channels: ["dense"] })).hits.length, 1);
    await writer.remember({ text: "the toaster is broken too" });
    assert.equal((await reader.recall("toaster broken", { channels: ["dense"] })).hits.length, 2);
    await reader.close();
    await writer.close();
  });

  test("a chunk's owner is never named from a stale memory: a forgotten chunk's id reused by another connection or by this one", async () => {
    const path = join(tempDir(), "m.db");
    // without the pyramid, whose summaries would take the next chunk ids
    const writer = await openMemory({ path, pyramid: { enabled: false } });
    const reader = new SqliteStore(path);
    await writer.remember({ text: "the garden needs water" });
    const stale = await writer.remember({ text: "the kettle is broken" });
    // the reader names the chunk's owner once (and keeps it)
    assert.deepEqual([...(await reader.memoryIdsOfChunks([1, 2]))].sort(), [[1, (await reader.memoryIdsInOrder())[0]], [2, stale.id]]);
    // the newest chunk is forgotten, so the next one written takes its id (SQLite's rowid is the largest plus one)
    await writer.forget(stale.id);
    assert.deepEqual([...(await reader.memoryIdsOfChunks([2]))], [], "a deleted chunk has no owner");
    const fresh = await writer.remember({ text: "the kettle was repaired" });
    assert.deepEqual([...(await reader.memoryIdsOfChunks([2]))], [[2, fresh.id]], "another connection's new chunk, named by its owner");
    await writer.close();
    // the same through the reader's own connection
    const own = new SqliteStore(path);
    assert.deepEqual([...(await own.memoryIdsOfChunks([2]))], [[2, fresh.id]]);
    await own.deleteMemory(fresh.id);
    assert.deepEqual([...(await own.memoryIdsOfChunks([2]))], [], "this connection's own delete");
    await own.close();
    await reader.close();
  });

  test("filters apply inside every channel, so k results come back when k exist", async () => {
    const { engine, path } = await demoEngine();
    const r = await engine.recall("configuration", { under: "ops", k: 5 });
    assert.ok(r.hits.length > 0);
    for (const h of r.hits) assert.match(h.topic ?? "", /^ops(\.|$)/);
    // without the dense relevance floor, so that k nearest neighbours exist whatever their similarity
    const unfloored = await openMemory({ path, now: parseInstant("now", DEMO_NOW), dense: { denseZ: null, aloneZ: null } });
    const since = await unfloored.recall("configuration", { since: "2026-05-01", k: 5, channels: ["dense"] });
    assert.equal(since.hits.length, 5);
    for (const h of since.hits) assert.ok(h.at >= "2026-05-01");
    const kinds = await unfloored.recall("what happened", { kinds: ["incident"], k: 10 });
    await unfloored.close();
    assert.ok(kinds.hits.length >= 1);
    for (const h of kinds.hits) assert.equal(h.kind, "incident");
    await engine.close();
  });

  test("--under matches the path itself and descendants, not siblings that share a prefix", async () => {
    const { engine } = await emptyEngine();
    await engine.remember({ text: "fusion note", topic: "retrieval" });
    await engine.remember({ text: "fusion note", topic: "retrieval.fusion.rrf" });
    await engine.remember({ text: "fusion note", topic: "retrievals.x" });
    await engine.remember({ text: "fusion note", topic: "retrieval_old" });
    const r = await engine.recall("fusion", { under: "retrieval", channels: ["bm25"] });
    assert.deepEqual(r.hits.map((h) => h.topic).sort(), ["retrieval", "retrieval.fusion.rrf"]);
    await engine.close();
  });
});


test("filters give the same results applied in memory (selective) or by a join", async () => {
  const e = defaultGloveEmbedder();
  const dir = tempDir();
  const path = join(dir, "filters.db");
  const { Engine } = await import("../src/index.js");
  const writer = await Engine.create({ store: new SqliteStore(path), embedder: e, tokens: e }, { detection: { enabled: false } });
  const topics = ["ops.db", "ops.db.replica", "ops.net", "eng.search", "eng.search.rank"];
  await writer.rememberMany(
    Array.from({ length: 300 }, (_, i) => ({
      text: `Note ${i}: the ${["database replica", "network switch", "search ranking", "replica lag", "index build"][i % 5]} needed attention after the ${["deploy", "outage", "review"][i % 3]}.`,
      topic: topics[i % topics.length],
      at: new Date(Date.UTC(2026, 0, 1 + (i % 120))).toISOString(),
      kind: i % 4 === 0 ? "decision" : "note",
    })),
    { detect: false },
  );
  await writer.close();
  const inMemory = await Engine.create({ store: new SqliteStore(path), embedder: e, tokens: e });
  const joined = await Engine.create({ store: new SqliteStore(path, { selectiveChunks: 0 }), embedder: e, tokens: e });
  const filters = [{ under: "ops.db" }, { under: "eng" }, { since: "2026-02-01", until: "2026-03-15" }, { kinds: ["decision"] }, { under: "ops", kinds: ["note"], since: "2026-01-20" }];
  for (const f of filters) {
    for (const query of ["replica lag after the outage", "search ranking review", "index build deploy"]) {
      const a = await inMemory.recall(query, { ...f, k: 20, channels: ["bm25", "dense", "colbert", "curated"] });
      const b = await joined.recall(query, { ...f, k: 20, channels: ["bm25", "dense", "colbert", "curated"] });
      assert.ok(a.hits.length > 0, JSON.stringify(f));
      assert.deepEqual(a.hits.map((h) => [h.id, h.ranks]), b.hits.map((h) => [h.id, h.ranks]), `${query} ${JSON.stringify(f)}`);
    }
  }
  await inMemory.close();
  await joined.close();
});

test("doctor finds indexes that disagree with the tables, and --repair rebuilds them (CLI)", async () => {
  const { cli, cliHere } = await import("./helpers.js");
  const dir = tempDir();
  const db = join(dir, "doctor.db");
  // the first add and the doctor that finds the damage CLI processes, the others the CLI in this process (helpers
  // cliHere: the same output and exit code)
  const proc = (...args: string[]) => cli([...args, "--db", db, "--now", "2026-06-20"]);
  const run = (...args: string[]) => cliHere([...args, "--db", db, "--now", "2026-06-20"]);
  proc("add", "The flamingo exhibit opens in May.", "--title", "Zoo news");
  await run("add", "Penguins are fed at noon.", "--tags", "zoo");
  const healthy = await run("doctor", "--json");
  assert.equal(healthy.status, 0, healthy.stdout);
  assert.equal(healthy.json.ok, true);
  assert.ok(healthy.json.checks.length >= 8);
  // damage the derived indexes behind the engine's back
  const raw = new Database(db);
  const chunk = (raw.prepare("SELECT c.id FROM chunks c JOIN memories m ON m.rowid = c.memory_rowid WHERE m.text LIKE 'The flamingo%'").get() as { id: number }).id;
  raw.prepare("DELETE FROM chunks_fts WHERE rowid = ?").run(chunk);
  raw.prepare("DELETE FROM curated_fts").run();
  raw.prepare("UPDATE terms SET df = 42 WHERE term = 'penguins'").run();
  raw.prepare("UPDATE meta SET value = '7' WHERE key = 'chunk_count'").run();
  raw.close();
  assert.deepEqual((await run("search", "flamingo", "--channels", "bm25", "--json")).json.hits, []);
  const sick = proc("doctor", "--json");
  assert.equal(sick.status, 1);
  assert.equal(sick.json.ok, false);
  assert.deepEqual(
    sick.json.checks.filter((c: any) => !c.ok).map((c: any) => c.name),
    ["body index (bm25, late interaction)", "curated index (titles, descriptions, tags)", "vocabulary counts", "chunk count"],
  );
  const repaired = await run("doctor", "--repair", "--json");
  assert.equal(repaired.status, 0);
  assert.ok(repaired.json.checks.filter((c: any) => !c.ok).every((c: any) => c.repaired));
  assert.equal((await run("doctor", "--json")).json.ok, true);
  assert.equal((await run("search", "flamingo", "--channels", "bm25", "--json")).json.hits.length, 1);
  assert.equal((await run("search", "zoo news", "--channels", "curated", "--json")).json.hits.length, 2);
});

test("a batch counts each word once for every chunk that holds it, as one write at a time does", async () => {
  const { prepared, stamp } = await import("./contract/fixture.js");
  const texts = ["Kafka carries the order events", "The order service reads Kafka", "Invoices wait for the order", "Kafka brokers"];
  const batch = new SqliteStore(":memory:");
  const single = new SqliteStore(":memory:");
  const items = await prepared(texts.map((text, i) => ({ text, at: `2026-01-0${i + 1}T00:00:00Z` })));
  await batch.writeMemories(items, stamp);
  for (const item of await prepared(texts.map((text, i) => ({ text, at: `2026-01-0${i + 1}T00:00:00Z` })))) await single.writeMemories([item], stamp);
  const words = ["kafka", "order", "invoices", "events", "brokers"];
  const [a, b] = [await batch.termStats(words), await single.termStats(words)];
  assert.deepEqual(Object.fromEntries(a.df), { kafka: 3, order: 3, invoices: 1, events: 1, brokers: 1 });
  assert.deepEqual(a, b);
  const check = (await batch.doctor(false)).find((c) => /term/i.test(c.name));
  assert.ok(check === undefined || check.ok, check?.detail);
  await batch.close();
  await single.close();
});
