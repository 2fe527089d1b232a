/**
 * @module backends/postgres/write-sql
 * Writing memories: the rows and everything their content adds to the indexes (metadata fields, dirty
 * windows, mentions, curated postings, chunks with vectors, postings, vocabulary and corpus counts), with the
 * semantics of the SQLite store's insertMemory. Set-based: a batch of memories takes about ten statements in
 * all, not ten per memory, because on a server every statement is a round trip. Only entity mentions go one
 * memory at a time when they need the alias rules (entities-sql.ts): resolving an alias depends on the entities the
 * memories before it created.
 * Rows keep the batch's order (identity values are drawn in ordinality order), so chunk ids follow memory then
 * chunk order, as in SQLite, and BM25 ties break alike.
 */
import type { PreparedMemory } from "../../model/types.js";
import { matchText, metadataFields } from "../../model/matching.js";
import { analyze } from "./analyze.js";
import type { Queryable } from "./connection.js";
import { insertMentionsMany } from "./entities-sql.js";
import { insertFailures } from "./enrichment-sql.js";
import { addCounts, countTerms, curatedText, insertPostings, postingsOf, type ChunkPostings } from "./index-sql.js";
import { Overlap } from "./overlap.js";
import { markDirty } from "./pyramid-sql.js";
import { toVectorText } from "./vector-sql.js";

/** Inserts the memories (inside the caller's transaction); returns their row ids, in order, and how many chunks they brought. */
export async function insertMemories(tx: Queryable, ns: string, batch: PreparedMemory[]): Promise<{ rowids: number[]; chunks: number }> {
  if (batch.length === 0) return { rowids: [], chunks: 0 };
  const ms = batch.map((p) => p.memory);
  // the chunks are encoded while the memories' rows and what hangs off them are written
  const encoding = encodeWhileWriting(batch);
  const q = encoding.over(tx);
  const inserted = await q.query<{ rowid: number; id: string }>(
    `INSERT INTO memories (namespace, id, kind, text, title, description, tags, topic, role, speaker, session, user_id, agent_id,
       at, at_ms, recorded_at, recorded_at_ms, expires_at_ms, metadata, import_key)
     SELECT $1, id, kind, text, title, description, tags, topic::ltree, role, speaker, session, user_id, agent_id,
       at, at_ms, recorded_at, recorded_at_ms, expires_at_ms, metadata, import_key
     FROM unnest($2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[], $8::text[], $9::text[], $10::text[], $11::text[],
                 $12::text[], $13::text[], $14::text[], $15::bigint[], $16::text[], $17::float8[], $18::bigint[], $19::text[], $20::text[])
       WITH ORDINALITY AS t (id, kind, text, title, description, tags, topic, role, speaker, session, user_id, agent_id,
                             at, at_ms, recorded_at, recorded_at_ms, expires_at_ms, metadata, import_key, i)
     ORDER BY i
     RETURNING rowid, id`,
    [
      ns,
      ms.map((m) => m.id), ms.map((m) => m.kind), ms.map((m) => m.text), ms.map((m) => m.title), ms.map((m) => m.description),
      ms.map((m) => JSON.stringify(m.tags)), ms.map((m) => m.topic), ms.map((m) => m.role), ms.map((m) => m.speaker), ms.map((m) => m.session),
      ms.map((m) => m.user), ms.map((m) => m.agent), ms.map((m) => m.at), ms.map((m) => Date.parse(m.at)), ms.map((m) => m.recordedAt),
      ms.map((m) => Date.parse(m.recordedAt)), ms.map((m) => (m.expires === null ? null : Date.parse(m.expires))), ms.map((m) => JSON.stringify(m.metadata)),
      batch.map((p) => p.importKey ?? null),
    ],
  );
  const rowidOf = new Map(inserted.map((r) => [r.id, r.rowid]));
  const rowids = ms.map((m) => rowidOf.get(m.id)!);
  // after every row of the batch exists: a turn's context may be the turn just before it in the same batch
  const withContext = batch.map((p, i) => [rowids[i], p.contextOf] as const).filter((x): x is readonly [number, string] => x[1] !== undefined);
  if (withContext.length) {
    await q.query(
      `UPDATE memories m SET context_rowid = c.rowid FROM unnest($2::bigint[], $3::text[]) AS x (rowid, ctx)
       JOIN memories c ON c.namespace = $1 AND c.id = x.ctx
       WHERE m.namespace = $1 AND m.rowid = x.rowid`,
      [ns, withContext.map((x) => x[0]), withContext.map((x) => x[1])],
    );
  }
  await insertFailures(q, ns, batch.flatMap((p, i) => (p.failures ?? []).map((f) => ({ rowid: rowids[i], ...f }))));
  const chunks = await insertContent(tx, ns, batch.map((p, i) => ({ rowid: rowids[i], prepared: p })), encoding);
  return { rowids, chunks: chunks.length };
}

/** A chunk as its statements send it: its postings (keys, counts, length) and its vector as text. */
interface EncodedChunk extends ChunkPostings {
  vector: string;
}

function encodeChunk(c: PreparedMemory["chunks"][number]): EncodedChunk {
  return { ...postingsOf(analyze(c.indexedText)), vector: toVectorText(c.vector).slice(1, -1) };
}

function encodeWhileWriting(memories: Pick<PreparedMemory, "chunks">[]): Overlap<PreparedMemory["chunks"][number], EncodedChunk> {
  return new Overlap(memories.flatMap((p) => p.chunks), encodeChunk);
}

