/**
 * @module backends/sqlite/copy-sql
 * The SQLite side of a whole-store copy (ports/copy): each section read in pages by insertion order (rowid),
 * and written back with its ids and times. Memories go through the ordinary insert (insertMemory), so the word
 * indexes, vocabulary, fields and counts are rebuilt exactly as a write builds them; what only a copy carries
 * (revisions, node rows, mentions by entity id, retracted edges, decided suggestions) is written here.
 * Functions over a statement cache; the caller (SqliteStore) owns the transaction and the vector index.
 */
import type Database from "better-sqlite3";
import { CascadeError } from "../../errors.js";
import type { CopyCounts, CopySection, CopySections, StoreCopy, StoredMemory } from "../../ports/copy.js";
import {
  ENGINE_META, paged, toStoredEntity, toStoredMemories, type CopiedChunkRow, type CopiedEntityRow, type CopiedMemoryRow, type CopiedNodeRow, type Page,
} from "../copy-rows.js";
import { toEdge, toSuggestion, type EdgeRow, type SuggestionRow } from "../rows.js";
import type { WindowLevel } from "../../time/windows.js";
import { fromBlob } from "../../vectors/math.js";
import { copyMark, setCopyMark } from "./copy-mark-sql.js";
import { EDGE_SELECT, SUGGESTION_SELECT } from "./graph-sql.js";
import { addToChunkCount, embedderStamp, checkStamp, insertMemory, MEMORY_COLUMNS } from "./memory-sql.js";
import { insertNode, pyramidZone } from "./pyramid-sql.js";
import { creditAllForms } from "./entities-sql.js";

type Prepare = (sql: string) => Database.Statement;
type Reader<S extends CopySection> = (stmt: Prepare, after: number, limit: number) => Page<CopySections[S]>;

function readMemories(stmt: Prepare, after: number, limit: number): Page<StoredMemory> {
  const rows = stmt(
    `SELECT ${MEMORY_COLUMNS}, m.import_key FROM memories m WHERE m.rowid > ? ORDER BY m.rowid LIMIT ?`,
  ).all(after, limit) as CopiedMemoryRow[];
  const owners = JSON.stringify(rows.map((r) => r.rowid));
  const parts = (sql: string) => stmt(sql).all(owners);
  return paged(rows, limit, (list) =>
    toStoredMemories(list, {
      chunks: parts(
        `SELECT memory_rowid AS owner, ord, start, end, indexed_text, terms, context_chars, vector FROM chunks
         WHERE memory_rowid IN (SELECT value FROM json_each(?)) ORDER BY id`,
      ) as (CopiedChunkRow & { vector: Buffer })[],
      vector: (c) => fromBlob(c.vector),
      revisions: parts(
        `SELECT memory_rowid AS owner, recorded_at_ms, previous FROM memory_revisions
         WHERE memory_rowid IN (SELECT value FROM json_each(?)) ORDER BY recorded_at_ms, rowid`,
      ) as { owner: number; recorded_at_ms: number; previous: string }[],
      nodes: parts("SELECT memory_rowid AS owner, level, start_ms, end_ms FROM summary_nodes WHERE memory_rowid IN (SELECT value FROM json_each(?))") as CopiedNodeRow[],
      children: parts(
        `SELECT c.parent_rowid AS owner, m.id FROM summary_children c JOIN memories m ON m.rowid = c.child_rowid
         WHERE c.parent_rowid IN (SELECT value FROM json_each(?)) ORDER BY m.at_ms, m.rowid`,
      ) as { owner: number; id: string }[],
      mentions: parts(
        `SELECT n.memory_rowid AS owner, e.id FROM mentions n JOIN entities e ON e.rowid = n.entity_rowid
         WHERE n.memory_rowid IN (SELECT value FROM json_each(?)) ORDER BY e.rowid`,
      ) as { owner: number; id: string }[],
    }),
  );
}

