/**
 * @module backends/postgres/copy-sql
 * The PostgreSQL side of a whole-store copy (ports/copy), with the semantics of backends/sqlite/copy-sql.ts:
 * sections read in pages by insertion order (rowid) and written back with their ids and times. Memories go
 * through the ordinary set-based insert (write-sql.ts), so postings, vocabulary, fields and corpus counts are
 * built exactly as a write builds them; revisions, node rows, mentions by entity id, retracted edges and decided
 * suggestions are written here, a statement per kind per page. The caller (PostgresStore) owns the transaction.
 */
import { CascadeError } from "../../errors.js";
import type { CopyCounts, CopySection, CopySections, StoreCopy, StoredMemory } from "../../ports/copy.js";
import type { WindowLevel } from "../../time/windows.js";
import {
  COPY_MARK, ENGINE_META, paged, toStoredEntity, toStoredMemories, type CopiedChunkRow, type CopiedEntityRow, type CopiedMemoryRow, type CopiedNodeRow, type Page,
} from "../copy-rows.js";
import { toEdge, toSuggestion, type EdgeRow, type SuggestionRow } from "../rows.js";
import type { Queryable } from "./connection.js";
import { EDGE_SELECT, SUGGESTION_SELECT } from "./graph-sql.js";
import { addCounts } from "./index-sql.js";
import { checkStamp, embedderStamp, MEMORY_COLUMNS } from "./memory-sql.js";
import { creditAllForms } from "./entities-sql.js";
import { insertNode, pyramidZone } from "./pyramid-sql.js";
import { parseVector } from "./vector-sql.js";
import { insertMemories } from "./write-sql.js";

type Reader<S extends CopySection> = (q: Queryable, ns: string, after: number, limit: number) => Promise<Page<CopySections[S]>>;

async function readMemories(q: Queryable, ns: string, after: number, limit: number): Promise<Page<StoredMemory>> {
  const rows = await q.query<CopiedMemoryRow>(
    `SELECT ${MEMORY_COLUMNS}, m.import_key FROM memories m WHERE m.namespace = $1 AND m.rowid > $2 ORDER BY m.rowid LIMIT $3`,
    [ns, after, limit],
  );
  const owners = rows.map((r) => r.rowid);
  const parts = <T>(sql: string) => q.query<T>(sql, [ns, owners]);
  const chunks = await parts<CopiedChunkRow & { vector: string }>(
    `SELECT memory_rowid AS owner, ord, start, "end", indexed_text, terms, context_chars, vector::text AS vector FROM chunks
     WHERE namespace = $1 AND memory_rowid = ANY($2::bigint[]) ORDER BY id`,
  );
  const revisions = await parts<{ owner: number; recorded_at_ms: number; previous: string }>(
    `SELECT memory_rowid AS owner, recorded_at_ms, previous FROM memory_revisions
     WHERE namespace = $1 AND memory_rowid = ANY($2::bigint[]) ORDER BY recorded_at_ms, rowid`,
  );
  const nodes = await parts<CopiedNodeRow>("SELECT memory_rowid AS owner, level, start_ms, end_ms FROM summary_nodes WHERE namespace = $1 AND memory_rowid = ANY($2::bigint[])");
  const children = await parts<{ owner: number; id: string }>(
    `SELECT c.parent_rowid AS owner, m.id FROM summary_children c JOIN memories m ON m.namespace = c.namespace AND m.rowid = c.child_rowid
     WHERE c.namespace = $1 AND c.parent_rowid = ANY($2::bigint[]) ORDER BY m.at_ms, m.rowid`,
  );
  const mentions = await parts<{ owner: number; id: string }>(
    `SELECT n.memory_rowid AS owner, e.id FROM mentions n JOIN entities e ON e.namespace = n.namespace AND e.rowid = n.entity_rowid
     WHERE n.namespace = $1 AND n.memory_rowid = ANY($2::bigint[]) ORDER BY e.rowid`,
  );
  return paged(rows, limit, (list) => toStoredMemories(list, { chunks, vector: (c) => parseVector(c.vector), revisions, nodes, children, mentions }));
}

