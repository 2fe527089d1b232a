/**
 * @module backends/postgres/memory-sql
 * Memory rows for the PostgreSQL store, with the semantics of backends/sqlite/memory-sql.ts: the embedder
 * stamp, corrections, taking a memory out of every index, and reading memories back (writing them is
 * write-sql.ts). Functions over a Queryable and the store's namespace ($1 in every statement); the caller
 * (PostgresStore) owns the transactions.
 */
import { CascadeError } from "../../errors.js";
import type { Memory, PreparedMemory, TurnContext } from "../../model/types.js";
import type { Scope } from "../../model/scope.js";
import type { EmbedderStamp, HydratedChunk, SessionNeighbours } from "../../ports/store.js";
import { toMemory, type MemoryRow } from "../rows.js";
import { distinctContentWords } from "../../text/tokenize.js";
import { analyze } from "./analyze.js";
import type { Queryable } from "./connection.js";
import { dropUnusedForms, removeMentions } from "./entities-sql.js";
import { addCounts, countTerms, deletePostings, insertPostings, postingsOf } from "./index-sql.js";
import { markDirty } from "./pyramid-sql.js";
import { insertContent } from "./write-sql.js";

export { toMemory, type MemoryRow };

export const MEMORY_COLUMNS = `m.rowid, m.id, m.kind, m.text, m.title, m.description, m.tags, m.topic::text AS topic, m.role, m.speaker,
  m.session, m.user_id, m.agent_id, m.at, m.recorded_at, m.expires_at_ms, m.metadata,
  (SELECT count(*) FROM chunks k WHERE k.namespace = $1 AND k.memory_rowid = m.rowid)::int AS chunks`;

export async function embedderStamp(q: Queryable, ns: string): Promise<EmbedderStamp | null> {
  const [row] = await q.query<{ value: string }>("SELECT value FROM meta WHERE namespace = $1 AND key = 'embedder'", [ns]);
  return row ? (JSON.parse(row.value) as EmbedderStamp) : null;
}

/** Stamps a new store with the embedder, or refuses vectors from another one (inside a transaction). */
export async function checkStamp(q: Queryable, ns: string, stamp: EmbedderStamp): Promise<void> {
  const have = await embedderStamp(q, ns);
  if (!have) {
    await q.query("INSERT INTO meta (namespace, key, value) VALUES ($1, 'embedder', $2)", [ns, JSON.stringify(stamp)]);
  } else if (have.id !== stamp.id || have.dimensions !== stamp.dimensions) {
    throw new CascadeError(
      "EMBEDDER_MISMATCH",
      `this store was built with embedder ${have.id} (${have.dimensions}-d) and cannot take vectors from ${stamp.id} ` +
        `(${stamp.dimensions}-d); open it with the same embedder, or move it with \`cascade reembed --embedder SPEC\``,
      { field: "embedder" },
    );
  }
}

/**
 * Takes a memory's content out of every index (postings, words, curated text, mentions, counts); the rows stay.
 * Returns its chunk ids, and the entities it mentioned that others still mention (as the SQLite store).
 */
async function removeContent(q: Queryable, ns: string, rowid: number): Promise<{ chunkIds: number[]; entities: number[] }> {
  const chunks = await q.query<{ id: number; terms: string; length: number }>(
    "SELECT id, terms, length FROM chunks WHERE namespace = $1 AND memory_rowid = $2 ORDER BY ord",
    [ns, rowid],
  );
  await deletePostings(q, ns, chunks.map((c) => c.id));
  await countTerms(q, ns, chunks.flatMap((c) => c.terms.split(" ").filter(Boolean)), -1);
  const [cur] = await q.query<{ curated: boolean; curated_len: number }>("SELECT curated, curated_len FROM memories WHERE namespace = $1 AND rowid = $2", [ns, rowid]);
  await q.query("UPDATE memories SET curated = false, curated_len = 0 WHERE namespace = $1 AND rowid = $2", [ns, rowid]);
  await q.query("DELETE FROM curated_postings WHERE namespace = $1 AND memory_rowid = $2", [ns, rowid]);
  await addCounts(q, ns, {
    body_tokens: -chunks.reduce((n, c) => n + c.length, 0),
    curated_rows: cur?.curated ? -1 : 0,
    curated_tokens: cur?.curated ? -cur.curated_len : 0,
  });
  const entities = await removeMentions(q, ns, rowid);
  return { chunkIds: chunks.map((c) => c.id), entities };
}

