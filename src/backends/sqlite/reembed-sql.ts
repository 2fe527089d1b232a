/**
 * @module backends/sqlite/reembed-sql
 * Re-embedding beside the live vectors (ports/store StoreReembed) in SQLite: the new vectors wait in
 * `reembed_vectors`, a table the first `start` creates and the switch drops, so a store that never re-embeds (and
 * one that finished) has the schema it always had. The target is a meta row; both survive a kill, which is what lets
 * the same command resume. Statements on the table are prepared fresh (never cached): the switch drops it.
 */
import type Database from "better-sqlite3";
import type { ReembedChunk, ReembedTarget, StoreReembed } from "../../ports/store.js";
import { toBlob } from "../../vectors/math.js";

const TARGET_KEY = "reembed.target";
/** The spec the store reopens with (embed/spec EMBEDDER_SPEC_META, under the engine's meta prefix). */
const SPEC_KEY = "engine.embedder.spec";

const TABLE = `CREATE TABLE IF NOT EXISTS reembed_vectors (
  chunk_id     INTEGER PRIMARY KEY,
  indexed_text TEXT NOT NULL, -- the chunk's text when its vector was made: a chunk rewritten since is not done
  vector       BLOB NOT NULL
)`;

/** Chunks with no new vector for their current text. */
const MISSING = `FROM chunks c LEFT JOIN reembed_vectors p ON p.chunk_id = c.id AND p.indexed_text = c.indexed_text WHERE p.chunk_id IS NULL`;

function hasTable(db: Database.Database): boolean {
  return db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'reembed_vectors'").get() !== undefined;
}

function target(db: Database.Database): ReembedTarget | null {
  const row = db.prepare("SELECT value FROM meta WHERE key = ?").get(TARGET_KEY) as { value: string } | undefined;
  return row ? (JSON.parse(row.value) as ReembedTarget) : null;
}

const sameTarget = (a: ReembedTarget, b: ReembedTarget) => a.stamp.id === b.stamp.id && a.stamp.dimensions === b.stamp.dimensions && a.spec === b.spec;

export function start(db: Database.Database, next: ReembedTarget): { kept: number } {
  return db.transaction(() => {
    const had = target(db);
    db.exec(TABLE);
    if (!had || !sameTarget(had, next)) {
      db.prepare("DELETE FROM reembed_vectors").run();
      db.prepare("INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value").run(TARGET_KEY, JSON.stringify(next));
      return { kept: 0 };
    }
    return { kept: db.prepare("SELECT count(*) FROM reembed_vectors").pluck().get() as number };
  }).immediate();
}

export function progress(db: Database.Database): { target: ReembedTarget | null; done: number; total: number } {
  const total = db.prepare("SELECT count(*) FROM chunks").pluck().get() as number;
  const t = target(db);
  if (!t || !hasTable(db)) return { target: t, done: 0, total };
  const missing = db.prepare(`SELECT count(*) ${MISSING}`).pluck().get() as number;
  return { target: t, done: total - missing, total };
}

export function todo(db: Database.Database, after: number, limit: number): ReembedChunk[] {
  if (!hasTable(db)) return [];
  const rows = db
    .prepare(`SELECT c.id, c.start, c."end", c.indexed_text, m.text FROM chunks c JOIN memories m ON m.rowid = c.memory_rowid
              LEFT JOIN reembed_vectors p ON p.chunk_id = c.id AND p.indexed_text = c.indexed_text
              WHERE p.chunk_id IS NULL AND c.id > ? ORDER BY c.id LIMIT ?`)
    .all(after, limit) as { id: number; start: number; end: number; indexed_text: string; text: string }[];
  // the vector of a chunk is made from its span of the memory's text (ingest/prepare draftMemories), sliced here in
  // UTF-16 units as the chunker cut it (SQL's substr counts characters)
  return rows.map((r) => ({ chunkId: r.id, text: r.text.slice(r.start, r.end), indexedText: r.indexed_text }));
}

export function save(db: Database.Database, rows: { chunkId: number; indexedText: string; vector: Float32Array }[]): void {
  if (!hasTable(db)) return; // switched (or abandoned) meanwhile
  const put = db.prepare("INSERT OR REPLACE INTO reembed_vectors (chunk_id, indexed_text, vector) VALUES (?, ?, ?)");
  db.transaction(() => rows.forEach((r) => put.run(r.chunkId, r.indexedText, toBlob(r.vector))))();
}

export function switchOver(db: Database.Database): number {
  return db.transaction(() => {
    const t = target(db);
    if (!t || !hasTable(db)) return db.prepare("SELECT count(*) FROM chunks").pluck().get() as number;
    const missing = db.prepare(`SELECT count(*) ${MISSING}`).pluck().get() as number;
    if (missing > 0) return missing;
    db.prepare("UPDATE chunks SET vector = (SELECT p.vector FROM reembed_vectors p WHERE p.chunk_id = chunks.id)").run();
    const set = db.prepare("INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value");
    set.run("embedder", JSON.stringify(t.stamp));
    if (t.spec === null) db.prepare("DELETE FROM meta WHERE key = ?").run(SPEC_KEY);
    else set.run(SPEC_KEY, t.spec);
    db.prepare("DELETE FROM meta WHERE key = ?").run(TARGET_KEY);
    db.exec("DROP TABLE reembed_vectors");
    return 0;
    // immediate: the write lock is taken before the count, so no write can land between the count and the switch
  }).immediate();
}

/**
 * The re-embedding port as the store (store.ts) hands it out; `switched` is told when every vector has changed,
 * so the store rebuilds what it derived from the old ones.
 */
export function sqliteStoreReembed(db: Database.Database, switched: () => void): StoreReembed {
  return {
    start: async (target) => start(db, target),
    progress: async () => progress(db),
    todo: async (after, limit) => todo(db, after, limit),
    save: async (rows) => save(db, rows),
    switchOver: async () => {
      const missing = switchOver(db);
      if (missing === 0) switched();
      return missing;
    },
  };
}
