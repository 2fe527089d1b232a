/**
 * @module backends/postgres/memory-sql
 * Memory rows for the PostgreSQL store, with the semantics of backends/sqlite/memory-sql.ts: writing a memory
 * with its chunks, postings and vocabulary counts; taking it out of every index; reading memories back; the
 * kept corpus counts. Functions over a Queryable and the store's namespace ($1 in every statement); the caller
 * (PostgresStore) owns the transactions. A memory's chunks, postings and counts go in a few set-based
 * statements (arrays unnested), not one statement per row: on a server each statement is a round trip.
 */
import { CascadeError } from "../../errors.js";
import type { Memory, PreparedMemory, TurnContext } from "../../model/types.js";
import type { EmbedderStamp, HydratedChunk } from "../../ports/store.js";
import { metadataFields, matchText } from "../../query/where.js";
import { segmentScripts } from "../../text/segment.js";
import { distinctContentWords } from "../../text/tokenize.js";
import { formatInstant } from "../../time/iso.js";
import { analyze } from "./analyze.js";
import type { Queryable } from "./connection.js";
import { insertMentions, removeMentions } from "./entities-sql.js";
import { markDirty } from "./pyramid-sql.js";
import { toVectorText } from "./vector-sql.js";

export interface MemoryRow {
  rowid: number;
  id: string;
  kind: string;
  text: string;
  title: string | null;
  description: string | null;
  tags: string;
  topic: string | null;
  role: string | null;
  speaker: string | null;
  session: string | null;
  user_id: string | null;
  agent_id: string | null;
  at: string;
  recorded_at: string;
  expires_at_ms: number | null;
  metadata: string;
  chunks: number;
}

export const MEMORY_COLUMNS = `m.rowid, m.id, m.kind, m.text, m.title, m.description, m.tags, m.topic::text AS topic, m.role, m.speaker,
  m.session, m.user_id, m.agent_id, m.at, m.recorded_at, m.expires_at_ms, m.metadata,
  (SELECT count(*) FROM chunks k WHERE k.namespace = m.namespace AND k.memory_rowid = m.rowid)::int AS chunks`;

export function toMemory(row: MemoryRow): Memory {
  return {
    id: row.id,
    kind: row.kind,
    text: row.text,
    title: row.title,
    description: row.description,
    tags: JSON.parse(row.tags) as string[],
    topic: row.topic,
    role: row.role,
    speaker: row.speaker,
    session: row.session,
    user: row.user_id,
    agent: row.agent_id,
    at: row.at,
    recordedAt: row.recorded_at,
    expires: row.expires_at_ms === null ? null : formatInstant(row.expires_at_ms),
    metadata: JSON.parse(row.metadata) as Record<string, unknown>,
    chunks: row.chunks,
  };
}

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
        `(${stamp.dimensions}-d); open it with the same embedder or use a new --db`,
      { field: "embedder" },
    );
  }
}

/** Corpus counts kept in meta (a count(*) or sum() per query would scan): chunk_count, body_tokens, curated_rows, curated_tokens. */
export type Counter = "chunk_count" | "body_tokens" | "curated_rows" | "curated_tokens";

export async function addCounts(q: Queryable, ns: string, deltas: Partial<Record<Counter, number>>): Promise<void> {
  const entries = Object.entries(deltas).filter(([, d]) => d !== 0);
  if (entries.length === 0) return;
  await q.query(
    `INSERT INTO meta (namespace, key, value) SELECT $1, k, d::text FROM unnest($2::text[], $3::bigint[]) AS t (k, d)
     ON CONFLICT (namespace, key) DO UPDATE SET value = (meta.value::bigint + excluded.value::bigint)::text`,
    [ns, entries.map((e) => e[0]), entries.map((e) => e[1])],
  );
}

export async function counts(q: Queryable, ns: string): Promise<Record<Counter, number>> {
  const rows = await q.query<{ key: Counter; value: string }>(
    "SELECT key, value FROM meta WHERE namespace = $1 AND key IN ('chunk_count', 'body_tokens', 'curated_rows', 'curated_tokens')",
    [ns],
  );
  const out: Record<Counter, number> = { chunk_count: 0, body_tokens: 0, curated_rows: 0, curated_tokens: 0 };
  for (const r of rows) out[r.key] = Number(r.value);
  return out;
}

