/**
 * @module backends/postgres/lexical-sql
 * BM25 computed in SQL from the store's own term statistics, to rank as SQLite's FTS5 `bm25()` does (k1 = 1.2,
 * b = 0.75), so the body and curated channels give the same order on both backends:
 *
 *   score(d) = Σ over query words w:  idf(w) · tf(w, d) · (k1 + 1) / (tf(w, d) + k1 · (1 − b + b · |d| / avgdl))
 *   idf(w)   = max(ln((N − n(w) + 0.5) / (n(w) + 0.5)), 1e-6)
 *
 * with N the documents in the index, n(w) those holding w, |d| a document's tokens and avgdl the mean over the
 * index, all over the whole namespace (FTS5 computes idf before any filter too). A word given twice counts
 * twice, as a phrase repeated in an FTS5 OR query does. Words are looked up by their index key (Porter stem,
 * see analyze.ts); at most 32 words, as the SQLite store sends. The words are parameters: none is ever SQL.
 */
import type { Ranked, SearchFilter } from "../../model/types.js";
import type { LexicalQuery } from "../../ports/store.js";
import { indexKey } from "./analyze.js";
import type { Queryable } from "./connection.js";
import { expiredChunkIds, filterCondition, isEmptyFilter, isLiveOnly } from "./filter-sql.js";
import type { Counter } from "./index-sql.js";
import { Params } from "./params.js";

const K1 = 1.2;
const B = 0.75;
/** Longest OR-query the SQLite store sends; more words add almost nothing to a top-50 list. */
const MAX_TERMS = 32;
const BODY = { docs: "chunk_count", tokens: "body_tokens" } as const;

/** The BM25 sum over the rows of `p` (postings) joined to `i` (the query's idf), for document length `len`. */
const bm25Sum = (len: string, avgdl: string) => `sum(i.k * i.w * (p.tf * ${K1 + 1}) / (p.tf + ${K1} * (${1 - B} + ${B} * ${len} / ${avgdl}::float8)))`;

/**
 * `hits`: the postings of the query's keys, read once through the (namespace, term) index with `= ANY`, which
 * the planner gets right even before statistics exist (a join to the unnested keys was planned as a scan of
 * every posting of the namespace on freshly loaded tables: 110 ms instead of 6 at 200 chunks);
 * `i`: each key with how often it was asked (k) and its idf (w).
 */
const hitsCte = (table: string, doc: string, keys: string, n: string, columns = "tf") => `
  WITH hits AS MATERIALIZED (SELECT term, ${doc} AS doc, ${columns} FROM ${table} WHERE namespace = $1 AND term = ANY(${keys}::text[])),
  q AS (SELECT term, count(*)::int AS k FROM unnest(${keys}::text[]) AS term GROUP BY term),
  i AS (SELECT h.term, q.k, greatest(ln((${n}::float8 - count(*) + 0.5) / (count(*) + 0.5)), 1e-6) AS w
        FROM hits h JOIN q ON q.term = h.term GROUP BY h.term, q.k)`;

/** A corpus count kept in meta (index-sql.ts), read by the search's own statement. */
const kept = (key: Counter) => `(SELECT value::float8 FROM meta WHERE namespace = $1 AND key = '${key}')`;

/**
 * A BM25 search's parameters (the query's keys, the filter, the depth) and its corpus size and mean length as
 * SQL: read in the statement that reads the postings, so both come from one snapshot. Read beforehand, a
 * writer's commit in between gave words more documents than the corpus held (ln of a negative number, an
 * error, with agents writing while others search).
 */
function bm25Params(ns: string, words: string[], corpus: { docs: Counter; tokens: Counter }, filter: SearchFilter, depth: number) {
  const p = new Params(ns);
  const keys = p.add(words.slice(0, MAX_TERMS).map(indexKey));
  const N = kept(corpus.docs);
  const avgdl = `greatest(${kept(corpus.tokens)} / ${N}, 1e-9)`;
  const cond = filterCondition(filter, p);
  const limit = p.add(depth);
  return { p, keys, N, avgdl, cond, limit };
}

