/**
 * @module backends/postgres/index-sql
 * What the lexical indexes hold besides the rows themselves: postings (stemmed term, chunk, tf), the
 * vocabulary's document frequencies, and the corpus counts BM25 divides by (chunks and their tokens, curated
 * documents and theirs), kept in `meta` by the writing transactions because a count(*) or sum() per query
 * would scan the namespace.
 */
import { segmentScripts } from "../../text/segment.js";
import type { AnalyzedText } from "./analyze.js";
import type { Queryable } from "./connection.js";

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

/**
 * Postings of several chunks in one statement: each chunk's id, term counts and length (its tokens). Each chunk's
 * terms and counts travel as two space-separated strings (a term is letters and digits, never a space) that the
 * server splits: one array element per chunk instead of four per posting, which the driver quoted one by one.
 */
export async function insertPostings(q: Queryable, ns: string, docs: (ChunkPostings & { chunkId: number })[]): Promise<void> {
  const withTerms = docs.filter((d) => d.keys !== "");
  if (withTerms.length === 0) return;
  await q.query(
    `INSERT INTO postings (namespace, chunk_id, term, tf, len)
     SELECT $1, x.c, p.t, p.n::int, x.l FROM unnest($2::bigint[], $3::int[], $4::text[], $5::text[]) AS x (c, l, terms, tfs)
       CROSS JOIN LATERAL unnest(string_to_array(x.terms, ' '), string_to_array(x.tfs, ' ')) AS p (t, n)
     ORDER BY p.t`,
    [ns, withTerms.map((d) => d.chunkId), withTerms.map((d) => d.length), withTerms.map((d) => d.keys), withTerms.map((d) => d.tfs)],
  );
}

/** One chunk's postings as insertPostings sends them: its keys and their counts, space-separated in the same order. */
export interface ChunkPostings {
  /** Its tokens (the document length BM25 divides by). */
  length: number;
  keys: string;
  tfs: string;
}

/** The postings of a chunk analysed into `tf` (keys in first-seen order) of `length` tokens. */
export function postingsOf({ tf, length }: AnalyzedText): ChunkPostings {
  return { length, keys: postingKeys(tf), tfs: [...tf.values()].join(" ") };
}

/** The keys a chunk's postings are filed under, as chunks.keys lists them (space-separated: a key has no space). */
function postingKeys(tf: Map<string, number>): string {
  return [...tf.keys()].join(" ");
}

/**
 * Deletes the postings of the chunks `chunkIds`, by their primary key from the keys each chunk lists (postings
 * have no index by chunk: schema.ts, migration 6).
 */
export async function deletePostings(q: Queryable, ns: string, chunkIds: number[]): Promise<void> {
  if (chunkIds.length === 0) return;
  await q.query(
    `DELETE FROM postings p USING (SELECT c.id, k FROM chunks c CROSS JOIN LATERAL unnest(string_to_array(c.keys, ' ')) AS k
                                   WHERE c.namespace = $1 AND c.id = ANY($2::bigint[])) AS x
     WHERE p.namespace = $1 AND p.term = x.k AND p.chunk_id = x.id`,
    [ns, chunkIds],
  );
}

/**
 * Adds (+1) or removes (-1) one chunk's worth of document frequency per listed word (a word listed twice counts
 * twice: once per chunk). New words get the next vocabulary ids in first-seen order. The words are counted here
 * and sent once each (a batch of 2,000 chunks lists ~30,000 words, ~11,000 of them distinct).
 */
export async function countTerms(q: Queryable, ns: string, words: string[], sign: 1 | -1): Promise<void> {
  if (words.length === 0) return;
  const counts = new Map<string, number>();
  for (const w of words) counts.set(w, (counts.get(w) ?? 0) + 1);
  const params = [ns, [...counts.keys()], [...counts.values()]];
  if (sign > 0) {
    await q.query(
      `INSERT INTO terms (namespace, term, df)
       SELECT $1, w, n FROM unnest($2::text[], $3::int[]) WITH ORDINALITY AS x (w, n, i) ORDER BY i
       ON CONFLICT (namespace, term) DO UPDATE SET df = terms.df + excluded.df`,
      params,
    );
  } else {
    await q.query(
      `UPDATE terms SET df = greatest(terms.df - x.n, 0) FROM unnest($2::text[], $3::int[]) AS x (w, n)
       WHERE terms.namespace = $1 AND terms.term = x.w`,
      params,
    );
  }
}

/** Title, description and tags as one curated document (FTS5's three columns, whose BM25 sums over them alike). */
export function curatedText(title: string | null, description: string | null, tags: string[]): string {
  return [segmentScripts(title ?? ""), segmentScripts(description ?? ""), segmentScripts(tags.join(" "))].join(" ");
}