const READERS: { [S in CopySection]: Reader<S> } = {
  settings: (stmt) => ({
    records: [
      {
        embedder: embedderStamp(stmt),
        zone: pyramidZone(stmt),
        meta: Object.fromEntries(
          (stmt("SELECT key, value FROM meta WHERE key >= ? AND key < ? ORDER BY key").raw().all(ENGINE_META, "engine/") as [string, string][]).map(([k, v]) => [
            k.slice(ENGINE_META.length),
            v,
          ]),
        ),
      },
    ],
    next: null,
  }),
  topics: (stmt, after, limit) =>
    paged(
      stmt("SELECT rowid, path, description, created_at_ms FROM (SELECT row_number() OVER (ORDER BY path) AS rowid, * FROM topics) WHERE rowid > ? ORDER BY rowid LIMIT ?").all(
        after,
        limit,
      ) as { rowid: number; path: string; description: string | null; created_at_ms: number }[],
      limit,
      (rows) => rows.map((t) => ({ path: t.path, description: t.description, createdAt: t.created_at_ms })),
    ),
  entities: (stmt, after, limit) =>
    paged(
      stmt(
        `SELECT e.rowid, e.id, e.key, e.name, e.kind, e.created_at_ms, e.mentioned_by,
           (SELECT json_group_array(a.key) FROM (SELECT key FROM entity_aliases WHERE entity_rowid = e.rowid ORDER BY key) a) AS aliases
         FROM entities e WHERE e.rowid > ? ORDER BY e.rowid LIMIT ?`,
      ).all(after, limit) as CopiedEntityRow[],
      limit,
      (rows) => rows.map(toStoredEntity),
    ),
  memories: readMemories,
  contexts: (stmt, after, limit) =>
    paged(
      stmt(
        `SELECT m.rowid, m.id AS memory, c.id AS contextOf FROM memories m JOIN memories c ON c.rowid = m.context_rowid
         WHERE m.rowid > ? ORDER BY m.rowid LIMIT ?`,
      ).all(after, limit) as { rowid: number; memory: string; contextOf: string }[],
      limit,
      (rows) => rows.map(({ memory, contextOf }) => ({ memory, contextOf })),
    ),
  edges: (stmt, after, limit) => paged(stmt(`${EDGE_SELECT} WHERE e.rowid > ? ORDER BY e.rowid LIMIT ?`).all(after, limit) as (EdgeRow & { rowid: number })[], limit, (rows) => rows.map(toEdge)),
  suggestions: (stmt, after, limit) =>
    paged(
      stmt(`${SUGGESTION_SELECT} WHERE s.rowid > ? ORDER BY s.rowid LIMIT ?`).all(after, limit) as (SuggestionRow & { rowid: number; decided_at_ms: number | null })[],
      limit,
      (rows) => rows.map((s) => ({ ...toSuggestion(s), decidedAt: s.decided_at_ms })),
    ),
  dirtyWindows: (stmt) => ({
    records: stmt("SELECT level, start_ms AS start FROM dirty_windows ORDER BY level, start_ms").all() as { level: WindowLevel; start: number }[],
    next: null,
  }),
};

export function readSection<S extends CopySection>(stmt: Prepare, section: S, page: { after: string | null; limit: number }): Page<CopySections[S]> {
  return READERS[section](stmt, page.after === null ? 0 : Number(page.after), page.limit);
}

type Writer<S extends CopySection> = (stmt: Prepare, records: CopySections[S][]) => { chunkId: number; vector: Float32Array }[];
const none: { chunkId: number; vector: Float32Array }[] = [];

function rowidOrFail(stmt: Prepare, table: "memories" | "entities", id: string, what: string): number {
  const rowid = stmt(`SELECT rowid FROM ${table} WHERE id = ?`).pluck().get(id) as number | undefined;
  if (rowid === undefined) throw new CascadeError("STORE_ERROR", `copy: ${what} names ${id}, which was not copied before it`);
  return rowid;
}