/**
 * A correction: the memory keeps its id, its edges and its place in time; its previous content is kept in
 * memory_revisions with the time Cascade learned the correction; the indexes hold only the new content.
 */
export async function reviseMemoryRow(q: Queryable, ns: string, next: PreparedMemory, recordedAt: number): Promise<void> {
  const m = next.memory;
  const rowid = await memoryRowid(q, ns, m.id);
  if (rowid === undefined) throw new CascadeError("NOT_FOUND", `no memory with id ${JSON.stringify(m.id)}`, { field: "id" });
  const before = (await getMemory(q, ns, m.id))!;
  await q.query("INSERT INTO memory_revisions (namespace, memory_rowid, recorded_at_ms, previous) VALUES ($1, $2, $3, $4)", [ns, rowid, recordedAt, JSON.stringify(before)]);
  await markDirty(q, ns, [rowid]);
  const { chunkIds: removed, entities } = await removeContent(q, ns, rowid);
  await q.query("DELETE FROM chunks WHERE namespace = $1 AND memory_rowid = $2", [ns, rowid]);
  await q.query("DELETE FROM memory_fields WHERE namespace = $1 AND memory_rowid = $2", [ns, rowid]);
  await q.query(
    `UPDATE memories SET text = $3, title = $4, description = $5, tags = $6, topic = $7::ltree, expires_at_ms = $8, metadata = $9
     WHERE namespace = $1 AND rowid = $2`,
    [ns, rowid, m.text, m.title, m.description, JSON.stringify(m.tags), m.topic, m.expires === null ? null : Date.parse(m.expires), JSON.stringify(m.metadata)],
  );
  const added = await insertContent(q, ns, [{ rowid, prepared: next }]);
  await dropUnusedForms(q, ns, entities); // after the new content: a name it still uses is not dropped in between
  await addCounts(q, ns, { chunk_count: added.length - removed.length });
}

/** What a memory said before each correction, oldest first. */
export async function revisionsOf(q: Queryable, ns: string, id: string): Promise<{ recordedAt: number; memory: Memory }[]> {
  const rows = await q.query<{ at: number; previous: string }>(
    `SELECT r.recorded_at_ms AS at, r.previous FROM memory_revisions r JOIN memories m ON m.namespace = r.namespace AND m.rowid = r.memory_rowid
     WHERE r.namespace = $1 AND m.id = $2 ORDER BY r.recorded_at_ms, r.rowid`,
    [ns, id],
  );
  return rows.map((r) => ({ recordedAt: r.at, memory: JSON.parse(r.previous) as Memory }));
}

export async function getMemory(q: Queryable, ns: string, id: string): Promise<Memory | null> {
  const [row] = await q.query<MemoryRow>(`SELECT ${MEMORY_COLUMNS} FROM memories m WHERE m.namespace = $1 AND m.id = $2`, [ns, id]);
  return row ? toMemory(row) : null;
}

/** The memories of these ids that exist, by id, in one statement. */
export async function getMemories(q: Queryable, ns: string, ids: string[]): Promise<Map<string, Memory>> {
  if (ids.length === 0) return new Map();
  const rows = await q.query<MemoryRow>(`SELECT ${MEMORY_COLUMNS} FROM memories m WHERE m.namespace = $1 AND m.id = ANY($2::text[])`, [ns, [...new Set(ids)]]);
  return new Map(rows.map((r) => [r.id, toMemory(r)]));
}

/** Memories by row id, in the order given. */
export async function memoriesByRowids(q: Queryable, ns: string, rowids: number[]): Promise<Memory[]> {
  const rows = await q.query<MemoryRow>(`SELECT ${MEMORY_COLUMNS} FROM memories m WHERE m.namespace = $1 AND m.rowid = ANY($2::bigint[])`, [ns, rowids]);
  const byRowid = new Map(rows.map((r) => [r.rowid, r]));
  return rowids.flatMap((r) => (byRowid.has(r) ? [toMemory(byRowid.get(r)!)] : []));
}