const READERS: { [S in CopySection]: Reader<S> } = {
  settings: async (q, ns) => {
    const meta = await q.query<{ key: string; value: string }>(`SELECT key, value FROM meta WHERE namespace = $1 AND starts_with(key, $2) ORDER BY key`, [ns, ENGINE_META]);
    return {
      records: [
        {
          embedder: await embedderStamp(q, ns),
          zone: await pyramidZone(q, ns),
          meta: Object.fromEntries(meta.map((r) => [r.key.slice(ENGINE_META.length), r.value])),
        },
      ],
      next: null,
    };
  },
  topics: async (q, ns, after, limit) =>
    paged(
      await q.query<{ rowid: number; path: string; description: string | null; created_at_ms: number }>(
        `SELECT * FROM (SELECT row_number() OVER (ORDER BY path::text COLLATE "C") AS rowid, path::text AS path, description, created_at_ms
                        FROM topics WHERE namespace = $1) t
         WHERE rowid > $2 ORDER BY rowid LIMIT $3`,
        [ns, after, limit],
      ),
      limit,
      (rows) => rows.map((t) => ({ path: t.path, description: t.description, createdAt: t.created_at_ms })),
    ),
  entities: async (q, ns, after, limit) =>
    paged(
      await q.query<CopiedEntityRow>(
        `SELECT e.rowid, e.id, e.key, e.name, e.kind, e.created_at_ms, e.mentioned_by,
           ARRAY(SELECT a.key FROM entity_aliases a WHERE a.namespace = $1 AND a.entity_rowid = e.rowid ORDER BY a.key) AS aliases
         FROM entities e WHERE e.namespace = $1 AND e.rowid > $2 ORDER BY e.rowid LIMIT $3`,
        [ns, after, limit],
      ),
      limit,
      (rows) => rows.map(toStoredEntity),
    ),
  memories: readMemories,
  contexts: async (q, ns, after, limit) =>
    paged(
      await q.query<{ rowid: number; memory: string; context_of: string }>(
        `SELECT m.rowid, m.id AS memory, c.id AS context_of FROM memories m JOIN memories c ON c.namespace = m.namespace AND c.rowid = m.context_rowid
         WHERE m.namespace = $1 AND m.rowid > $2 ORDER BY m.rowid LIMIT $3`,
        [ns, after, limit],
      ),
      limit,
      (rows) => rows.map((r) => ({ memory: r.memory, contextOf: r.context_of })),
    ),
  edges: async (q, ns, after, limit) =>
    paged(await q.query<EdgeRow & { rowid: number }>(`${EDGE_SELECT} WHERE e.namespace = $1 AND e.rowid > $2 ORDER BY e.rowid LIMIT $3`, [ns, after, limit]), limit, (rows) =>
      rows.map(toEdge),
    ),
  suggestions: async (q, ns, after, limit) =>
    paged(
      await q.query<SuggestionRow & { rowid: number; decided_at_ms: number | null }>(
        `${SUGGESTION_SELECT} WHERE s.namespace = $1 AND s.rowid > $2 ORDER BY s.rowid LIMIT $3`,
        [ns, after, limit],
      ),
      limit,
      (rows) => rows.map((s) => ({ ...toSuggestion(s), decidedAt: s.decided_at_ms })),
    ),
  dirtyWindows: async (q, ns) => ({
    records: await q.query<{ level: WindowLevel; start: number }>("SELECT level, start_ms AS start FROM dirty_windows WHERE namespace = $1 ORDER BY level, start_ms", [ns]),
    next: null,
  }),
};

export function readSection<S extends CopySection>(q: Queryable, ns: string, section: S, page: { after: string | null; limit: number }): Promise<Page<CopySections[S]>> {
  return READERS[section](q, ns, page.after === null ? 0 : Number(page.after), page.limit);
}

/** Row ids of memories (or entities) by id; a name the copy has not written yet fails the page. */
async function rowids(q: Queryable, ns: string, table: "memories" | "entities", ids: string[], what: string): Promise<Map<string, number>> {
  const rows = await q.query<{ id: string; rowid: number }>(`SELECT id, rowid FROM ${table} WHERE namespace = $1 AND id = ANY($2::text[])`, [ns, [...new Set(ids)]]);
  const out = new Map(rows.map((r) => [r.id, r.rowid]));
  const missing = ids.find((id) => !out.has(id));
  if (missing !== undefined) throw new CascadeError("STORE_ERROR", `copy: ${what} names ${missing}, which was not copied before it`);
  return out;
}

/** Writes one page (inside the caller's transaction); returns the number of chunks it added. */
type Writer<S extends CopySection> = (q: Queryable, ns: string, records: CopySections[S][]) => Promise<number>;

