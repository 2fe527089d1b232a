/**
 * @module backends/sqlite/memory-sql
 * Memory rows for the SQLite store: writing a memory with its chunks, terms and FTS rows, removing it from
 * every index, reading memories back, and the kept chunk count. Functions over a statement cache; the caller
 * (SqliteStore) owns the transactions and the in-memory vector index.
 */
import { segmentScripts } from "../../text/segment.js";
import type Database from "better-sqlite3";
import { CascadeError } from "../../errors.js";
import type { Memory, PreparedMemory, TurnContext } from "../../model/types.js";
import type { Scope } from "../../model/scope.js";
import type { EmbedderStamp, HydratedChunk, SessionNeighbours } from "../../ports/store.js";
import { toMemory, type MemoryRow } from "../rows.js";
import { distinctContentWords } from "../../text/tokenize.js";
import { toBlob } from "../../vectors/math.js";
import * as pyramid from "./pyramid-sql.js";
import { insertFailures } from "./enrichment-sql.js";
import { dropUnusedForms, insertMentions, removeMentions } from "./entities-sql.js";
import { setImportKey } from "./import-keys-sql.js";
import { insertFields } from "./fields-sql.js";

type Prepare = (sql: string) => Database.Statement;

export { toMemory, type MemoryRow };

export const MEMORY_COLUMNS = `m.rowid, m.id, m.kind, m.text, m.title, m.description, m.tags, m.topic, m.role, m.speaker,
  m.session, m.user_id, m.agent_id, m.at, m.recorded_at, m.expires_at_ms, m.metadata, (SELECT count(*) FROM chunks WHERE memory_rowid = m.rowid) AS chunks`;

export function embedderStamp(prepare: Prepare): EmbedderStamp | null {
  const row = prepare("SELECT value FROM meta WHERE key = 'embedder'").get() as { value: string } | undefined;
  return row ? (JSON.parse(row.value) as EmbedderStamp) : null;
}

/** Stamps a new store with the embedder, or refuses vectors from another one (inside a transaction). */
export function checkStamp(prepare: Prepare, stamp: EmbedderStamp): void {
  const existing = prepare("SELECT value FROM meta WHERE key = 'embedder'").get() as { value: string } | undefined;
  if (!existing) {
    prepare("INSERT INTO meta (key, value) VALUES ('embedder', ?)").run(JSON.stringify(stamp));
  } else {
    const have = JSON.parse(existing.value) as EmbedderStamp;
    if (have.id !== stamp.id || have.dimensions !== stamp.dimensions) throw mismatch(have, stamp);
  }
}

function mismatch(have: EmbedderStamp, want: EmbedderStamp): CascadeError {
  return new CascadeError(
    "EMBEDDER_MISMATCH",
    `this store was built with embedder ${have.id} (${have.dimensions}-d) and cannot take vectors from ${want.id} ` +
      `(${want.dimensions}-d); open it with the same embedder, or move it with \`cascade reembed --embedder SPEC\``,
    { field: "embedder" },
  );
}

/**
 * How many chunks of a batch hold each word, written to `terms` once per distinct word when the batch is stored
 * (countTerms): one upsert a word and a chunk was ~10% of ingest at 100,000 memories.
 */
export type TermTally = Map<string, number>;

export function countTerms(prepare: Prepare, tally: TermTally): void {
  const add = prepare("INSERT INTO terms (term, df) VALUES (?, ?) ON CONFLICT (term) DO UPDATE SET df = df + excluded.df");
  for (const [term, n] of tally) add.run(term, n);
  tally.clear();
}

/** Writes a memory with its chunks and index rows; its words are added to `tally` (counted now when none is given). */
export function insertMemory(
  prepare: Prepare,
  { memory: m, chunks, contextOf, entities, importKey, failures }: PreparedMemory,
  tally?: TermTally,
): { rowid: number; chunks: { chunkId: number; vector: Float32Array }[] } {
  const info = prepare(
    `INSERT INTO memories (id, kind, text, title, description, tags, topic, role, speaker, session, user_id, agent_id, at, at_ms, recorded_at, expires_at_ms, metadata)
     VALUES (@id, @kind, @text, @title, @description, @tags, @topic, @role, @speaker, @session, @user, @agent, @at, @atMs, @recordedAt, @expiresMs, @metadata)`,
  ).run({
    ...m,
    tags: JSON.stringify(m.tags),
    atMs: Date.parse(m.at),
    expiresMs: m.expires === null ? null : Date.parse(m.expires),
    metadata: JSON.stringify(m.metadata),
  });
  const memoryRowid = Number(info.lastInsertRowid);
  if (contextOf) {
    prepare("UPDATE memories SET context_rowid = (SELECT rowid FROM memories WHERE id = ?) WHERE rowid = ?").run(contextOf, memoryRowid);
  }
  if (importKey) setImportKey(prepare, memoryRowid, importKey);
  if (failures?.length) insertFailures(prepare, memoryRowid, failures);
  const own: TermTally = tally ?? new Map();
  const added = insertContent(prepare, memoryRowid, { memory: m, chunks, entities }, own);
  if (!tally) countTerms(prepare, own);
  return { rowid: memoryRowid, chunks: added };
}