export async function insertMemory(q: Queryable, ns: string, p: PreparedMemory): Promise<{ rowid: number; chunks: number[] }> {
  const m = p.memory;
  const [row] = await q.query<{ rowid: number }>(
    `INSERT INTO memories (namespace, id, kind, text, title, description, tags, topic, role, speaker, session, user_id, agent_id,
       at, at_ms, recorded_at, recorded_at_ms, expires_at_ms, metadata, context_rowid, import_key)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8::ltree, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19,
       (SELECT rowid FROM memories WHERE namespace = $1 AND id = $20), $21)
     RETURNING rowid`,
    [
      ns, m.id, m.kind, m.text, m.title, m.description, JSON.stringify(m.tags), m.topic, m.role, m.speaker, m.session, m.user, m.agent,
      m.at, Date.parse(m.at), m.recordedAt, Date.parse(m.recordedAt), m.expires === null ? null : Date.parse(m.expires),
      JSON.stringify(m.metadata), p.contextOf ?? null, p.importKey ?? null,
    ],
  );
  return { rowid: row.rowid, chunks: await insertContent(q, ns, row.rowid, p) };
}

/** What a memory's content adds to the indexes: metadata fields, mentions, curated postings, chunks and their words. */
async function insertContent(q: Queryable, ns: string, rowid: number, { memory: m, chunks, entities }: Pick<PreparedMemory, "memory" | "chunks" | "entities">): Promise<number[]> {
  // a summary's metadata is its sentences and sources: nothing a filter names
  if (m.kind !== "summary") await insertFields(q, ns, rowid, m.metadata);
  await markDirty(q, ns, [rowid]);
  if (entities?.length) await insertMentions(q, ns, rowid, entities, Date.parse(m.recordedAt));
  if (m.title || m.description || m.tags.length > 0) await indexCurated(q, ns, rowid, curatedText(m.title, m.description, m.tags));
  if (chunks.length === 0) return [];

  const analyzed = chunks.map((c) => analyze(c.indexedText));
  const inserted = await q.query<{ id: number; ord: number }>(
    `INSERT INTO chunks (namespace, memory_rowid, ord, start, "end", indexed_text, terms, context_chars, length, vector)
     SELECT $1, $2, t.ord, t.s, t.e, t.body, t.terms, t.ctx, t.len, t.vec::vector
     FROM unnest($3::int[], $4::int[], $5::int[], $6::text[], $7::text[], $8::int[], $9::int[], $10::text[]) AS t (ord, s, e, body, terms, ctx, len, vec)
     RETURNING id, ord`,
    [
      ns, rowid, chunks.map((c) => c.ord), chunks.map((c) => c.start), chunks.map((c) => c.end), chunks.map((c) => c.indexedText),
      chunks.map((c) => c.terms.join(" ")), chunks.map((c) => c.contextChars), analyzed.map((a) => a.length), chunks.map((c) => toVectorText(c.vector)),
    ],
  );
  const idOfOrd = new Map(inserted.map((r) => [r.ord, r.id]));
  const ids = chunks.map((c) => idOfOrd.get(c.ord)!);
  await insertPostings(q, ns, ids.map((id, i) => [id, analyzed[i].tf]));
  await countTerms(q, ns, chunks.flatMap((c) => c.terms), +1);
  await addCounts(q, ns, { body_tokens: analyzed.reduce((n, a) => n + a.length, 0) });
  return ids;
}

/** Postings of several chunks in one statement. */
export async function insertPostings(q: Queryable, ns: string, docs: [number, Map<string, number>][]): Promise<void> {
  const chunkIds: number[] = [];
  const terms: string[] = [];
  const tfs: number[] = [];
  for (const [id, tf] of docs) for (const [term, n] of tf) chunkIds.push(id), terms.push(term), tfs.push(n);
  if (terms.length === 0) return;
  await q.query(
    "INSERT INTO postings (namespace, chunk_id, term, tf) SELECT $1, c, t, n FROM unnest($2::bigint[], $3::text[], $4::int[]) AS x (c, t, n)",
    [ns, chunkIds, terms, tfs],
  );
}