export async function searchBody(q: Queryable, ns: string, { words, depth, filter }: LexicalQuery): Promise<Ranked[]> {
  if (words.length === 0) return [];
  if (isEmptyFilter(filter) || isLiveOnly(filter)) return searchBodyLive(q, ns, words, filter.liveAt ?? null, depth);
  const { p, keys, N, avgdl, cond, limit } = bm25Params(ns, words, BODY, filter, depth);
  const rows = await q.query<{ chunk: number; memory: string; score: number }>(
    `${hitsCte("postings", "chunk_id", keys, N)}
     SELECT c.id AS chunk, m.id AS memory, ${bm25Sum("c.length", avgdl)} AS score
     FROM hits p JOIN i ON i.term = p.term
       JOIN chunks c ON c.namespace = $1 AND c.id = p.doc
       JOIN memories m ON m.namespace = $1 AND m.rowid = c.memory_rowid
     WHERE ${cond}
     GROUP BY c.id, m.id ORDER BY score DESC, c.id LIMIT ${limit}`,
    p.values,
  );
  return rows.map((r) => ({ chunkId: r.chunk, memoryId: r.memory, score: r.score }));
}

/**
 * BM25 without a filter, or with expired memories left out by chunk id (filter-sql.ts, isLiveOnly): candidates are scored from
 * their postings alone (each carries its chunk's length, schema migration 3), and only the top `depth` are joined
 * to their chunks and memories for the memories' ids.
 */
async function searchBodyLive(q: Queryable, ns: string, words: string[], liveAt: number | null, depth: number): Promise<Ranked[]> {
  const { p, keys, N, avgdl, limit } = bm25Params(ns, words, BODY, {}, depth);
  const rows = await q.query<{ chunk: number; memory: string; score: number }>(
    `${hitsCte("postings", "chunk_id", keys, N, "tf, len")},
     expired AS MATERIALIZED (${liveAt === null ? "SELECT NULL::bigint AS id WHERE FALSE" : expiredChunkIds(liveAt, p)}),
     top AS (SELECT p.doc, ${bm25Sum("p.len", avgdl)} AS score
             FROM hits p JOIN i ON i.term = p.term
             WHERE NOT EXISTS (SELECT 1 FROM expired e WHERE e.id = p.doc)
             GROUP BY p.doc ORDER BY score DESC, p.doc LIMIT ${limit})
     SELECT t.doc AS chunk, m.id AS memory, t.score
     FROM top t JOIN chunks c ON c.namespace = $1 AND c.id = t.doc JOIN memories m ON m.namespace = $1 AND m.rowid = c.memory_rowid
     ORDER BY t.score DESC, t.doc`,
    p.values,
  );
  return rows.map((r) => ({ chunkId: r.chunk, memoryId: r.memory, score: r.score }));
}

/** The same over titles, descriptions and tags: one document per memory, reported through its first chunk. */
export async function searchCurated(q: Queryable, ns: string, { words, depth, filter }: LexicalQuery): Promise<Ranked[]> {
  if (words.length === 0) return [];
  const { p, keys, N, avgdl, cond, limit } = bm25Params(ns, words, { docs: "curated_rows", tokens: "curated_tokens" }, filter, depth);
  const rows = await q.query<{ chunk: number | null; memory: string; score: number }>(
    `${hitsCte("curated_postings", "memory_rowid", keys, N)}
     SELECT (SELECT k.id FROM chunks k WHERE k.namespace = $1 AND k.memory_rowid = s.rowid ORDER BY k.ord LIMIT 1) AS chunk, s.id AS memory, s.score
     FROM (SELECT m.rowid, m.id, ${bm25Sum("m.curated_len", avgdl)} AS score
           FROM hits p JOIN i ON i.term = p.term
             JOIN memories m ON m.namespace = $1 AND m.rowid = p.doc
           WHERE ${cond}
           GROUP BY m.rowid, m.id ORDER BY score DESC, m.rowid LIMIT ${limit}) AS s
     ORDER BY s.score DESC, s.rowid`,
    p.values,
  );
  return rows.map((r) => ({ chunkId: r.chunk as number, memoryId: r.memory, score: r.score }));
}