const WRITERS: { [S in CopySection]: Writer<S> } = {
  settings: async (q, ns, [s]) => {
    if (s.embedder) await checkStamp(q, ns, s.embedder);
    const entries: [string, string][] = [["pyramid_zone", s.zone], ...Object.entries(s.meta).map(([k, v]): [string, string] => [ENGINE_META + k, v])];
    await q.query(
      `INSERT INTO meta (namespace, key, value) SELECT $1, k, v FROM unnest($2::text[], $3::text[]) AS t (k, v)
       ON CONFLICT (namespace, key) DO UPDATE SET value = excluded.value`,
      [ns, entries.map((e) => e[0]), entries.map((e) => e[1])],
    );
    return 0;
  },
  topics: async (q, ns, topics) => {
    await q.query(
      "INSERT INTO topics (namespace, path, description, created_at_ms) SELECT $1, p::ltree, d, c FROM unnest($2::text[], $3::text[], $4::bigint[]) AS t (p, d, c)",
      [ns, topics.map((t) => t.path), topics.map((t) => t.description), topics.map((t) => t.createdAt)],
    );
    return 0;
  },
  entities: async (q, ns, entities) => {
    await q.query(
      `INSERT INTO entities (namespace, id, key, name, kind, mentioned_by, created_at_ms)
       SELECT $1, id, key, name, kind, n, c FROM unnest($2::text[], $3::text[], $4::text[], $5::text[], $6::int[], $7::bigint[]) WITH ORDINALITY AS t (id, key, name, kind, n, c, i)
       ORDER BY i`,
      [ns, entities.map((e) => e.id), entities.map((e) => e.key), entities.map((e) => e.name), entities.map((e) => e.kind), entities.map((e) => e.mentionedBy), entities.map((e) => e.createdAt)],
    );
    const aliases = entities.flatMap((e) => e.aliases.map((key) => [key, e.id]));
    await q.query(
      `INSERT INTO entity_aliases (namespace, key, entity_rowid)
       SELECT $1, a.key, e.rowid FROM unnest($2::text[], $3::text[]) AS a (key, entity) JOIN entities e ON e.namespace = $1 AND e.id = a.entity`,
      [ns, aliases.map((a) => a[0]), aliases.map((a) => a[1])],
    );
    return 0;
  },
  memories: async (q, ns, memories) => {
    // mentions are written below by entity id, with the counts the entities arrived with, not re-resolved from names
    const { rowids: written, chunks } = await insertMemories(q, ns, memories.map((m) => ({ memory: m.memory, chunks: m.chunks, importKey: m.importKey })));
    await addCounts(q, ns, { chunk_count: chunks });
    const revisions = memories.flatMap((m, i) => m.revisions.map((r) => ({ rowid: written[i], at: r.recordedAt, previous: JSON.stringify(r.memory) })));
    await q.query(
      `INSERT INTO memory_revisions (namespace, memory_rowid, recorded_at_ms, previous)
       SELECT $1, m, a, p FROM unnest($2::bigint[], $3::bigint[], $4::text[]) WITH ORDINALITY AS t (m, a, p, i) ORDER BY i`,
      [ns, revisions.map((r) => r.rowid), revisions.map((r) => r.at), revisions.map((r) => r.previous)],
    );
    const children = await rowids(q, ns, "memories", memories.flatMap((m) => m.node?.children ?? []), "a summary");
    for (const [i, m] of memories.entries()) if (m.node) await insertNode(q, ns, written[i], m.node.level, m.node.start, m.node.end, m.node.children.map((c) => children.get(c)!));
    const entities = await rowids(q, ns, "entities", memories.flatMap((m) => m.mentions), "a memory");
    const mentions = memories.flatMap((m, i) => m.mentions.map((e) => [written[i], entities.get(e)!]));
    await q.query("INSERT INTO mentions (namespace, memory_rowid, entity_rowid) SELECT $1, m, e FROM unnest($2::bigint[], $3::bigint[]) AS t (m, e)", [
      ns, mentions.map((x) => x[0]), mentions.map((x) => x[1]),
    ]);
    await creditAllForms(q, ns, mentions.map(([memory, entity]) => ({ memory, entity })));
    return chunks;
  },
  contexts: async (q, ns, links) => {
    const rows = await rowids(q, ns, "memories", links.flatMap((l) => [l.memory, l.contextOf]), "a context");
    await q.query("UPDATE memories m SET context_rowid = x.c FROM unnest($2::bigint[], $3::bigint[]) AS x (m, c) WHERE m.namespace = $1 AND m.rowid = x.m", [
      ns, links.map((l) => rows.get(l.memory)), links.map((l) => rows.get(l.contextOf)),
    ]);
    return 0;
  },
  edges: async (q, ns, edges) => {
    const ends = await rowids(q, ns, "memories", edges.flatMap((e) => [e.from, e.to]), "an edge");
    await q.query(
      `INSERT INTO edges (namespace, id, type, from_rowid, to_rowid, valid_from_ms, valid_to_ms, recorded_at_ms, retracted_at_ms, provenance, confidence, reason, statement)
       SELECT $1, id, type, f, t, vf, vt, ra, rt, p, c, r, st
       FROM unnest($2::text[], $3::text[], $4::bigint[], $5::bigint[], $6::bigint[], $7::bigint[], $8::bigint[], $9::bigint[], $10::text[], $11::float8[], $12::text[], $13::text[])
         WITH ORDINALITY AS x (id, type, f, t, vf, vt, ra, rt, p, c, r, st, i)
       ORDER BY i`,
      [
        ns, edges.map((e) => e.id), edges.map((e) => e.type), edges.map((e) => ends.get(e.from)), edges.map((e) => ends.get(e.to)), edges.map((e) => e.validFrom),
        edges.map((e) => e.validTo), edges.map((e) => e.recordedAt), edges.map((e) => e.retractedAt), edges.map((e) => e.provenance), edges.map((e) => e.confidence),
        edges.map((e) => e.reason), edges.map((e) => e.statement ?? null),
      ],
    );
    return 0;
  },
  suggestions: async (q, ns, suggestions) => {
    const ends = await rowids(q, ns, "memories", suggestions.flatMap((s) => [s.from, s.to]), "a suggestion");
    await q.query(
      `INSERT INTO suggestions (namespace, id, from_rowid, to_rowid, confidence, reason, created_at_ms, status, decided_at_ms)
       SELECT $1, id, f, t, c, r, a, s, d
       FROM unnest($2::text[], $3::bigint[], $4::bigint[], $5::float8[], $6::text[], $7::bigint[], $8::text[], $9::bigint[]) WITH ORDINALITY AS x (id, f, t, c, r, a, s, d, i)
       ORDER BY i`,
      [
        ns, suggestions.map((s) => s.id), suggestions.map((s) => ends.get(s.from)), suggestions.map((s) => ends.get(s.to)), suggestions.map((s) => s.confidence),
        suggestions.map((s) => s.reason), suggestions.map((s) => s.createdAt), suggestions.map((s) => s.status), suggestions.map((s) => s.decidedAt),
      ],
    );
    return 0;
  },
  dirtyWindows: async (q, ns, windows) => {
    await q.query("DELETE FROM dirty_windows WHERE namespace = $1", [ns]);
    await q.query("INSERT INTO dirty_windows (namespace, level, start_ms) SELECT $1, l, s FROM unnest($2::text[], $3::bigint[]) AS w (l, s)", [
      ns, windows.map((w) => w.level), windows.map((w) => w.start),
    ]);
    return 0;
  },
};