export async function memoryRowid(q: Queryable, ns: string, id: string): Promise<number | undefined> {
  const [row] = await q.query<{ rowid: number }>("SELECT rowid FROM memories WHERE namespace = $1 AND id = $2", [ns, id]);
  return row?.rowid;
}

/** Takes a forgotten memory's words out of the index of the turns that carried it as context. */
export async function stripContextOf(q: Queryable, ns: string, rowid: number): Promise<void> {
  const dependents = await q.query<{ rowid: number }>("SELECT rowid FROM memories WHERE namespace = $1 AND context_rowid = $2", [ns, rowid]);
  for (const { rowid: dep } of dependents) {
    const [c] = await q.query<{ id: number; indexed_text: string; terms: string; context_chars: number; length: number }>(
      "SELECT id, indexed_text, terms, context_chars, length FROM chunks WHERE namespace = $1 AND memory_rowid = $2 AND ord = 0",
      [ns, dep],
    );
    if (c && c.context_chars > 0) {
      const text = c.indexed_text.slice(0, c.indexed_text.length - c.context_chars);
      const terms = distinctContentWords(text);
      const kept = new Set(terms);
      const postings = postingsOf(analyze(text));
      await deletePostings(q, ns, [c.id]);
      await insertPostings(q, ns, [{ ...postings, chunkId: c.id }]);
      await countTerms(q, ns, c.terms.split(" ").filter((t) => t && !kept.has(t)), -1);
      await q.query("UPDATE chunks SET indexed_text = $3, terms = $4, context_chars = 0, length = $5, keys = $6 WHERE namespace = $1 AND id = $2", [
        ns, c.id, text, terms.join(" "), postings.length, postings.keys,
      ]);
      await addCounts(q, ns, { body_tokens: postings.length - c.length });
    }
    await q.query("UPDATE memories SET context_rowid = NULL WHERE namespace = $1 AND rowid = $2", [ns, dep]);
  }
}

export async function previousInSession(q: Queryable, ns: string, session: string, at: string, scope: Scope): Promise<TurnContext | null> {
  const [row] = await q.query<TurnContext>(
    `SELECT id, speaker, text FROM memories WHERE namespace = $1 AND session = $2 AND at_ms < $3 AND kind <> 'summary'
       AND user_id IS NOT DISTINCT FROM $4::text AND agent_id IS NOT DISTINCT FROM $5::text
     ORDER BY at_ms DESC, rowid DESC LIMIT 1`,
    [ns, session, Date.parse(at), scope.user, scope.agent],
  );
  return row ?? null;
}

/** Removes one memory from the tables and every index (inside a transaction); returns its chunk ids. */
export async function removeMemoryRow(q: Queryable, ns: string, rowid: number, id: string): Promise<number[]> {
  const { chunkIds, entities } = await removeContent(q, ns, rowid);
  // a summary's links to its children, or a memory's to the summaries over it (no foreign key: schema.ts, migration 7)
  await q.query("DELETE FROM summary_children WHERE namespace = $1 AND (parent_rowid = $2 OR child_rowid = $2)", [ns, rowid]);
  const deleted = await q.query("DELETE FROM memories WHERE namespace = $1 AND rowid = $2 RETURNING rowid", [ns, rowid]); // chunks and nodes cascade
  if (deleted.length !== 1) throw new CascadeError("STORE_ERROR", `forget ${id}: the memory row was not deleted`);
  await dropUnusedForms(q, ns, entities);
  await addCounts(q, ns, { chunk_count: -chunkIds.length });
  return chunkIds;
}

