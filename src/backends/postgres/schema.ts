// Over 400 lines on purpose: it is the ordered list of SQL migrations, kept whole so the schema reads top to bottom in one place.
/**
 * @module backends/postgres/schema
 * Versioned migrations for the PostgreSQL store, applied on open. `cascade_schema_version` holds one row per
 * migration applied; each runs in its own transaction under an advisory lock, so two processes opening a new
 * database at once apply each step exactly once. A database at a newer version than this Cascade knows is
 * refused rather than used.
 *
 * Every data table leads with `namespace` (text, default 'default'), and every primary key, unique key and
 * foreign key starts with it: it is the distribution column for Citus (`create_distributed_table(t,
 * 'namespace')`, colocated), so all of one namespace's rows, and every join between them, stay on one worker.
 * A store reads and writes one namespace; many stores can share a database. (The version table is the one
 * table without it: the schema belongs to the database, not to a namespace.)
 *
 * Differences from the SQLite schema, each for a reason:
 *   - no FTS5: `postings` (chunk, stemmed term, tf) and each chunk's token count are what BM25 is computed from
 *     (lexical-sql.ts), and `curated_postings` does the same for titles, descriptions and tags;
 *   - `chunks.vector` is pgvector's `vector` without a fixed dimension: namespaces sharing the table may use
 *     embedders of different sizes, and each store's embedder stamp (checked on every write) keeps its own
 *     vectors one size (HNSW indexes are per namespace: hnsw-sql.ts). On a server without pgvector (Debian's
 *     PostgreSQL does not package it) the column is `real[]` instead, and each store searches its namespace's
 *     vectors exactly in process (vector-matrix.ts); which one a database has is fixed when it is created;
 *   - topics are `ltree` (the engine's topic paths already follow ltree's rules) with GiST indexes, so a
 *     subtree is `topic <@ path`;
 *   - ids and keys that the SQLite store sorts byte-wise are `COLLATE "C"`, so orders agree across backends.
 */
import type { Database, Queryable } from "./connection.js";

/** Stands for the vector column's type in migration 1: `vector` where pgvector can be installed, else `real[]`. */
const VECTOR_TYPE = "@vector_type@";