/** What a memory's content adds to the indexes: metadata fields, mentions, curated text, chunks and their words. */
function insertContent(prepare: Prepare, memoryRowid: number, { memory: m, chunks, entities }: Pick<PreparedMemory, "memory" | "chunks" | "entities">, tally: TermTally) {
  // a summary's metadata is its sentences and sources: nothing a filter names
  if (m.kind !== "summary") insertFields(prepare, memoryRowid, m.metadata);
  pyramid.markDirty(prepare, [memoryRowid]);
  if (entities?.length) insertMentions(prepare, memoryRowid, entities, Date.parse(m.recordedAt));
  if (m.title || m.description || m.tags.length > 0) {
    prepare("INSERT INTO curated_fts (rowid, title, description, tags) VALUES (?, ?, ?, ?)").run(memoryRowid, ...curatedColumns(m.title, m.description, m.tags));
  }
  const insertChunk = prepare(
    "INSERT INTO chunks (memory_rowid, ord, start, end, indexed_text, terms, vector, context_chars) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
  );
  const insertFts = prepare("INSERT INTO chunks_fts (rowid, body) VALUES (?, ?)");
  return chunks.map((c) => {
    const chunkId = Number(insertChunk.run(memoryRowid, c.ord, c.start, c.end, c.indexedText, c.terms.join(" "), toBlob(c.vector), c.contextChars).lastInsertRowid);
    insertFts.run(chunkId, c.indexedText);
    for (const term of c.terms) tally.set(term, (tally.get(term) ?? 0) + 1);
    return { chunkId, vector: c.vector };
  });
}

/**
 * Takes a memory's content out of every index (chunks, words, curated text, mentions, fields); the row stays.
 * Returns its chunk ids, and the entities it mentioned that others still mention: the caller drops their forms
 * nothing uses once the memory's new content (a correction) is in, or at once (a forget).
 */
function removeContent(prepare: Prepare, rowid: number): { chunkIds: number[]; entities: number[] } {
  const chunks = prepare("SELECT id, terms FROM chunks WHERE memory_rowid = ?").all(rowid) as { id: number; terms: string }[];
  const deleteFts = prepare("DELETE FROM chunks_fts WHERE rowid = ?");
  const uncountTerm = prepare("UPDATE terms SET df = max(df - 1, 0) WHERE term = ?");
  for (const c of chunks) {
    deleteFts.run(c.id);
    for (const term of c.terms.split(" ")) if (term) uncountTerm.run(term);
  }
  prepare("DELETE FROM curated_fts WHERE rowid = ?").run(rowid);
  const entities = removeMentions(prepare, rowid);
  return { chunkIds: chunks.map((c) => c.id), entities };
}

/**
 * A correction: the memory keeps its id, its edges and its place in time; its previous content is kept in
 * memory_revisions with the time Cascade learned the correction; the indexes hold only the new content.
 */
export function reviseMemoryRow(prepare: Prepare, next: PreparedMemory, recordedAt: number): { removed: number[]; added: { chunkId: number; vector: Float32Array }[] } {
  const m = next.memory;
  const rowid = memoryRowid(prepare, m.id);
  if (rowid === undefined) throw new CascadeError("NOT_FOUND", `no memory with id ${JSON.stringify(m.id)}`, { field: "id" });
  const before = getMemory(prepare, m.id)!;
  prepare("INSERT INTO memory_revisions (memory_rowid, recorded_at_ms, previous) VALUES (?, ?, ?)").run(rowid, recordedAt, JSON.stringify(before));
  pyramid.markDirty(prepare, [rowid]);
  const { chunkIds: removed, entities } = removeContent(prepare, rowid);
  prepare("DELETE FROM chunks WHERE memory_rowid = ?").run(rowid);
  prepare("DELETE FROM memory_fields WHERE memory_rowid = ?").run(rowid);
  prepare(
    `UPDATE memories SET text = @text, title = @title, description = @description, tags = @tags, topic = @topic,
       expires_at_ms = @expiresMs, metadata = @metadata WHERE rowid = @rowid`,
  ).run({ ...m, tags: JSON.stringify(m.tags), expiresMs: m.expires === null ? null : Date.parse(m.expires), metadata: JSON.stringify(m.metadata), rowid });
  const tally: TermTally = new Map();
  const added = insertContent(prepare, rowid, next, tally);
  dropUnusedForms(prepare, entities); // after the new content: a name it still uses is not dropped in between
  countTerms(prepare, tally);
  addToChunkCount(prepare, added.length - removed.length);
  return { removed, added };
}