export async function hydrate(q: Queryable, ns: string, chunkIds: number[]): Promise<Map<number, HydratedChunk>> {
  const rows = await q.query<MemoryRow & { chunk_id: number; ord: number; start: number; end: number }>(
    `SELECT c.id AS chunk_id, c.ord, c.start, c."end", ${MEMORY_COLUMNS}
     FROM chunks c JOIN memories m ON m.namespace = c.namespace AND m.rowid = c.memory_rowid
     WHERE c.namespace = $1 AND c.id = ANY($2::bigint[])`,
    [ns, chunkIds],
  );
  const out = new Map<number, HydratedChunk>();
  for (const r of rows) {
    const memory = toMemory(r);
    out.set(r.chunk_id, { chunkId: r.chunk_id, ord: r.ord, start: r.start, end: r.end, text: memory.text.slice(r.start, r.end), memory });
  }
  return out;
}

/** The memory id owning each chunk. */
export async function ownersOf(q: Queryable, ns: string, chunkIds: number[]): Promise<Map<number, string>> {
  if (chunkIds.length === 0) return new Map();
  const rows = await q.query<{ chunk: number; id: string }>(
    `SELECT c.id AS chunk, m.id FROM chunks c JOIN memories m ON m.namespace = c.namespace AND m.rowid = c.memory_rowid
     WHERE c.namespace = $1 AND c.id = ANY($2::bigint[])`,
    [ns, chunkIds],
  );
  return new Map(rows.map((r) => [r.chunk, r.id]));
}

export async function sessionNeighbours(q: Queryable, ns: string, memoryIds: string[], window: number): Promise<Map<string, SessionNeighbours>> {
  // each side is a short walk along memories_session (namespace, session, at_ms), over the same scope's memories
  const side = (cmp: "<" | ">", order: "DESC" | "ASC") =>
    `ARRAY(SELECT p.id FROM memories p WHERE p.namespace = $1 AND p.session = m.session AND p.kind <> 'summary'
        AND p.user_id IS NOT DISTINCT FROM m.user_id AND p.agent_id IS NOT DISTINCT FROM m.agent_id AND (p.at_ms, p.rowid) ${cmp} (m.at_ms, m.rowid) ORDER BY p.at_ms ${order}, p.rowid ${order} LIMIT $3)`;
  const rows = await q.query<{ id: string; session: string; before: string[]; after: string[] }>(
    `SELECT m.id, m.session, ${side("<", "DESC")} AS before, ${side(">", "ASC")} AS after
     FROM memories m WHERE m.namespace = $1 AND m.id = ANY($2::text[]) AND m.session IS NOT NULL AND m.kind <> 'summary'`,
    [ns, memoryIds, window],
  );
  return new Map(rows.map((r) => [r.id, { session: r.session, before: r.before, after: r.after }]));
}

export async function speakersOf(q: Queryable, ns: string, memoryIds: string[]): Promise<Map<string, string>> {
  const rows = await q.query<{ id: string; speaker: string }>(
    "SELECT id, COALESCE(speaker, role) AS speaker FROM memories WHERE namespace = $1 AND id = ANY($2::text[]) AND COALESCE(speaker, role) IS NOT NULL",
    [ns, memoryIds],
  );
  return new Map(rows.map((r) => [r.id, r.speaker]));
}

export async function eventTimes(q: Queryable, ns: string, memoryIds: string[]): Promise<Map<string, number>> {
  const rows = await q.query<{ id: string; at_ms: number }>("SELECT id, at_ms FROM memories WHERE namespace = $1 AND id = ANY($2::text[])", [ns, memoryIds]);
  return new Map(rows.map((r) => [r.id, r.at_ms]));
}

export async function firstChunkIds(q: Queryable, ns: string, memoryIds: string[]): Promise<Map<string, number>> {
  const rows = await q.query<{ id: string; chunk: number | null }>(
    `SELECT m.id, (SELECT c.id FROM chunks c WHERE c.namespace = $1 AND c.memory_rowid = m.rowid ORDER BY c.ord LIMIT 1) AS chunk
     FROM memories m WHERE m.namespace = $1 AND m.id = ANY($2::text[])`,
    [ns, memoryIds],
  );
  // SQLite's map holds a null for a memory without chunks too; keep the same shape
  return new Map(rows.map((r) => [r.id, r.chunk as number]));
}