const WRITERS: { [S in CopySection]: Writer<S> } = {
  settings: (stmt, [s]) => {
    if (s.embedder) checkStamp(stmt, s.embedder);
    stmt("INSERT INTO meta (key, value) VALUES ('pyramid_zone', ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value").run(s.zone);
    const put = stmt("INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value");
    for (const [k, v] of Object.entries(s.meta)) put.run(ENGINE_META + k, v);
    return none;
  },
  topics: (stmt, topics) => {
    const insert = stmt("INSERT INTO topics (path, description, created_at_ms) VALUES (?, ?, ?)");
    for (const t of topics) insert.run(t.path, t.description, t.createdAt);
    return none;
  },
  entities: (stmt, entities) => {
    const insert = stmt("INSERT INTO entities (id, key, name, kind, mentioned_by, created_at_ms) VALUES (?, ?, ?, ?, ?, ?)");
    const alias = stmt("INSERT INTO entity_aliases (key, entity_rowid) VALUES (?, ?)");
    for (const e of entities) {
      const rowid = Number(insert.run(e.id, e.key, e.name, e.kind, e.mentionedBy, e.createdAt).lastInsertRowid);
      for (const key of e.aliases) alias.run(key, rowid);
    }
    return none;
  },
  memories: (stmt, memories) => {
    const added: { chunkId: number; vector: Float32Array }[] = [];
    const revision = stmt("INSERT INTO memory_revisions (memory_rowid, recorded_at_ms, previous) VALUES (?, ?, ?)");
    const mention = stmt("INSERT INTO mentions (memory_rowid, entity_rowid) VALUES (?, ?)");
    for (const m of memories) {
      // mentions are written below by entity id, with the counts the entities arrived with, not re-resolved from names
      const { rowid, chunks } = insertMemory(stmt, { memory: m.memory, chunks: m.chunks, importKey: m.importKey });
      added.push(...chunks);
      for (const r of m.revisions) revision.run(rowid, r.recordedAt, JSON.stringify(r.memory));
      if (m.node) insertNode(stmt, rowid, m.node.level, m.node.start, m.node.end, m.node.children.map((c) => rowidOrFail(stmt, "memories", c, `summary ${m.memory.id}`)));
      for (const e of m.mentions) {
        const entity = rowidOrFail(stmt, "entities", e, `memory ${m.memory.id}`);
        mention.run(rowid, entity);
        creditAllForms(stmt, rowid, entity);
      }
    }
    addToChunkCount(stmt, added.length);
    return added;
  },
  contexts: (stmt, links) => {
    const link = stmt("UPDATE memories SET context_rowid = ? WHERE rowid = ?");
    for (const l of links) link.run(rowidOrFail(stmt, "memories", l.contextOf, `memory ${l.memory}`), rowidOrFail(stmt, "memories", l.memory, "a context"));
    return none;
  },
  edges: (stmt, edges) => {
    const insert = stmt(
      `INSERT INTO edges (id, type, from_rowid, to_rowid, valid_from_ms, valid_to_ms, recorded_at_ms, retracted_at_ms, provenance, confidence, reason, statement)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    );
    for (const e of edges) {
      const from = rowidOrFail(stmt, "memories", e.from, `edge ${e.id}`);
      const to = rowidOrFail(stmt, "memories", e.to, `edge ${e.id}`);
      insert.run(e.id, e.type, from, to, e.validFrom, e.validTo, e.recordedAt, e.retractedAt, e.provenance, e.confidence, e.reason, e.statement ?? null);
    }
    return none;
  },
  suggestions: (stmt, suggestions) => {
    const insert = stmt(
      "INSERT INTO suggestions (id, from_rowid, to_rowid, confidence, reason, created_at_ms, status, decided_at_ms) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
    );
    for (const s of suggestions) {
      const from = rowidOrFail(stmt, "memories", s.from, `suggestion ${s.id}`);
      const to = rowidOrFail(stmt, "memories", s.to, `suggestion ${s.id}`);
      insert.run(s.id, from, to, s.confidence, s.reason, s.createdAt, s.status, s.decidedAt);
    }
    return none;
  },
  dirtyWindows: (stmt, windows) => {
    stmt("DELETE FROM dirty_windows").run();
    const insert = stmt("INSERT INTO dirty_windows (level, start_ms) VALUES (?, ?)");
    for (const w of windows) insert.run(w.level, w.start);
    return none;
  },
};

/** Writes one page (inside the caller's transaction); returns the chunks added, for the dense index. */
export function writeSection<S extends CopySection>(stmt: Prepare, section: S, records: CopySections[S][]): { chunkId: number; vector: Float32Array }[] {
  return WRITERS[section](stmt, records);
}

/** See StoreCopy.fingerprint. */
export function copyFingerprint(stmt: Prepare): Record<string, number> {
  return stmt(
    `SELECT (SELECT count(*) FROM memories) - (SELECT count(*) FROM summary_nodes) AS memories, (SELECT count(*) FROM summary_nodes) AS summaries,
       (SELECT ifnull(max(rowid), 0) FROM memories) AS last_memory,
       (SELECT count(*) FROM chunks) AS chunks, (SELECT ifnull(max(rowid), 0) FROM chunks) AS last_chunk,
       (SELECT count(*) FROM memory_revisions) AS revisions, (SELECT ifnull(max(rowid), 0) FROM memory_revisions) AS last_revision,
       (SELECT count(*) FROM edges) AS edges, (SELECT ifnull(max(rowid), 0) FROM edges) AS last_edge,
       (SELECT count(*) FROM edges WHERE valid_to_ms IS NOT NULL) AS ended_edges,
       (SELECT count(*) FROM suggestions) AS suggestions, (SELECT ifnull(max(rowid), 0) FROM suggestions) AS last_suggestion,
       (SELECT count(*) FROM suggestions WHERE status <> 'open') AS decided_suggestions,
       (SELECT count(*) FROM topics) AS topics, (SELECT count(*) FROM entities) AS entities, (SELECT count(*) FROM mentions) AS mentions,
       (SELECT ifnull(CAST(value AS INTEGER), 0) FROM meta WHERE key = 'chunk_generation') AS chunk_generation`,
  ).get() as Record<string, number>;
}

export function copyCounts(stmt: Prepare): CopyCounts {
  return stmt(
    `SELECT (SELECT count(*) FROM memories) - (SELECT count(*) FROM summary_nodes) AS memories, (SELECT count(*) FROM summary_nodes) AS summaries,
       (SELECT count(*) FROM chunks) AS chunks, (SELECT count(*) FROM memory_revisions) AS revisions,
       (SELECT count(*) FROM memories WHERE context_rowid IS NOT NULL) AS contexts, (SELECT count(*) FROM edges) AS edges,
       (SELECT count(*) FROM suggestions) AS suggestions, (SELECT count(*) FROM topics) AS topics, (SELECT count(*) FROM entities) AS entities,
       (SELECT count(*) FROM mentions) AS mentions`,
  ).get() as CopyCounts;
}

/**
 * The copy port as the store (store.ts) hands it out: `chunkWrite` runs a write transaction that adds chunks, and
 * `added` hands the chunks a section wrote to the vector index. A SQLite file holds the one namespace, "default".
 */
export function sqliteStoreCopy(
  stmt: Prepare,
  chunkWrite: <T>(fn: () => T) => T,
  added: (chunks: { chunkId: number; vector: Float32Array }[]) => void,
): StoreCopy {
  return {
    read: async (section, page) => readSection(stmt, section, page),
    write: async (section, records, mark) => {
      const written = chunkWrite(() => {
        const chunks = writeSection(stmt, section, records);
        if (mark !== undefined) setCopyMark(stmt, mark);
        return chunks;
      });
      added(written);
    },
    mark: async () => copyMark(stmt),
    setMark: async (mark) => setCopyMark(stmt, mark),
    counts: async () => copyCounts(stmt),
    fingerprint: async () => copyFingerprint(stmt),
    namespaces: async () => ["default"],
  };
}