const MIGRATIONS: string[] = [
  // 1: the whole store as of SQLite schema 12 (memories, chunks, lexical postings, graph, pyramid, topics,
  // entities, metadata fields, expiry, revisions, import keys).
  `
  CREATE EXTENSION IF NOT EXISTS ltree;

  CREATE TABLE meta (
    namespace text NOT NULL DEFAULT 'default',
    key       text COLLATE "C" NOT NULL,
    value     text NOT NULL,
    PRIMARY KEY (namespace, key)
  );

  CREATE TABLE memories (
    namespace      text NOT NULL DEFAULT 'default',
    rowid          bigint GENERATED ALWAYS AS IDENTITY,
    id             text COLLATE "C" NOT NULL,
    kind           text NOT NULL,
    text           text NOT NULL,
    title          text,
    description    text,
    tags           text NOT NULL DEFAULT '[]',
    topic          ltree,
    role           text,
    speaker        text,
    session        text,
    user_id        text,
    agent_id       text,
    at             text NOT NULL,
    at_ms          bigint NOT NULL,
    recorded_at    text NOT NULL,
    recorded_at_ms double precision NOT NULL,
    expires_at_ms  bigint,
    metadata       text NOT NULL DEFAULT '{}',
    context_rowid  bigint,
    import_key     text,
    curated        boolean NOT NULL DEFAULT false, -- has a title, description or tags: a document of the curated index
    curated_len    integer NOT NULL DEFAULT 0, -- its tokens (the curated BM25 length)
    PRIMARY KEY (namespace, rowid),
    UNIQUE (namespace, id)
  );
  CREATE INDEX memories_at ON memories (namespace, at_ms);
  CREATE INDEX memories_kind ON memories (namespace, kind, at_ms);
  CREATE INDEX memories_topic ON memories USING gist (topic);
  CREATE INDEX memories_context ON memories (namespace, context_rowid) WHERE context_rowid IS NOT NULL;
  CREATE INDEX memories_session ON memories (namespace, session, at_ms) WHERE session IS NOT NULL;
  CREATE UNIQUE INDEX memories_import_key ON memories (namespace, import_key) WHERE import_key IS NOT NULL;
  CREATE INDEX memories_user ON memories (namespace, user_id, at_ms) WHERE user_id IS NOT NULL;
  CREATE INDEX memories_agent ON memories (namespace, agent_id, at_ms) WHERE agent_id IS NOT NULL;
  CREATE INDEX memories_speaker ON memories (namespace, speaker) WHERE speaker IS NOT NULL;
  CREATE INDEX memories_expires ON memories (namespace, expires_at_ms) WHERE expires_at_ms IS NOT NULL;

  CREATE TABLE chunks (
    namespace     text NOT NULL DEFAULT 'default',
    id            bigint GENERATED ALWAYS AS IDENTITY,
    memory_rowid  bigint NOT NULL,
    ord           integer NOT NULL,
    start         integer NOT NULL,
    "end"         integer NOT NULL,
    indexed_text  text NOT NULL,
    terms         text NOT NULL, -- the distinct words counted in terms.df, space-separated, to uncount on delete
    context_chars integer NOT NULL DEFAULT 0,
    length        integer NOT NULL, -- tokens of indexed_text: the document length of BM25
    vector        @vector_type@ NOT NULL,
    PRIMARY KEY (namespace, id),
    FOREIGN KEY (namespace, memory_rowid) REFERENCES memories (namespace, rowid) ON DELETE CASCADE
  );
  CREATE INDEX chunks_memory ON chunks (namespace, memory_rowid, ord);

  -- one row per (stemmed term, chunk) with the term's count in the chunk: BM25's tf and df
  CREATE TABLE postings (
    namespace text NOT NULL DEFAULT 'default',
    term      text COLLATE "C" NOT NULL,
    chunk_id  bigint NOT NULL,
    tf        integer NOT NULL,
    PRIMARY KEY (namespace, term, chunk_id),
    FOREIGN KEY (namespace, chunk_id) REFERENCES chunks (namespace, id) ON DELETE CASCADE
  );
  CREATE INDEX postings_chunk ON postings (namespace, chunk_id);

  -- the same over a memory's title, description and tags (one document per memory, like FTS5's three columns)
  CREATE TABLE curated_postings (
    namespace    text NOT NULL DEFAULT 'default',
    term         text COLLATE "C" NOT NULL,
    memory_rowid bigint NOT NULL,
    tf           integer NOT NULL,
    PRIMARY KEY (namespace, term, memory_rowid),
    FOREIGN KEY (namespace, memory_rowid) REFERENCES memories (namespace, rowid) ON DELETE CASCADE
  );
  CREATE INDEX curated_postings_memory ON curated_postings (namespace, memory_rowid);

  -- every distinct (unstemmed) content word ever indexed, with the number of chunks holding it; rows are only
  -- dropped by a purge, so ids stay stable for late interaction's "terms added after id n"
  CREATE TABLE terms (
    namespace text NOT NULL DEFAULT 'default',
    id        bigint GENERATED ALWAYS AS IDENTITY,
    term      text COLLATE "C" NOT NULL,
    df        integer NOT NULL DEFAULT 0,
    PRIMARY KEY (namespace, id),
    UNIQUE (namespace, term)
  );

  CREATE TABLE edges (
    namespace       text NOT NULL DEFAULT 'default',
    rowid           bigint GENERATED ALWAYS AS IDENTITY,
    id              text COLLATE "C" NOT NULL,
    type            text NOT NULL CHECK (type IN ('supersedes', 'contradicts', 'refines', 'derived_from', 'summarizes', 'relates_to')),
    from_rowid      bigint NOT NULL,
    to_rowid        bigint NOT NULL,
    valid_from_ms   bigint NOT NULL,
    valid_to_ms     bigint,
    recorded_at_ms  bigint NOT NULL,
    retracted_at_ms bigint,
    provenance      text NOT NULL CHECK (provenance IN ('user', 'api', 'heuristic', 'llm')),
    confidence      double precision NOT NULL CHECK (confidence >= 0 AND confidence <= 1),
    reason          text,
    CHECK (from_rowid <> to_rowid),
    PRIMARY KEY (namespace, rowid),
    UNIQUE (namespace, id),
    FOREIGN KEY (namespace, from_rowid) REFERENCES memories (namespace, rowid) ON DELETE CASCADE,
    FOREIGN KEY (namespace, to_rowid) REFERENCES memories (namespace, rowid) ON DELETE CASCADE
  );
  CREATE INDEX edges_into ON edges (namespace, to_rowid, type);
  CREATE INDEX edges_out_of ON edges (namespace, from_rowid, type);

  CREATE TABLE suggestions (
    namespace     text NOT NULL DEFAULT 'default',
    rowid         bigint GENERATED ALWAYS AS IDENTITY,
    id            text COLLATE "C" NOT NULL,
    from_rowid    bigint NOT NULL,
    to_rowid      bigint NOT NULL,
    confidence    double precision NOT NULL,
    reason        text NOT NULL,
    created_at_ms bigint NOT NULL,
    status        text NOT NULL DEFAULT 'open' CHECK (status IN ('open', 'accepted', 'rejected')),
    decided_at_ms bigint,
    PRIMARY KEY (namespace, rowid),
    UNIQUE (namespace, id),
    UNIQUE (namespace, from_rowid, to_rowid),
    FOREIGN KEY (namespace, from_rowid) REFERENCES memories (namespace, rowid) ON DELETE CASCADE,
    FOREIGN KEY (namespace, to_rowid) REFERENCES memories (namespace, rowid) ON DELETE CASCADE
  );

  CREATE TABLE dirty_windows (
    namespace text NOT NULL DEFAULT 'default',
    level     text NOT NULL,
    start_ms  bigint NOT NULL,
    PRIMARY KEY (namespace, level, start_ms)
  );

  CREATE TABLE summary_nodes (
    namespace    text NOT NULL DEFAULT 'default',
    memory_rowid bigint NOT NULL,
    level        text NOT NULL CHECK (level IN ('turn', 'day', 'week', 'month')),
    start_ms     bigint NOT NULL,
    end_ms       bigint NOT NULL,
    PRIMARY KEY (namespace, memory_rowid),
    FOREIGN KEY (namespace, memory_rowid) REFERENCES memories (namespace, rowid) ON DELETE CASCADE
  );
  CREATE UNIQUE INDEX summary_nodes_window ON summary_nodes (namespace, level, start_ms) WHERE level <> 'turn';
  CREATE INDEX summary_nodes_start ON summary_nodes (namespace, start_ms);
  CREATE TABLE summary_children (
    namespace    text NOT NULL DEFAULT 'default',
    parent_rowid bigint NOT NULL,
    child_rowid  bigint NOT NULL,
    PRIMARY KEY (namespace, parent_rowid, child_rowid),
    FOREIGN KEY (namespace, parent_rowid) REFERENCES memories (namespace, rowid) ON DELETE CASCADE,
    FOREIGN KEY (namespace, child_rowid) REFERENCES memories (namespace, rowid) ON DELETE CASCADE
  );
  CREATE INDEX summary_children_child ON summary_children (namespace, child_rowid);

  CREATE TABLE topics (
    namespace     text NOT NULL DEFAULT 'default',
    path          ltree NOT NULL,
    description   text,
    created_at_ms bigint NOT NULL,
    PRIMARY KEY (namespace, path)
  );
  CREATE INDEX topics_path ON topics USING gist (path);

  CREATE TABLE entities (
    namespace     text NOT NULL DEFAULT 'default',
    rowid         bigint GENERATED ALWAYS AS IDENTITY,
    id            text COLLATE "C" NOT NULL,
    key           text COLLATE "C" NOT NULL,
    name          text NOT NULL,
    kind          text NOT NULL CHECK (kind IN ('person', 'name', 'identifier')),
    mentioned_by  integer NOT NULL DEFAULT 0,
    created_at_ms bigint NOT NULL,
    PRIMARY KEY (namespace, rowid),
    UNIQUE (namespace, id),
    UNIQUE (namespace, key)
  );
  CREATE INDEX entities_mentioned ON entities (namespace, mentioned_by DESC, key);
  CREATE TABLE entity_aliases (
    namespace    text NOT NULL DEFAULT 'default',
    key          text COLLATE "C" NOT NULL,
    entity_rowid bigint NOT NULL,
    PRIMARY KEY (namespace, key),
    FOREIGN KEY (namespace, entity_rowid) REFERENCES entities (namespace, rowid) ON DELETE CASCADE
  );
  CREATE INDEX entity_aliases_entity ON entity_aliases (namespace, entity_rowid);
  CREATE TABLE mentions (
    namespace    text NOT NULL DEFAULT 'default',
    memory_rowid bigint NOT NULL,
    entity_rowid bigint NOT NULL,
    PRIMARY KEY (namespace, memory_rowid, entity_rowid),
    FOREIGN KEY (namespace, memory_rowid) REFERENCES memories (namespace, rowid) ON DELETE CASCADE,
    FOREIGN KEY (namespace, entity_rowid) REFERENCES entities (namespace, rowid) ON DELETE CASCADE
  );
  CREATE INDEX mentions_entity ON mentions (namespace, entity_rowid, memory_rowid);

  CREATE TABLE memory_fields (
    namespace    text NOT NULL DEFAULT 'default',
    memory_rowid bigint NOT NULL,
    path         text NOT NULL,
    type         text NOT NULL CHECK (type IN ('string', 'number', 'boolean')),
    text_value   text COLLATE "C" NOT NULL,
    num_value    double precision,
    FOREIGN KEY (namespace, memory_rowid) REFERENCES memories (namespace, rowid) ON DELETE CASCADE
  );
  CREATE INDEX memory_fields_text ON memory_fields (namespace, path, text_value, memory_rowid);
  CREATE INDEX memory_fields_num ON memory_fields (namespace, path, num_value, memory_rowid) WHERE num_value IS NOT NULL;
  CREATE INDEX memory_fields_memory ON memory_fields (namespace, memory_rowid);

  CREATE TABLE memory_revisions (
    namespace      text NOT NULL DEFAULT 'default',
    rowid          bigint GENERATED ALWAYS AS IDENTITY,
    memory_rowid   bigint NOT NULL,
    recorded_at_ms bigint NOT NULL,
    previous       text NOT NULL,
    PRIMARY KEY (namespace, rowid),
    FOREIGN KEY (namespace, memory_rowid) REFERENCES memories (namespace, rowid) ON DELETE CASCADE
  );
  CREATE INDEX memory_revisions_memory ON memory_revisions (namespace, memory_rowid, recorded_at_ms);
  `,
  // 2: the forms a memory names an entity by, as SQLite's migration 14 (see there); earlier mentions are credited
  // with every form of their entity.
  `
  CREATE TABLE mention_forms (
    namespace    text NOT NULL DEFAULT 'default',
    memory_rowid bigint NOT NULL,
    key          text COLLATE "C" NOT NULL,
    name         text NOT NULL,
    PRIMARY KEY (namespace, memory_rowid, key),
    FOREIGN KEY (namespace, memory_rowid) REFERENCES memories (namespace, rowid) ON DELETE CASCADE
  );
  CREATE INDEX mention_forms_key ON mention_forms (namespace, key);
  INSERT INTO mention_forms (namespace, memory_rowid, key, name)
    SELECT x.namespace, x.memory_rowid, e.key, e.name FROM mentions x JOIN entities e ON e.namespace = x.namespace AND e.rowid = x.entity_rowid
    ON CONFLICT DO NOTHING;
  INSERT INTO mention_forms (namespace, memory_rowid, key, name)
    SELECT x.namespace, x.memory_rowid, a.key, a.key FROM mentions x JOIN entity_aliases a ON a.namespace = x.namespace AND a.entity_rowid = x.entity_rowid
    ON CONFLICT DO NOTHING;
  `,
  // 3: each posting carries its chunk's length, and the postings key includes tf and length, so BM25 scores a
  // query's postings from the index alone (an index-only scan once vacuumed) instead of visiting each posting's
  // row and joining its chunk for the length: the bulk of BM25's time at 100,000 chunks on a server.
  `
  ALTER TABLE postings ADD COLUMN len integer;
  UPDATE postings p SET len = c.length FROM chunks c WHERE c.namespace = p.namespace AND c.id = p.chunk_id;
  ALTER TABLE postings ALTER COLUMN len SET NOT NULL;
  ALTER TABLE postings DROP CONSTRAINT postings_pkey;
  ALTER TABLE postings ADD PRIMARY KEY (namespace, term, chunk_id) INCLUDE (tf, len);
  `,
  // 4: postings without their foreign key to chunks. Every path that deletes a chunk deletes its postings first
  // (memory-sql.ts removeContent, doctor's rebuild, drop-sql.ts), and checking the key cost each posting a lookup
  // in chunks: ~45% of the postings insert, the largest statement of a bulk ingest.
  `
  ALTER TABLE postings DROP CONSTRAINT IF EXISTS postings_namespace_chunk_id_fkey;
  `,
  // 5: no column statistics for the bodies, vectors and JSON no plan's estimate reads. ANALYZE computed them for
  // every sampled row (a 100-float array's element statistics, kilobytes of text): ANALYZE chunks took 815 ms at
  // 20,000 chunks, a third of a bulk load's time, as the store refreshes statistics while a namespace grows.
  `
  ALTER TABLE chunks ALTER COLUMN vector SET STATISTICS 0, ALTER COLUMN indexed_text SET STATISTICS 0, ALTER COLUMN terms SET STATISTICS 0;
  ALTER TABLE memories ALTER COLUMN text SET STATISTICS 0, ALTER COLUMN title SET STATISTICS 0, ALTER COLUMN description SET STATISTICS 0,
    ALTER COLUMN tags SET STATISTICS 0, ALTER COLUMN metadata SET STATISTICS 0, ALTER COLUMN at SET STATISTICS 0, ALTER COLUMN recorded_at SET STATISTICS 0;
  `,
  // 6: a chunk lists its postings' keys, and postings lose their index by chunk. That index served only deletes
  // (a chunk's postings found by its id), yet every posting paid an entry in it: 11% of a bulk load (42.7 s ->
  // 38.0 s at 100,000 chunks). A chunk's postings are now deleted by their primary key, from the keys it lists.
  `
  ALTER TABLE chunks ADD COLUMN keys text NOT NULL DEFAULT '';
  ALTER TABLE chunks ALTER COLUMN keys SET STATISTICS 0;
  UPDATE chunks c SET keys = p.keys
    FROM (SELECT namespace, chunk_id, string_agg(term, ' ' ORDER BY term) AS keys FROM postings GROUP BY namespace, chunk_id) AS p
    WHERE c.namespace = p.namespace AND c.id = p.chunk_id;
  DROP INDEX postings_chunk;
  `,
  // 7: a summary's links to its children without foreign keys. Each key checked every link on insert (a lookup and
  // a row lock in memories, per link: 100,000 links when a bulk load's pyramid is built) and cascaded every
  // delete. The links of a memory are now deleted with it (memory-sql.ts removeMemoryRow, doctor's rebuild,
  // drop-sql.ts), and the doctor counts any whose memory is gone.
  `
  ALTER TABLE summary_children DROP CONSTRAINT IF EXISTS summary_children_namespace_parent_rowid_fkey;
  ALTER TABLE summary_children DROP CONSTRAINT IF EXISTS summary_children_namespace_child_rowid_fkey;
  `,
  // 8: statements as the unit of a revision (SQLite's 15): an edge may name the statement of the older memory it
  // replaces; null stands for all the older memory says.
  `
  ALTER TABLE edges ADD COLUMN IF NOT EXISTS statement text;
  `,
  // 9: summaries per scope (SQLite's 16): a window has a node for the whole namespace and one for each user and
  // each agent whose memories it holds, so a level and a start no longer name one node. Nodes are found by id.
  `
  DROP INDEX IF EXISTS summary_nodes_window;
  CREATE INDEX IF NOT EXISTS summary_nodes_window ON summary_nodes (namespace, level, start_ms);
  `,
  // 10: enrichment that failed on a stored memory, kept until a retry succeeds (SQLite's 17).
  `
  CREATE TABLE IF NOT EXISTS enrichment_failures (
    namespace    text NOT NULL DEFAULT 'default',
    memory_rowid bigint NOT NULL,
    step         text NOT NULL,
    reason       text NOT NULL,
    at_ms        bigint NOT NULL,
    attempts     integer NOT NULL DEFAULT 1,
    PRIMARY KEY (namespace, memory_rowid, step),
    FOREIGN KEY (namespace, memory_rowid) REFERENCES memories (namespace, rowid) ON DELETE CASCADE
  );
  CREATE INDEX IF NOT EXISTS enrichment_failures_at ON enrichment_failures (namespace, at_ms);
  `,
];

