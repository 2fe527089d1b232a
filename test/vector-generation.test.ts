/**
 * The SQLite store's in-memory vector matrix is read from the table again only when a chunk vector changed (the
 * chunk generation, schema 18), not whenever another connection commits anything. Before, every commit by another
 * process (a re-embed's batch in its side table, an edge) made the next search reload every vector: at 100,000
 * chunks searches during `cascade reembed` took 5-6 s each. Two connections to one file in this process stand for
 * two processes (PRAGMA data_version and the triggers work the same between them); the index counts its loads.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { test } from "node:test";
import Database from "better-sqlite3";
import { defaultGloveEmbedder, Engine } from "../src/index.js";
import { SqliteStore } from "../src/backends/sqlite/store.js";
import type { VectorIndex } from "../src/backends/sqlite/vector-index.js";
import { CHUNK_GENERATION_KEY } from "../src/backends/sqlite/version.js";
import { toBlob } from "../src/vectors/math.js";
import { tempDir } from "./helpers.js";

const glove = defaultGloveEmbedder();

async function open(path: string): Promise<{ engine: Engine; store: SqliteStore; loads: () => number; dataVersion: () => number }> {
  const store = new SqliteStore(path, { approximate: false, sideReader: false });
  const engine = await Engine.create({ store, embedder: glove, tokens: glove });
  const inside = store as unknown as { parts(): Promise<{ vectors: VectorIndex }>; db: Database.Database };
  // the dense index is among the parts the store loads on first use (store-parts.ts): the same one the store uses
  const { vectors } = await inside.parts();
  return { engine, store, loads: () => vectors.loads, dataVersion: () => inside.db.pragma("data_version", { simple: true }) as number };
}

const TEXTS = [
  "The billing service stores invoices in PostgreSQL.",
  "Alice runs the on-call rota for the payments team.",
  "The deploy pipeline waits for two approvals before production.",
  "Our office plants are watered every Friday by Carlos.",
];

async function twoConnections() {
  const path = join(tempDir(), "memory.db");
  const a = await open(path);
  const ids = (await a.engine.rememberMany(TEXTS.map((text, i) => ({ text, at: `2026-06-0${i + 1}T10:00:00Z` })), { detect: false })).ids as string[];
  const b = await open(path);
  return { path, a, b, ids };
}

const top = async (engine: Engine, query: string) => (await engine.recall(query, { k: 3 })).hits.map((h) => h.id);

test("another connection's commits that change no chunk vector do not reload the matrix", async () => {
  const { a, b, ids } = await twoConnections();
  try {
    assert.equal((await top(a.engine, "who waters the office plants"))[0], ids[3]);
    const loads = a.loads();
    assert.ok(loads >= 1, "the first search read the matrix");
    const version = a.dataVersion();

    // an edge, a meta row, and a re-embed's side-table batch, each committed by the other connection
    await b.engine.link(ids[0], ids[1], { type: "relates_to" });
    await b.store.setMeta("test.note", "unrelated");
    const stamp = (await b.store.embedderStamp())!;
    await b.store.reembed.start({ stamp, spec: "{\"provider\":\"glove\",\"note\":\"test\"}" });
    const todo = await b.store.reembed.todo(0, 2);
    await b.store.reembed.save(todo.map((c) => ({ chunkId: c.chunkId, indexedText: c.indexedText, vector: new Float32Array(stamp.dimensions).fill(0.1) })));
    assert.notEqual(a.dataVersion(), version, "the other connection did commit");

    assert.equal((await top(a.engine, "who waters the office plants"))[0], ids[3]);
    assert.equal((await top(a.engine, "invoices database"))[0], ids[0]);
    assert.equal(a.loads(), loads, "no reload for commits that touched no chunk vector");
  } finally {
    await b.engine.close();
    await a.engine.close();
  }
});

test("another connection's new chunk, forgotten memory and rewritten vector are seen by the next search", async () => {
  const { a, b, ids } = await twoConnections();
  try {
    await top(a.engine, "plants");
    const loads = a.loads();

    const added = await b.engine.remember({ text: "The staging cluster runs on Kubernetes in Frankfurt.", at: "2026-06-10T10:00:00Z" });
    assert.equal((await top(a.engine, "where does the staging cluster run"))[0], added.id, "a chunk another connection added");
    assert.equal(a.loads(), loads + 1);

    await b.engine.forget(ids[3]);
    assert.ok(!(await top(a.engine, "who waters the office plants")).includes(ids[3]), "a memory another connection forgot");
    assert.equal(a.loads(), loads + 2);

    // a vector rewritten in place (what the re-embed's switch does to every chunk), by a bare connection
    const raw = new Database(a.store.path);
    try {
      const [first, second] = raw.prepare("SELECT id, vector FROM chunks ORDER BY id LIMIT 2").raw().all() as [number, Buffer][];
      raw.prepare("UPDATE chunks SET vector = ? WHERE id = ?").run(second[1], first[0]);
      const probe = new Float32Array(second[1].buffer.slice(second[1].byteOffset, second[1].byteOffset + second[1].length));
      const hits = await a.store.nearestChunks({ vector: probe, depth: 2, filter: {} });
      assert.deepEqual(hits.map((h) => h.chunkId).sort(), [first[0], second[0]].sort(), "both chunks now hold the same vector");
      assert.ok(Math.abs(hits[0].score - hits[1].score) < 1e-6);
      assert.equal(a.loads(), loads + 3);
    } finally {
      raw.close();
    }
  } finally {
    await b.engine.close();
    await a.engine.close();
  }
});

test("this connection's own writes keep the matrix in step without a reload, also between another's commits", async () => {
  const { a, b, ids } = await twoConnections();
  try {
    await top(a.engine, "plants");
    const loads = a.loads();
    const mine = await a.engine.remember({ text: "The coffee machine on floor three is descaled monthly.", at: "2026-06-11T10:00:00Z" });
    assert.equal((await top(a.engine, "coffee machine descaling"))[0], mine.id);
    await b.engine.link(mine.id, ids[0], { type: "relates_to" }); // another's unrelated commit
    const second = await a.engine.remember({ text: "Bicycles are parked in the basement garage.", at: "2026-06-12T10:00:00Z" });
    assert.equal((await top(a.engine, "where are bicycles parked"))[0], second.id);
    assert.equal(a.loads(), loads, "own writes are added to the loaded matrix");

    // another's vector change before an own write: the own write cannot vouch for the matrix, the next search reloads
    const other = await b.engine.remember({ text: "The rooftop terrace closes at nine in winter.", at: "2026-06-13T10:00:00Z" });
    const third = await a.engine.remember({ text: "Visitors sign in at the front desk.", at: "2026-06-14T10:00:00Z" });
    assert.equal((await top(a.engine, "when does the rooftop terrace close"))[0], other.id);
    assert.equal((await top(a.engine, "where do visitors sign in"))[0], third.id);
    assert.equal(a.loads(), loads + 1);
  } finally {
    await b.engine.close();
    await a.engine.close();
  }
});

test("the re-embed's switch by another connection reloads the matrix with the new vectors", async () => {
  const { a, b } = await twoConnections();
  try {
    await top(a.engine, "plants");
    const loads = a.loads();
    const stamp = (await b.store.embedderStamp())!;
    const old = new Map<number, Float32Array>();
    for await (const [id, v] of b.store.allVectors()) old.set(id, v);
    const ids = [...old.keys()].sort((x, y) => x - y);
    // the "new embedder" gives each chunk the vector the next chunk had (same size, so this process may search them)
    await b.store.reembed.start({ stamp, spec: null });
    const todo = await b.store.reembed.todo(0, 1000);
    await b.store.reembed.save(todo.map((c) => ({ chunkId: c.chunkId, indexedText: c.indexedText, vector: old.get(ids[(ids.indexOf(c.chunkId) + 1) % ids.length])! })));
    assert.equal(a.loads(), loads);
    assert.equal(await b.store.reembed.switchOver(), 0);
    const [hit] = await a.store.nearestChunks({ vector: old.get(ids[1])!, depth: 1, filter: {} });
    assert.equal(hit.chunkId, ids[0], "the chunk that now holds that vector");
    assert.equal(a.loads(), loads + 1);
  } finally {
    await b.engine.close();
    await a.engine.close();
  }
});

test("the chunk generation moves with chunk inserts, deletes and vector updates, in their transaction", async () => {
  const path = join(tempDir(), "memory.db");
  const { engine } = await open(path);
  await engine.close();
  const db = new Database(path);
  try {
    const generation = () => Number(db.prepare("SELECT value FROM meta WHERE key = ?").pluck().get(CHUNK_GENERATION_KEY));
    const triggers = db.prepare("SELECT name FROM sqlite_schema WHERE type = 'trigger' AND tbl_name = 'chunks' ORDER BY name").pluck().all();
    assert.deepEqual(triggers, ["chunks_generation_delete", "chunks_generation_insert", "chunks_generation_update"]);
    const g0 = generation();
    db.prepare("INSERT INTO memories (id, kind, text, at, at_ms, recorded_at) VALUES ('m1', 'note', 'x', 'x', 0, 'x')").run();
    const rowid = db.prepare("SELECT rowid FROM memories WHERE id = 'm1'").pluck().get();
    const chunk = Number(
      db.prepare("INSERT INTO chunks (memory_rowid, ord, start, end, indexed_text, terms, vector) VALUES (?, 0, 0, 1, 'x', '', ?)").run(rowid, toBlob(new Float32Array(4))).lastInsertRowid,
    );
    assert.equal(generation(), g0 + 1, "insert");
    db.prepare("UPDATE chunks SET indexed_text = 'y' WHERE id = ?").run(chunk);
    assert.equal(generation(), g0 + 1, "a change to the indexed text alone is no vector change");
    db.prepare("UPDATE chunks SET vector = ? WHERE id = ?").run(toBlob(new Float32Array(4).fill(1)), chunk);
    assert.equal(generation(), g0 + 2, "vector update");
    assert.throws(() =>
      db.transaction(() => {
        db.prepare("DELETE FROM chunks WHERE id = ?").run(chunk);
        throw new Error("rolled back");
      })(),
    );
    assert.equal(generation(), g0 + 2, "a rolled-back delete leaves it");
    db.pragma("foreign_keys = ON");
    db.prepare("DELETE FROM memories WHERE id = 'm1'").run(); // the chunk goes by ON DELETE CASCADE
    assert.equal(generation(), g0 + 3, "a cascaded delete");
  } finally {
    db.close();
  }
});