export function writeSection<S extends CopySection>(q: Queryable, ns: string, section: S, records: CopySections[S][]): Promise<number> {
  return WRITERS[section](q, ns, records);
}

/** The namespace's copy mark (ports/copy), or null. */
export async function copyMark(q: Queryable, ns: string): Promise<string | null> {
  const [row] = await q.query<{ value: string }>("SELECT value FROM meta WHERE namespace = $1 AND key = $2", [ns, COPY_MARK]);
  return row?.value ?? null;
}

/** Sets the namespace's copy mark, or removes it (null); in the transaction `q` is, when it is one. */
export async function setCopyMark(q: Queryable, ns: string, mark: string | null): Promise<void> {
  if (mark === null) await q.query("DELETE FROM meta WHERE namespace = $1 AND key = $2", [ns, COPY_MARK]);
  else await q.query("INSERT INTO meta (namespace, key, value) VALUES ($1, $2, $3) ON CONFLICT (namespace, key) DO UPDATE SET value = excluded.value", [ns, COPY_MARK, mark]);
}

/** See StoreCopy.fingerprint. */
export async function copyFingerprint(q: Queryable, ns: string): Promise<Record<string, number>> {
  const [row] = await q.query<Record<string, number>>(
    `SELECT (SELECT count(*) FROM memories WHERE namespace = $1)::float8 - (SELECT count(*) FROM summary_nodes WHERE namespace = $1)::float8 AS memories,
       (SELECT count(*) FROM summary_nodes WHERE namespace = $1)::float8 AS summaries, (SELECT coalesce(max(rowid), 0) FROM memories WHERE namespace = $1)::float8 AS last_memory,
       (SELECT count(*) FROM chunks WHERE namespace = $1)::float8 AS chunks, (SELECT coalesce(max(id), 0) FROM chunks WHERE namespace = $1)::float8 AS last_chunk,
       (SELECT count(*) FROM memory_revisions WHERE namespace = $1)::float8 AS revisions, (SELECT coalesce(max(rowid), 0) FROM memory_revisions WHERE namespace = $1)::float8 AS last_revision,
       (SELECT count(*) FROM edges WHERE namespace = $1)::float8 AS edges, (SELECT coalesce(max(rowid), 0) FROM edges WHERE namespace = $1)::float8 AS last_edge,
       (SELECT count(*) FROM edges WHERE namespace = $1 AND valid_to_ms IS NOT NULL)::float8 AS ended_edges,
       (SELECT count(*) FROM suggestions WHERE namespace = $1)::float8 AS suggestions, (SELECT coalesce(max(rowid), 0) FROM suggestions WHERE namespace = $1)::float8 AS last_suggestion,
       (SELECT count(*) FROM suggestions WHERE namespace = $1 AND status <> 'open')::float8 AS decided_suggestions,
       (SELECT count(*) FROM topics WHERE namespace = $1)::float8 AS topics, (SELECT count(*) FROM entities WHERE namespace = $1)::float8 AS entities,
       (SELECT count(*) FROM mentions WHERE namespace = $1)::float8 AS mentions`,
    [ns],
  );
  return row;
}