/** What memories' content adds to the indexes (their rows exist); returns the new chunk ids in order. */
export async function insertContent(
  tx: Queryable,
  ns: string,
  items: { rowid: number; prepared: Pick<PreparedMemory, "memory" | "chunks" | "entities"> }[],
  /** The items' chunks in order, as insertMemories started encoding them. */
  encoding = encodeWhileWriting(items.map((x) => x.prepared)),
): Promise<number[]> {
  const q = encoding.over(tx);
  // a summary's metadata is its sentences and sources: nothing a filter names
  await insertFields(q, ns, items.filter((x) => x.prepared.memory.kind !== "summary").map((x) => [x.rowid, x.prepared.memory.metadata]));
  await markDirty(q, ns, items.map((x) => x.rowid));
  await insertMentionsMany(q, ns, items.filter((x) => x.prepared.entities?.length).map((x) => ({ rowid: x.rowid, entities: x.prepared.entities!, now: Date.parse(x.prepared.memory.recordedAt), user: x.prepared.memory.user, agent: x.prepared.memory.agent })));
  await indexCurated(q, ns, items.filter(({ prepared: { memory: m } }) => m.title || m.description || m.tags.length > 0).map((x) => [x.rowid, x.prepared.memory]));

  const encoded = encoding.all();
  const chunks = items.flatMap(({ rowid, prepared }) => prepared.chunks.map((c) => ({ rowid, c })));
  if (chunks.length === 0) return [];
  const inserted = await q.query<{ id: number; memory_rowid: number; ord: number }>(
    `INSERT INTO chunks (namespace, memory_rowid, ord, start, "end", indexed_text, terms, context_chars, length, vector, keys)
     SELECT $1, t.m, t.ord, t.s, t.e, t.body, t.terms, t.ctx, t.len, ('{' || t.vec || '}')::real[], t.keys
     FROM unnest($2::bigint[], $3::int[], $4::int[], $5::int[], $6::text[], $7::text[], $8::int[], $9::int[], string_to_array($10, ';'), $11::text[])
       WITH ORDINALITY AS t (m, ord, s, e, body, terms, ctx, len, vec, keys, i)
     ORDER BY t.i
     RETURNING id, memory_rowid, ord`,
    [
      ns, chunks.map((x) => x.rowid), chunks.map((x) => x.c.ord), chunks.map((x) => x.c.start), chunks.map((x) => x.c.end), chunks.map((x) => x.c.indexedText),
      chunks.map((x) => x.c.terms.join(" ")), chunks.map((x) => x.c.contextChars), encoded.map((e) => e.length),
      // the vectors as one parameter, elements comma-separated and vectors ';'-separated, which the statement splits
      // and reads as real[] (a pgvector column takes them by its assignment cast): as an array of texts, the driver
      // quoted every 1,300-character vector and the server parsed it twice (array, then real[])
      encoded.map((e) => e.vector).join(";"),
      encoded.map((e) => e.keys),
    ],
  );
  const idOf = new Map(inserted.map((r) => [`${r.memory_rowid}:${r.ord}`, r.id]));
  const ids = chunks.map((x) => idOf.get(`${x.rowid}:${x.c.ord}`)!);
  await insertPostings(tx, ns, ids.map((chunkId, i) => ({ ...encoded[i], chunkId })));
  await countTerms(tx, ns, chunks.flatMap((x) => x.c.terms), +1);
  await addCounts(tx, ns, { body_tokens: encoded.reduce((n, e) => n + e.length, 0) });
  return ids;
}

/** The metadata field index (see backends/sqlite/fields-sql.ts): one row per scalar value by dotted path. */
async function insertFields(q: Queryable, ns: string, memories: [number, Record<string, unknown>][]): Promise<void> {
  const rows = memories.flatMap(([rowid, metadata]) => metadataFields(metadata).map(([path, value]) => ({ rowid, path, value })));
  if (rows.length === 0) return;
  await q.query(
    `INSERT INTO memory_fields (namespace, memory_rowid, path, type, text_value, num_value)
     SELECT $1, m, p, t, v, n FROM unnest($2::bigint[], $3::text[], $4::text[], $5::text[], $6::float8[]) AS x (m, p, t, v, n)`,
    [
      ns, rows.map((r) => r.rowid), rows.map((r) => r.path), rows.map((r) => typeof r.value), rows.map((r) => matchText(r.value)),
      rows.map((r) => (typeof r.value === "number" ? r.value : null)),
    ],
  );
}

/** Curated documents (title, description, tags) of these memories: postings, lengths and the curated counts. */
async function indexCurated(q: Queryable, ns: string, memories: [number, PreparedMemory["memory"]][]): Promise<void> {
  if (memories.length === 0) return;
  const docs = memories.map(([rowid, m]) => ({ rowid, ...analyze(curatedText(m.title, m.description, m.tags)) }));
  const postings = docs.flatMap((d) => [...d.tf].map(([term, n]) => ({ rowid: d.rowid, term, n })));
  if (postings.length) {
    await q.query(
      "INSERT INTO curated_postings (namespace, memory_rowid, term, tf) SELECT $1, m, t, n FROM unnest($2::bigint[], $3::text[], $4::int[]) AS x (m, t, n)",
      [ns, postings.map((p) => p.rowid), postings.map((p) => p.term), postings.map((p) => p.n)],
    );
  }
  await q.query(
    "UPDATE memories m SET curated = true, curated_len = x.len FROM unnest($2::bigint[], $3::int[]) AS x (rowid, len) WHERE m.namespace = $1 AND m.rowid = x.rowid",
    [ns, docs.map((d) => d.rowid), docs.map((d) => d.length)],
  );
  await addCounts(q, ns, { curated_rows: docs.length, curated_tokens: docs.reduce((n, d) => n + d.length, 0) });
}
