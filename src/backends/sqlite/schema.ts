/**
 * @module backends/sqlite/schema
 * Versioned migrations. `PRAGMA user_version` holds the number of migrations applied; each runs in its own
 * transaction, so a store is always at one well-defined version.
 */
import type { Connection } from "./connection.js";

const MIGRATIONS: string[] = [
  // 1: memories, chunks, the two FTS5 indexes and the corpus vocabulary
  `
  CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL) WITHOUT ROWID;

  CREATE TABLE memories (
    rowid        INTEGER PRIMARY KEY,
    id           TEXT NOT NULL UNIQUE,
    kind         TEXT NOT NULL,
    text         TEXT NOT NULL,
    title        TEXT,
    description  TEXT,
    tags         TEXT NOT NULL DEFAULT '[]',
    topic        TEXT,
    role         TEXT,
    speaker      TEXT,
    session      TEXT,
    at           TEXT NOT NULL,
    at_ms        INTEGER NOT NULL,
    recorded_at  TEXT NOT NULL,
    metadata     TEXT NOT NULL DEFAULT '{}'
  );
  CREATE INDEX memories_at ON memories (at_ms);
  CREATE INDEX memories_kind ON memories (kind, at_ms);
  CREATE INDEX memories_topic ON memories (topic);

  CREATE TABLE chunks (
    id           INTEGER PRIMARY KEY,
    memory_rowid INTEGER NOT NULL REFERENCES memories (rowid) ON DELETE CASCADE,
    ord          INTEGER NOT NULL,
    start        INTEGER NOT NULL,
    end          INTEGER NOT NULL,
    indexed_text TEXT NOT NULL,
    terms        TEXT NOT NULL, -- the distinct words counted in terms.df, space-separated, to uncount on delete
    vector       BLOB NOT NULL
  );
  CREATE INDEX chunks_memory ON chunks (memory_rowid, ord);

  -- contentless: the text lives in chunks; contentless_delete lets forget remove rows
  CREATE VIRTUAL TABLE chunks_fts USING fts5 (
    body, content = '', contentless_delete = 1, tokenize = 'porter unicode61 remove_diacritics 2'
  );
  CREATE VIRTUAL TABLE curated_fts USING fts5 (
    title, description, tags, content = '', contentless_delete = 1, tokenize = 'porter unicode61 remove_diacritics 2'
  );

  -- every distinct word ever indexed (rows are never deleted, so ids stay stable), with the number of chunks
  -- holding it. Late interaction expands query tokens over it and reads the chunks holding a word from
  -- chunks_fts (a separate postings table cost 35% of ingest time); df lets a query skip near-stop-words.
  CREATE TABLE terms (id INTEGER PRIMARY KEY, term TEXT NOT NULL UNIQUE, df INTEGER NOT NULL DEFAULT 0);
  `,
];

export const SCHEMA_VERSION = MIGRATIONS.length;

export function migrate(db: Connection): void {
  const current = db.pragma("user_version", { simple: true }) as number;
  if (current > SCHEMA_VERSION) {
    throw new Error(`this store has schema version ${current}; this Cascade knows only up to ${SCHEMA_VERSION}: upgrade Cascade`);
  }
  for (let v = current; v < SCHEMA_VERSION; v++) {
    db.transaction(() => {
      db.exec(MIGRATIONS[v]);
      db.pragma(`user_version = ${v + 1}`);
    })();
  }
}