export async function copyCounts(q: Queryable, ns: string): Promise<CopyCounts> {
  const [row] = await q.query<CopyCounts>(
    `SELECT (SELECT count(*) FROM memories WHERE namespace = $1)::int - (SELECT count(*) FROM summary_nodes WHERE namespace = $1)::int AS memories,
       (SELECT count(*) FROM summary_nodes WHERE namespace = $1)::int AS summaries, (SELECT count(*) FROM chunks WHERE namespace = $1)::int AS chunks,
       (SELECT count(*) FROM memory_revisions WHERE namespace = $1)::int AS revisions,
       (SELECT count(*) FROM memories WHERE namespace = $1 AND context_rowid IS NOT NULL)::int AS contexts, (SELECT count(*) FROM edges WHERE namespace = $1)::int AS edges,
       (SELECT count(*) FROM suggestions WHERE namespace = $1)::int AS suggestions, (SELECT count(*) FROM topics WHERE namespace = $1)::int AS topics,
       (SELECT count(*) FROM entities WHERE namespace = $1)::int AS entities, (SELECT count(*) FROM mentions WHERE namespace = $1)::int AS mentions`,
    [ns],
  );
  return row;
}

/** Every namespace the tables hold: those written to (an embedder stamp or engine meta) or holding topics. */
export async function namespaces(q: Queryable): Promise<string[]> {
  const rows = await q.query<{ namespace: string }>(`SELECT namespace FROM meta UNION SELECT namespace FROM topics ORDER BY 1`);
  return rows.map((r) => r.namespace);
}

/**
 * The copy port over one namespace, as the store (store.ts) hands it out: `write` runs a transaction under the
 * namespace's write lock, and `wrote` counts the chunks a section wrote towards the planner statistics.
 */
export function postgresStoreCopy(
  db: Queryable,
  ns: string,
  write: <T>(fn: (tx: Queryable) => Promise<T>) => Promise<T>,
  wrote: (chunks: number) => Promise<void>,
): StoreCopy {
  return {
    read: (section, page) => readSection(db, ns, section, page),
    write: async (section, records, mark) => {
      await wrote(
        await write(async (tx) => {
          const chunks = await writeSection(tx, ns, section, records);
          if (mark !== undefined) await setCopyMark(tx, ns, mark);
          return chunks;
        }),
      );
    },
    mark: () => copyMark(db, ns),
    setMark: (mark) => setCopyMark(db, ns, mark),
    counts: () => copyCounts(db, ns),
    fingerprint: () => copyFingerprint(db, ns),
    namespaces: () => namespaces(db),
  };
}