/**
 * Adds (+1) or removes (-1) one chunk's worth of document frequency per listed word (a word listed twice counts
 * twice: once per chunk). New words get the next vocabulary ids in first-seen order.
 */
export async function countTerms(q: Queryable, ns: string, words: string[], sign: 1 | -1): Promise<void> {
  if (words.length === 0) return;
  if (sign > 0) {
    await q.query(
      `INSERT INTO terms (namespace, term, df)
       SELECT $1, w, count(*) FROM unnest($2::text[]) WITH ORDINALITY AS x (w, i) GROUP BY w ORDER BY min(i)
       ON CONFLICT (namespace, term) DO UPDATE SET df = terms.df + excluded.df`,
      [ns, words],
    );
  } else {
    await q.query(
      `UPDATE terms SET df = greatest(terms.df - x.n, 0)
       FROM (SELECT w, count(*)::int AS n FROM unnest($2::text[]) AS w GROUP BY w) AS x
       WHERE terms.namespace = $1 AND terms.term = x.w`,
      [ns, words],
    );
  }
}

async function insertFields(q: Queryable, ns: string, rowid: number, metadata: Record<string, unknown>): Promise<void> {
  const fields = metadataFields(metadata);
  if (fields.length === 0) return;
  await q.query(
    `INSERT INTO memory_fields (namespace, memory_rowid, path, type, text_value, num_value)
     SELECT $1, $2, p, t, v, n FROM unnest($3::text[], $4::text[], $5::text[], $6::float8[]) AS x (p, t, v, n)`,
    [ns, rowid, fields.map((f) => f[0]), fields.map((f) => typeof f[1]), fields.map((f) => matchText(f[1])), fields.map((f) => (typeof f[1] === "number" ? f[1] : null))],
  );
}

/** Title, description and tags as one curated document (FTS5's three columns, whose BM25 sums over them alike). */
export function curatedText(title: string | null, description: string | null, tags: string[]): string {
  return [segmentScripts(title ?? ""), segmentScripts(description ?? ""), segmentScripts(tags.join(" "))].join(" ");
}

export async function indexCurated(q: Queryable, ns: string, rowid: number, text: string): Promise<void> {
  const { length, tf } = analyze(text);
  if (tf.size > 0) {
    await q.query(
      "INSERT INTO curated_postings (namespace, memory_rowid, term, tf) SELECT $1, $2, t, n FROM unnest($3::text[], $4::int[]) AS x (t, n)",
      [ns, rowid, [...tf.keys()], [...tf.values()]],
    );
  }
  await q.query("UPDATE memories SET curated = true, curated_len = $3 WHERE namespace = $1 AND rowid = $2", [ns, rowid, length]);
  await addCounts(q, ns, { curated_rows: 1, curated_tokens: length });
}