/** What a memory said before each correction, oldest first. */
export function revisionsOf(prepare: Prepare, id: string): { recordedAt: number; memory: Memory }[] {
  const rows = prepare(
    "SELECT r.recorded_at_ms AS at, r.previous FROM memory_revisions r JOIN memories m ON m.rowid = r.memory_rowid WHERE m.id = ? ORDER BY r.recorded_at_ms, r.rowid",
  ).all(id) as { at: number; previous: string }[];
  return rows.map((r) => ({ recordedAt: r.at, memory: JSON.parse(r.previous) as Memory }));
}

export function getMemory(prepare: Prepare, id: string): Memory | null {
  const row = prepare(`SELECT ${MEMORY_COLUMNS} FROM memories m WHERE m.id = ?`).get(id) as MemoryRow | undefined;
  return row ? toMemory(row) : null;
}

export function memoryRowid(prepare: Prepare, id: string): number | undefined {
  const row = prepare("SELECT rowid FROM memories WHERE id = ?").get(id) as { rowid: number } | undefined;
  return row?.rowid;
}

/** Takes a forgotten memory's words out of the index of the turns that carried it as context. */
export function stripContextOf(prepare: Prepare, rowid: number): void {
  const dependents = prepare("SELECT rowid FROM memories WHERE context_rowid = ?").pluck().all(rowid) as number[];
  for (const dep of dependents) {
    const c = prepare("SELECT id, indexed_text, terms, context_chars FROM chunks WHERE memory_rowid = ? AND ord = 0").get(dep) as
      | { id: number; indexed_text: string; terms: string; context_chars: number }
      | undefined;
    if (c && c.context_chars > 0) {
      const text = c.indexed_text.slice(0, c.indexed_text.length - c.context_chars);
      const terms = distinctContentWords(text);
      const kept = new Set(terms);
      prepare("DELETE FROM chunks_fts WHERE rowid = ?").run(c.id);
      prepare("INSERT INTO chunks_fts (rowid, body) VALUES (?, ?)").run(c.id, text);
      const uncount = prepare("UPDATE terms SET df = max(df - 1, 0) WHERE term = ?");
      for (const t of c.terms.split(" ")) if (t && !kept.has(t)) uncount.run(t);
      prepare("UPDATE chunks SET indexed_text = ?, terms = ?, context_chars = 0 WHERE id = ?").run(text, terms.join(" "), c.id);
    }
    prepare("UPDATE memories SET context_rowid = NULL WHERE rowid = ?").run(dep);
  }
}

export function previousInSession(prepare: Prepare, session: string, at: string, scope: Scope): TurnContext | null {
  // IS: an absent user or agent equals only an absent one (model/scope.ts)
  const row = prepare(
    `SELECT id, speaker, text FROM memories WHERE session = ? AND at_ms < ? AND kind <> 'summary' AND user_id IS ? AND agent_id IS ?
     ORDER BY at_ms DESC, rowid DESC LIMIT 1`,
  ).get(session, Date.parse(at), scope.user, scope.agent) as TurnContext | undefined;
  return row ?? null;
}

/** Removes one memory from the tables and every index (inside a transaction); returns its chunk ids. */
export function removeMemoryRow(prepare: Prepare, rowid: number, id: string): number[] {
  const { chunkIds, entities } = removeContent(prepare, rowid);
  const info = prepare("DELETE FROM memories WHERE rowid = ?").run(rowid); // chunks, nodes and links cascade
  if (info.changes !== 1) throw new CascadeError("STORE_ERROR", `forget ${id}: the memory row was not deleted`);
  dropUnusedForms(prepare, entities);
  addToChunkCount(prepare, -chunkIds.length);
  return chunkIds;
}

