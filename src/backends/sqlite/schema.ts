/**
 * @module backends/sqlite/schema
 * Versioned migrations. `PRAGMA user_version` holds the number of migrations applied; each runs in its own
 * transaction, so a store is always at one well-defined version.
 */
import type { Connection } from "./connection.js";

const MIGRATIONS: string[] = [
  // 1: memories, chunks, the two FTS5 indexes and the late-interaction postings
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

  CREATE TABLE terms (id INTEGER PRIMARY KEY, term TEXT NOT NULL UNIQUE);
  CREATE TABLE postings (
    term_id  INTEGER NOT NULL,
    chunk_id INTEGER NOT NULL REFERENCES chunks (id) ON DELETE CASCADE,
    PRIMARY KEY (term_id, chunk_id)
  ) WITHOUT ROWID;
  CREATE INDEX postings_chunk ON postings (chunk_id);
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