/** Takes a memory's content out of every index (postings, words, curated text, mentions, counts); the rows stay. */
async function removeContent(q: Queryable, ns: string, rowid: number): Promise<number[]> {
  const chunks = await q.query<{ id: number; terms: string; length: number }>(
    "SELECT id, terms, length FROM chunks WHERE namespace = $1 AND memory_rowid = $2 ORDER BY ord",
    [ns, rowid],
  );
  await q.query("DELETE FROM postings WHERE namespace = $1 AND chunk_id = ANY($2::bigint[])", [ns, chunks.map((c) => c.id)]);
  await countTerms(q, ns, chunks.flatMap((c) => c.terms.split(" ").filter(Boolean)), -1);
  const [cur] = await q.query<{ curated: boolean; curated_len: number }>("SELECT curated, curated_len FROM memories WHERE namespace = $1 AND rowid = $2", [ns, rowid]);
  await q.query("UPDATE memories SET curated = false, curated_len = 0 WHERE namespace = $1 AND rowid = $2", [ns, rowid]);
  await q.query("DELETE FROM curated_postings WHERE namespace = $1 AND memory_rowid = $2", [ns, rowid]);
  await addCounts(q, ns, {
    body_tokens: -chunks.reduce((n, c) => n + c.length, 0),
    curated_rows: cur?.curated ? -1 : 0,
    curated_tokens: cur?.curated ? -cur.curated_len : 0,
  });
  await removeMentions(q, ns, rowid);
  return chunks.map((c) => c.id);
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
  const removed = await removeContent(q, ns, rowid);
  await q.query("DELETE FROM chunks WHERE namespace = $1 AND memory_rowid = $2", [ns, rowid]);
  await q.query("DELETE FROM memory_fields WHERE namespace = $1 AND memory_rowid = $2", [ns, rowid]);
  await q.query(
    `UPDATE memories SET text = $3, title = $4, description = $5, tags = $6, topic = $7::ltree, expires_at_ms = $8, metadata = $9
     WHERE namespace = $1 AND rowid = $2`,
    [ns, rowid, m.text, m.title, m.description, JSON.stringify(m.tags), m.topic, m.expires === null ? null : Date.parse(m.expires), JSON.stringify(m.metadata)],
  );
  const added = await insertContent(q, ns, rowid, next);
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
      const analyzed = analyze(text);
      await q.query("DELETE FROM postings WHERE namespace = $1 AND chunk_id = $2", [ns, c.id]);
      await insertPostings(q, ns, [[c.id, analyzed.tf]]);
      await countTerms(q, ns, c.terms.split(" ").filter((t) => t && !kept.has(t)), -1);
      await q.query("UPDATE chunks SET indexed_text = $3, terms = $4, context_chars = 0, length = $5 WHERE namespace = $1 AND id = $2", [
        ns, c.id, text, terms.join(" "), analyzed.length,
      ]);
      await addCounts(q, ns, { body_tokens: analyzed.length - c.length });
    }
    await q.query("UPDATE memories SET context_rowid = NULL WHERE namespace = $1 AND rowid = $2", [ns, dep]);
  }
}

export async function previousInSession(q: Queryable, ns: string, session: string, at: string): Promise<TurnContext | null> {
  const [row] = await q.query<TurnContext>(
    `SELECT id, speaker, text FROM memories WHERE namespace = $1 AND session = $2 AND at_ms < $3 AND kind <> 'summary'
     ORDER BY at_ms DESC, rowid DESC LIMIT 1`,
    [ns, session, Date.parse(at)],
  );
  return row ?? null;
}

/** Removes one memory from the tables and every index (inside a transaction); returns its chunk ids. */
export async function removeMemoryRow(q: Queryable, ns: string, rowid: number, id: string): Promise<number[]> {
  const chunkIds = await removeContent(q, ns, rowid);
  const deleted = await q.query("DELETE FROM memories WHERE namespace = $1 AND rowid = $2 RETURNING rowid", [ns, rowid]); // chunks, nodes and links cascade
  if (deleted.length !== 1) throw new CascadeError("STORE_ERROR", `forget ${id}: the memory row was not deleted`);
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

export async function eventTimes(q: Queryable, ns: string, memoryIds: string[]): Promise<Map<string, number>> {
  const rows = await q.query<{ id: string; at_ms: number }>("SELECT id, at_ms FROM memories WHERE namespace = $1 AND id = ANY($2::text[])", [ns, memoryIds]);
  return new Map(rows.map((r) => [r.id, r.at_ms]));
}

export async function firstChunkIds(q: Queryable, ns: string, memoryIds: string[]): Promise<Map<string, number>> {
  const rows = await q.query<{ id: string; chunk: number | null }>(
    `SELECT m.id, (SELECT c.id FROM chunks c WHERE c.namespace = m.namespace AND c.memory_rowid = m.rowid ORDER BY c.ord LIMIT 1) AS chunk
     FROM memories m WHERE m.namespace = $1 AND m.id = ANY($2::text[])`,
    [ns, memoryIds],
  );
  // SQLite's map holds a null for a memory without chunks too; keep the same shape
  return new Map(rows.map((r) => [r.id, r.chunk as number]));
}