export function hydrate(prepare: Prepare, chunkIds: number[]): Map<number, HydratedChunk> {
  // the chunks first, then each of their memories once: a search's hits and context often hold several chunks of
  // one long memory, and a row a chunk read (and decoded) that memory's whole text each time (a megabyte's ~30
  // chunks: ~120 ms in one statement)
  const chunks = prepare(
    "SELECT c.id AS chunk_id, c.ord, c.start, c.end, c.memory_rowid FROM chunks c WHERE c.id IN (SELECT value FROM json_each(?))",
  ).all(JSON.stringify(chunkIds)) as { chunk_id: number; ord: number; start: number; end: number; memory_rowid: number }[];
  const rowids = [...new Set(chunks.map((c) => c.memory_rowid))];
  const memories = new Map(
    (prepare(`SELECT ${MEMORY_COLUMNS} FROM memories m WHERE m.rowid IN (SELECT value FROM json_each(?))`).all(JSON.stringify(rowids)) as MemoryRow[]).map((r) => [r.rowid, r]),
  );
  const out = new Map<number, HydratedChunk>();
  for (const r of chunks) {
    const row = memories.get(r.memory_rowid);
    if (!row) continue; // forgotten between the two reads: as if the chunk had gone too
    const memory = toMemory(row);
    out.set(r.chunk_id, { chunkId: r.chunk_id, ord: r.ord, start: r.start, end: r.end, text: memory.text.slice(r.start, r.end), memory });
  }
  return out;
}

export function sessionNeighbours(prepare: Prepare, memoryIds: string[], window: number): Map<string, SessionNeighbours> {
  // each side is a short walk along memories_session (session, at_ms, and the rowid every index ends with), over
  // the memories of the same scope only: another user's turns in a shared session are not this one's neighbours
  const side = (cmp: "<" | ">", order: "DESC" | "ASC") =>
    `(SELECT json_group_array(id) FROM (SELECT p.id FROM memories p WHERE p.session = m.session AND p.kind <> 'summary'
        AND p.user_id IS m.user_id AND p.agent_id IS m.agent_id AND (p.at_ms, p.rowid) ${cmp} (m.at_ms, m.rowid) ORDER BY p.at_ms ${order}, p.rowid ${order} LIMIT $window))`;
  const rows = prepare(
    `SELECT m.id, m.session, ${side("<", "DESC")} AS before, ${side(">", "ASC")} AS after
     FROM memories m WHERE m.id IN (SELECT value FROM json_each($ids)) AND m.session IS NOT NULL AND m.kind <> 'summary'`,
  ).all({ ids: JSON.stringify(memoryIds), window }) as { id: string; session: string; before: string; after: string }[];
  return new Map(rows.map((r) => [r.id, { session: r.session, before: JSON.parse(r.before), after: JSON.parse(r.after) }]));
}

export function speakersOf(prepare: Prepare, memoryIds: string[]): Map<string, string> {
  const rows = prepare("SELECT id, COALESCE(speaker, role) FROM memories WHERE id IN (SELECT value FROM json_each(?)) AND COALESCE(speaker, role) IS NOT NULL")
    .raw()
    .all(JSON.stringify(memoryIds)) as [string, string][];
  return new Map(rows);
}

export function eventTimes(prepare: Prepare, memoryIds: string[]): Map<string, number> {
  const rows = prepare("SELECT id, at_ms FROM memories WHERE id IN (SELECT value FROM json_each(?))")
    .raw()
    .all(JSON.stringify(memoryIds)) as [string, number][];
  return new Map(rows);
}

export function firstChunkIds(prepare: Prepare, memoryIds: string[]): Map<string, number> {
  const rows = prepare(
    `SELECT m.id, (SELECT c.id FROM chunks c WHERE c.memory_rowid = m.rowid ORDER BY c.ord LIMIT 1)
     FROM memories m WHERE m.id IN (SELECT value FROM json_each(?))`,
  ).raw().all(JSON.stringify(memoryIds)) as [string, number][];
  return new Map(rows);
}

/** count(*) scans the table (8 ms at 100,000 chunks); the count is kept in meta instead, in the same transactions. */
export function chunkCount(prepare: Prepare): number {
  const v = prepare("SELECT value FROM meta WHERE key = 'chunk_count'").pluck().get() as string | undefined;
  return v === undefined ? 0 : Number(v);
}

export function addToChunkCount(prepare: Prepare, delta: number): void {
  prepare(
    "INSERT INTO meta (key, value) VALUES ('chunk_count', @delta) ON CONFLICT (key) DO UPDATE SET value = CAST(value AS INTEGER) + @delta",
  ).run({ delta });
}

/** Title, description and tags as the curated index holds them: scripts without spaces cut into words (text/segment). */
export function curatedColumns(title: string | null, description: string | null, tags: string[]): [string, string, string] {
  return [segmentScripts(title ?? ""), segmentScripts(description ?? ""), segmentScripts(tags.join(" "))];
}