export const PG_SCHEMA_VERSION = MIGRATIONS.length;

/** The tables a store's rows live in (stats and doctor read their sizes). */
export const TABLES = [
  "meta", "memories", "chunks", "postings", "curated_postings", "terms", "edges", "suggestions", "dirty_windows", "summary_nodes",
  "summary_children", "topics", "entities", "entity_aliases", "mentions", "mention_forms", "memory_fields", "memory_revisions",
  "enrichment_failures",
] as const;

/** A fixed advisory-lock key for migrations ("cascad" in ASCII): one migrating process at a time. */
const MIGRATION_LOCK = 0x636173636164;

/**
 * Applies the migrations this database lacks, one transaction each. Every transaction takes the migration lock
 * first and only then creates the version table (if absent) and reads the version, so processes opening a new
 * database at the same moment never race on either.
 */
export async function migrate(db: Database): Promise<void> {
  for (;;) {
    const done = await db.transaction(async (tx) => {
      await tx.query("SELECT pg_advisory_xact_lock($1)", [MIGRATION_LOCK]);
      await tx.query("CREATE TABLE IF NOT EXISTS cascade_schema_version (version integer PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())");
      const [row] = await tx.query<{ v: number }>("SELECT coalesce(max(version), 0)::int AS v FROM cascade_schema_version");
      if (row.v > PG_SCHEMA_VERSION) {
        throw new Error(`this database has Cascade schema version ${row.v}; this Cascade knows only up to ${PG_SCHEMA_VERSION}: upgrade Cascade`);
      }
      if (row.v === PG_SCHEMA_VERSION) return true;
      // a migration rewrites whole tables (migration 3: every posting), far longer than a query may run
      await tx.query("SET LOCAL statement_timeout = 0");
      let sql = MIGRATIONS[row.v];
      if (sql.includes(VECTOR_TYPE)) sql = sql.replaceAll(VECTOR_TYPE, (await installPgvector(tx)) ? "vector" : "real[]");
      for (const statement of splitStatements(sql)) await tx.query(statement);
      await tx.query("INSERT INTO cascade_schema_version (version) VALUES ($1)", [row.v + 1]);
      return false;
    });
    if (done) return;
  }
}

/** Installs pgvector when the server has it; false when it does not (the store then keeps vectors as `real[]`). */
async function installPgvector(tx: Queryable): Promise<boolean> {
  if ((await tx.query("SELECT 1 FROM pg_available_extensions WHERE name = 'vector'")).length === 0) return false;
  await tx.query("CREATE EXTENSION IF NOT EXISTS vector");
  return true;
}

/** A migration's statements one by one (the extended protocol inside a transaction takes one at a time). */
function splitStatements(sql: string): string[] {
  return sql
    .split(/;\s*\n/)
    .map((s) => s.replace(/^\s*--.*$/gm, "").trim())
    .filter((s) => s.length > 0);
}
