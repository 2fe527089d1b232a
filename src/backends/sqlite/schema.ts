/**
 * @module backends/sqlite/schema
 * Versioned migrations. `PRAGMA user_version` holds the number of migrations applied; each runs in its own
 * transaction, so a store is always at one well-defined version.
 */
import type Database from "better-sqlite3";
import { CascadeError } from "../../errors.js";

// better-sqlite3's type, not connection.ts's alias: connection.ts reads SCHEMA_VERSION from here
type Connection = Database.Database;
import { backfillFields } from "./fields-sql.js";
import { CHUNK_GENERATION_KEY } from "./version.js";

/** A step is SQL, or SQL followed by a backfill that needs the application's own code. */
type Migration = string | { sql: string; then: (db: Connection) => void };

const MIGRATIONS: Migration[] = [
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
  // 2: the memory graph. Edges are typed and directed (from → to: "from supersedes to"), valid over an
  // event-time interval, and recorded and retracted in record time: never deleted, so history can be replayed.
  `
  CREATE TABLE edges (
    rowid           INTEGER PRIMARY KEY,
    id              TEXT NOT NULL UNIQUE,
    type            TEXT NOT NULL CHECK (type IN ('supersedes', 'contradicts', 'refines', 'derived_from', 'summarizes', 'relates_to')),
    from_rowid      INTEGER NOT NULL REFERENCES memories (rowid) ON DELETE CASCADE,
    to_rowid        INTEGER NOT NULL REFERENCES memories (rowid) ON DELETE CASCADE,
    valid_from_ms   INTEGER NOT NULL,
    valid_to_ms     INTEGER,
    recorded_at_ms  INTEGER NOT NULL,
    retracted_at_ms INTEGER,
    provenance      TEXT NOT NULL CHECK (provenance IN ('user', 'api', 'heuristic', 'llm')),
    confidence      REAL NOT NULL CHECK (confidence >= 0 AND confidence <= 1),
    reason          TEXT,
    CHECK (from_rowid <> to_rowid)
  );
  CREATE INDEX edges_into ON edges (to_rowid, type);
  CREATE INDEX edges_out_of ON edges (from_rowid, type);

  -- detected revisions below the confidence threshold, for a person to accept or reject
  CREATE TABLE suggestions (
    rowid         INTEGER PRIMARY KEY,
    id            TEXT NOT NULL UNIQUE,
    from_rowid    INTEGER NOT NULL REFERENCES memories (rowid) ON DELETE CASCADE,
    to_rowid      INTEGER NOT NULL REFERENCES memories (rowid) ON DELETE CASCADE,
    confidence    REAL NOT NULL,
    reason        TEXT NOT NULL,
    created_at_ms INTEGER NOT NULL,
    status        TEXT NOT NULL DEFAULT 'open' CHECK (status IN ('open', 'accepted', 'rejected')),
    decided_at_ms INTEGER,
    UNIQUE (from_rowid, to_rowid)
  );
  `,
  // 3: calendar windows whose summaries are out of date. Adding or forgetting a memory, and adding or retracting
  // an edge, mark the day, week and month of every memory involved, in the same transaction.
  `
  CREATE TABLE dirty_windows (level TEXT NOT NULL, start_ms INTEGER NOT NULL, PRIMARY KEY (level, start_ms)) WITHOUT ROWID;
  `,
  // 4: the summary pyramid. A node is a memory of kind 'summary' (so every channel indexes it) with its level and
  // [start, end) window; its children are turns (day), day nodes (week) or the week nodes overlapping it (month).
  `
  CREATE TABLE summary_nodes (
    memory_rowid INTEGER PRIMARY KEY REFERENCES memories (rowid) ON DELETE CASCADE,
    level        TEXT NOT NULL CHECK (level IN ('day', 'week', 'month')),
    start_ms     INTEGER NOT NULL,
    end_ms       INTEGER NOT NULL,
    UNIQUE (level, start_ms)
  );
  CREATE TABLE summary_children (
    parent_rowid INTEGER NOT NULL REFERENCES memories (rowid) ON DELETE CASCADE,
    child_rowid  INTEGER NOT NULL REFERENCES memories (rowid) ON DELETE CASCADE,
    PRIMARY KEY (parent_rowid, child_rowid)
  ) WITHOUT ROWID;
  CREATE INDEX summary_children_child ON summary_children (child_rowid);
  `,
  // 5: the taxonomy. Memories carry their topic path (indexed: a subtree is an index range); this table holds the
  // topics people created or described, which exist even before any memory sits there.
  `
  CREATE TABLE topics (path TEXT PRIMARY KEY, description TEXT, created_at_ms INTEGER NOT NULL) WITHOUT ROWID;
  `,
  // 6: conversational context. A turn's first chunk also indexes the turn before it in its session
  // (context_chars: that suffix's length in indexed_text); context_rowid names that turn, so that forgetting it
  // strips its words from the later turn's index.
  `
  ALTER TABLE memories ADD COLUMN context_rowid INTEGER;
  ALTER TABLE chunks ADD COLUMN context_chars INTEGER NOT NULL DEFAULT 0;
  CREATE INDEX memories_context ON memories (context_rowid) WHERE context_rowid IS NOT NULL;
  CREATE INDEX memories_session ON memories (session, at_ms) WHERE session IS NOT NULL;
  `,
  // 7: idempotent imports. An imported memory keeps its import key (`ref:…` or `sha256:…` of the line, see
  // ingest/dedupe.ts); unique, so a re-run import finds what it already stored and two can never both store it.
  `
  ALTER TABLE memories ADD COLUMN import_key TEXT;
  CREATE UNIQUE INDEX memories_import_key ON memories (import_key) WHERE import_key IS NOT NULL;
  `,
  // 8: the turn level of the pyramid. A memory longer than one chunk has a node of level 'turn' whose window is
  // its instant; several can share an instant, so (level, start) is unique only for the calendar levels.
  `
  CREATE TABLE summary_nodes_v8 (
    memory_rowid INTEGER PRIMARY KEY REFERENCES memories (rowid) ON DELETE CASCADE,
    level        TEXT NOT NULL CHECK (level IN ('turn', 'day', 'week', 'month')),
    start_ms     INTEGER NOT NULL,
    end_ms       INTEGER NOT NULL
  );
  INSERT INTO summary_nodes_v8 (memory_rowid, level, start_ms, end_ms) SELECT memory_rowid, level, start_ms, end_ms FROM summary_nodes;
  DROP TABLE summary_nodes;
  ALTER TABLE summary_nodes_v8 RENAME TO summary_nodes;
  CREATE UNIQUE INDEX summary_nodes_window ON summary_nodes (level, start_ms) WHERE level <> 'turn';
  CREATE INDEX summary_nodes_start ON summary_nodes (start_ms);
  `,
  // 9: entities as nodes. `mentions` links a memory to each entity its text (or speaker) names; an alias key
  // resolves to the entity it was merged into; `mentioned_by` counts mentions so hubs are known without a scan.
  `
  CREATE TABLE entities (
    rowid         INTEGER PRIMARY KEY,
    id            TEXT NOT NULL UNIQUE,
    key           TEXT NOT NULL UNIQUE,
    name          TEXT NOT NULL,
    kind          TEXT NOT NULL CHECK (kind IN ('person', 'name', 'identifier')),
    mentioned_by  INTEGER NOT NULL DEFAULT 0,
    created_at_ms INTEGER NOT NULL
  );
  CREATE INDEX entities_mentioned ON entities (mentioned_by DESC, key);
  CREATE TABLE entity_aliases (
    key          TEXT PRIMARY KEY,
    entity_rowid INTEGER NOT NULL REFERENCES entities (rowid) ON DELETE CASCADE
  ) WITHOUT ROWID;
  CREATE INDEX entity_aliases_entity ON entity_aliases (entity_rowid);
  CREATE TABLE mentions (
    memory_rowid INTEGER NOT NULL REFERENCES memories (rowid) ON DELETE CASCADE,
    entity_rowid INTEGER NOT NULL REFERENCES entities (rowid) ON DELETE CASCADE,
    PRIMARY KEY (memory_rowid, entity_rowid)
  ) WITHOUT ROWID;
  CREATE INDEX mentions_entity ON mentions (entity_rowid, memory_rowid);
  `,
  // 10: scopes and metadata filters. `user` and `agent` are memory fields like `session`; memory_fields holds
  // every scalar metadata value by dotted path (an array's elements under the array's path), so that
  // `--filter project=atlas` or `priority>=2` is an index range, not a JSON parse of every memory.
  {
    sql: `
  ALTER TABLE memories ADD COLUMN user_id TEXT;
  ALTER TABLE memories ADD COLUMN agent_id TEXT;
  CREATE INDEX memories_user ON memories (user_id, at_ms) WHERE user_id IS NOT NULL;
  CREATE INDEX memories_agent ON memories (agent_id, at_ms) WHERE agent_id IS NOT NULL;
  CREATE INDEX memories_speaker ON memories (speaker) WHERE speaker IS NOT NULL;
  CREATE TABLE memory_fields (
    memory_rowid INTEGER NOT NULL REFERENCES memories (rowid) ON DELETE CASCADE,
    path         TEXT NOT NULL,
    type         TEXT NOT NULL CHECK (type IN ('string', 'number', 'boolean')),
    text_value   TEXT NOT NULL,
    num_value    REAL
  );
  CREATE INDEX memory_fields_text ON memory_fields (path, text_value, memory_rowid);
  CREATE INDEX memory_fields_num ON memory_fields (path, num_value, memory_rowid) WHERE num_value IS NOT NULL;
  CREATE INDEX memory_fields_memory ON memory_fields (memory_rowid);
  `,
    then: backfillFields,
  },
  // 11: expiry. A memory may carry the instant it stops being worth returning; searches and lists leave it out
  // from then on (unless asked), and `forget --expired` removes it for good.
  `
  ALTER TABLE memories ADD COLUMN expires_at_ms INTEGER;
  CREATE INDEX memories_expires ON memories (expires_at_ms) WHERE expires_at_ms IS NOT NULL;
  `,
  // 12: corrections. `update` rewrites a memory in place (same id, same edges) and keeps what it said before,
  // with when Cascade learned the correction, so history shows both.
  `
  CREATE TABLE memory_revisions (
    memory_rowid   INTEGER NOT NULL REFERENCES memories (rowid) ON DELETE CASCADE,
    recorded_at_ms INTEGER NOT NULL,
    previous       TEXT NOT NULL
  );
  CREATE INDEX memory_revisions_memory ON memory_revisions (memory_rowid, recorded_at_ms);
  `,
  // 13: owners by narrow indexes. Every search names the memory of each chunk it found (owner-cache.ts); through
  // the tables that read a chunk row (vector and text) and a memory row (text, metadata) per chunk: two random
  // pages each, ~20 ms for 100 chunks of a 1,000,000-chunk store whose pages are cold. These indexes hold just
  // the ids (16 + 41 MB at 1,000,000 chunks), so the pages a search needs are few and stay cached.
  `
  CREATE INDEX chunks_owner ON chunks (id, memory_rowid);
  CREATE INDEX memories_id_by_rowid ON memories (rowid, id);
  `,
  // 14: the forms a memory names an entity by (its key or an alias, with the name as written), so that forgetting
  // the last memory that used a form forgets the form: an alias goes, and an entity whose own name no memory uses
  // any more takes the name of a form still in use ('Mel' merged into 'Melanie', every 'Melanie' forgotten). A
  // store from before credits each mention with every form of its entity: nothing a memory may have used is lost.
  `
  CREATE TABLE mention_forms (
    memory_rowid INTEGER NOT NULL REFERENCES memories (rowid) ON DELETE CASCADE,
    key          TEXT NOT NULL,
    name         TEXT NOT NULL,
    PRIMARY KEY (memory_rowid, key)
  ) WITHOUT ROWID;
  CREATE INDEX mention_forms_key ON mention_forms (key);
  INSERT OR IGNORE INTO mention_forms (memory_rowid, key, name)
    SELECT x.memory_rowid, e.key, e.name FROM mentions x JOIN entities e ON e.rowid = x.entity_rowid;
  INSERT OR IGNORE INTO mention_forms (memory_rowid, key, name)
    SELECT x.memory_rowid, a.key, a.key FROM mentions x JOIN entity_aliases a ON a.entity_rowid = x.entity_rowid;
  `,
  // 15: statements as the unit of a revision. An edge may name the one statement (a sentence) of the older memory
  // it replaces; null stands for all the older memory says, as every edge before this did.
  `
  ALTER TABLE edges ADD COLUMN statement TEXT;
  `,
  // 16: summaries per scope. A window has a node for the whole namespace and one for each user and each agent whose
  // memories it holds (the node's memory carries that user or agent; its id names the scope), so a level and a
  // start no longer name one node: the window's index stops being unique. Nodes are found and replaced by id.
  `
  DROP INDEX IF EXISTS summary_nodes_window;
  CREATE INDEX summary_nodes_window ON summary_nodes (level, start_ms);
  `,
  // 17: enrichment that failed on a stored memory (entities, topic, revisions: ingest/enrichment.ts), kept until a
  // retry (`cascade doctor --repair`) succeeds; the row goes with its memory.
  `
  CREATE TABLE IF NOT EXISTS enrichment_failures (
    memory_rowid INTEGER NOT NULL REFERENCES memories (rowid) ON DELETE CASCADE,
    step         TEXT NOT NULL,
    reason       TEXT NOT NULL,
    at_ms        INTEGER NOT NULL,
    attempts     INTEGER NOT NULL DEFAULT 1,
    PRIMARY KEY (memory_rowid, step)
  ) WITHOUT ROWID;
  CREATE INDEX IF NOT EXISTS enrichment_failures_at ON enrichment_failures (at_ms);
  `,
  // 18: the chunk generation. A counter in meta that triggers bump in the same transaction as every change to the
  // chunk rows a search keeps in memory (a chunk added or deleted, its vector or its memory changed), whichever
  // connection makes it. The in-memory vector matrix and the chunk owners are kept under it (vector-index.ts,
  // owner-cache.ts), so that another process's commit of anything else (the re-embed's side table, edges, summaries
  // of no new chunk) no longer makes the next search reload 100,000 vectors. Row triggers: SQLite has no statement
  // triggers, so the re-embed's switch bumps it once a chunk (~1 µs each).
  `
  INSERT INTO meta (key, value) VALUES ('${CHUNK_GENERATION_KEY}', '0') ON CONFLICT (key) DO NOTHING;
  CREATE TRIGGER IF NOT EXISTS chunks_generation_insert AFTER INSERT ON chunks BEGIN
    UPDATE meta SET value = CAST(value AS INTEGER) + 1 WHERE key = '${CHUNK_GENERATION_KEY}';
  END;
  CREATE TRIGGER IF NOT EXISTS chunks_generation_delete AFTER DELETE ON chunks BEGIN
    UPDATE meta SET value = CAST(value AS INTEGER) + 1 WHERE key = '${CHUNK_GENERATION_KEY}';
  END;
  CREATE TRIGGER IF NOT EXISTS chunks_generation_update AFTER UPDATE OF id, memory_rowid, vector ON chunks BEGIN
    UPDATE meta SET value = CAST(value AS INTEGER) + 1 WHERE key = '${CHUNK_GENERATION_KEY}';
  END;
  `,
];