/** The key each word is indexed under: its Porter stem (see analyze.ts), as in the SQLite store. */
export function indexKeys(words: string[]): Map<string, string> {
  return new Map(words.map((w) => [w, indexKey(w)]));
}

/**
 * For each term, the chunks whose body holds its key, in id order, after the filter. Each key's list comes back as
 * one row of comma-separated ids, read in index order (term, chunk id): late interaction reads up to 60,000
 * entries a query, and a row each, sorted by chunk id on the server, cost twice the time (4.7 against 9.9 ms for
 * 7,800 entries at 100,000 chunks).
 */
export async function chunksWithTerms(q: Queryable, ns: string, terms: string[], filter: SearchFilter): Promise<Map<string, number[]>> {
  const keyOf = indexKeys(terms);
  const p = new Params(ns);
  const keys = p.add([...new Set(keyOf.values())]);
  const postings = `FROM postings p WHERE p.namespace = $1 AND p.term = ANY(${keys}::text[])`;
  const rows = isEmptyFilter(filter)
    ? `SELECT p.term, p.chunk_id ${postings}`
    : isLiveOnly(filter)
      ? `SELECT p.term, p.chunk_id ${postings} AND NOT EXISTS (SELECT 1 FROM expired e WHERE e.id = p.chunk_id)`
      : `SELECT p.term, p.chunk_id FROM postings p
           JOIN chunks c ON c.namespace = $1 AND c.id = p.chunk_id JOIN memories m ON m.namespace = $1 AND m.rowid = c.memory_rowid
         WHERE p.namespace = $1 AND p.term = ANY(${keys}::text[]) AND ${filterCondition(filter, p)}`;
  const expired = isLiveOnly(filter) ? `WITH expired AS MATERIALIZED (${expiredChunkIds(filter.liveAt!, p)}) ` : "";
  const sql = `${expired}SELECT x.term, string_agg(x.chunk_id::text, ',') AS chunks FROM (${rows} ORDER BY p.term, p.chunk_id) AS x GROUP BY x.term`;
  const byKey = new Map<string, number[]>();
  for (const r of await q.query<{ term: string; chunks: string }>(sql, p.values)) byKey.set(r.term, idList(r.chunks));
  return new Map(terms.map((t) => [t, [...(byKey.get(keyOf.get(t)!) ?? [])]]));
}

/** Comma-separated chunk ids as numbers in ascending order (an aggregate's input order is not promised: checked, sorted if need be). */
function idList(text: string): number[] {
  const ids = text.split(",").map(Number);
  for (let i = 1; i < ids.length; i++) if (ids[i] < ids[i - 1]) return ids.sort((a, b) => a - b);
  return ids;
}

export async function termsAfter(q: Queryable, ns: string, afterId: number): Promise<{ id: number; term: string }[]> {
  return q.query<{ id: number; term: string }>("SELECT id, term FROM terms WHERE namespace = $1 AND id > $2 ORDER BY id", [ns, afterId]);
}

export async function termStats(q: Queryable, ns: string, terms: string[]): Promise<{ chunks: number; df: Map<string, number> }> {
  // the corpus size rides along with the words' rows (one round trip, not two): the one-row side is kept when no word is known
  const rows = await q.query<{ chunks: number | null; term: string | null; df: number | null }>(
    `SELECT n.chunks, t.term, t.df FROM (SELECT (SELECT value::float8 FROM meta WHERE namespace = $1 AND key = 'chunk_count') AS chunks) n
       LEFT JOIN terms t ON t.namespace = $1 AND t.term = ANY($2::text[])`,
    [ns, terms],
  );
  const df = new Map(terms.map((t) => [t, 0]));
  for (const r of rows) if (r.term !== null) df.set(r.term, r.df!);
  return { chunks: rows[0]?.chunks ?? 0, df };
}