export const SCHEMA_VERSION = MIGRATIONS.length;

/**
 * Refuses a store written by a newer Cascade. Called when the connection opens, before any pragma that writes
 * (WAL mode changes the file's header): a store this version cannot read is left exactly as it was.
 */
export function refuseNewerSchema(db: Connection, path: string): void {
  const current = db.pragma("user_version", { simple: true }) as number;
  if (current > SCHEMA_VERSION) {
    throw new CascadeError("UNSUPPORTED", `${path}: this store has schema version ${current}; this Cascade knows only up to ${SCHEMA_VERSION}: upgrade Cascade`, { field: "db" });
  }
}

export function migrate(db: Connection): void {
  const current = db.pragma("user_version", { simple: true }) as number;
  if (current > SCHEMA_VERSION) {
    throw new Error(`this store has schema version ${current}; this Cascade knows only up to ${SCHEMA_VERSION}: upgrade Cascade`);
  }
  for (let v = current; v < SCHEMA_VERSION; v++) {
    db.transaction(() => {
      // another process may have applied this step while we waited for the write lock
      if ((db.pragma("user_version", { simple: true }) as number) > v) return;
      const step = MIGRATIONS[v];
      db.exec(typeof step === "string" ? step : step.sql);
      if (typeof step !== "string") step.then(db);
      db.pragma(`user_version = ${v + 1}`);
    })();
  }
}
