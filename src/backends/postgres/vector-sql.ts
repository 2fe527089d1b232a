/**
 * @module backends/postgres/vector-sql
 * The dense channel on pgvector. Vectors travel as pgvector's text form ('[0.1,0.2,...]') in a parameter and
 * come back the same way. The search is exact: ORDER BY the `<#>` operator, which is the NEGATIVE inner
 * product (so ascending is best first), over unit vectors, so -(a <#> b) is the cosine the SQLite store
 * reports. This is the exact search; above a size threshold the store walks an HNSW index instead (hnsw-sql.ts).
 */
import type { Ranked, SearchFilter } from "../../model/types.js";
import type { Queryable } from "./connection.js";
import { filterCondition } from "./filter-sql.js";
import { Params } from "./params.js";

/** Rows sampled for a query's similarity distribution (as the SQLite store's vector index samples). */
const NULL_SAMPLE_ROWS = 2048;

/**
 * pgvector's text form. Nine significant digits name every float32 exactly (the server's strtof reads back the
 * same value), in about two thirds of the characters of a double's shortest form and at half the cost to print:
 * a batch of 2,000 chunks sends and parses 200,000 of them.
 */
export function toVectorText(v: Float32Array): string {
  let out = "[";
  for (let i = 0; i < v.length; i++) out += (i ? "," : "") + v[i].toPrecision(9);
  return out + "]";
}

/** A vector's text: pgvector's `[1,2]`, or `{1,2}` from a `real[]` column (a server without pgvector). */
export function parseVector(text: string): Float32Array {
  const body = text.trim().replace(/^[[{]/, "").replace(/[\]}]$/, "");
  return body === "" ? new Float32Array(0) : Float32Array.from(body.split(","), Number);
}

export async function nearestChunks(q: Queryable, ns: string, vector: Float32Array, depth: number, filter: SearchFilter): Promise<Ranked[]> {
  const p = new Params(ns);
  const v = p.add(toVectorText(vector));
  const cond = filterCondition(filter, p);
  const limit = p.add(depth);
  const rows = await q.query<{ chunk: number; memory: string; score: number }>(
    `SELECT c.id AS chunk, m.id AS memory, -(c.vector <#> ${v}::vector) AS score
     FROM chunks c JOIN memories m ON m.namespace = c.namespace AND m.rowid = c.memory_rowid
     WHERE c.namespace = $1 AND ${cond}
     ORDER BY c.vector <#> ${v}::vector, c.id LIMIT ${limit}`,
    p.values,
  );
  return rows.map((r) => ({ chunkId: r.chunk, memoryId: r.memory, score: r.score }));
}

/**
 * Which chunks a query's similarity distribution is taken over: their ids, and the namespace's state they were
 * chosen in (`key`: the kept chunk count and the largest chunk id). Ids come from one identity sequence and the
 * writers of a namespace take turns, so an unchanged key means an unchanged set of chunks.
 */
export interface NullSample {
  key: string;
  ids: number[];
}

/** The namespace's state in one expression (the count kept in meta, which doctor checks, and the last id by the primary key). */
const SAMPLE_KEY = `coalesce((SELECT value FROM meta WHERE namespace = $1 AND key = 'chunk_count'), '0') || ':' || coalesce((SELECT max(id) FROM chunks WHERE namespace = $1)::text, '')`;

/**
 * Mean and (population) sd of the query's similarity over an even sample: every k-th chunk in id order, at
 * most 2,048 (as the SQLite store's matrix samples). Numbering every chunk of the namespace costs a scan of it
 * (70–90 ms a query at 100,000 chunks on a server), so the sample's ids are kept in `cache` and chosen again only
 * when the namespace changed: each query reads the vectors of the cached ids and, in the same statement (one
 * snapshot), the key they must still match.
 */
export async function similarityNull(q: Queryable, ns: string, vector: Float32Array, cache: { sample: NullSample | null }): Promise<{ mean: number; sd: number; rows: number }> {
  const v = toVectorText(vector);
  for (let attempt = 0; attempt < 3; attempt++) {
    const sample = cache.sample ?? (cache.sample = await chooseSample(q, ns));
    const [row] = await q.query<{ key: string; n: number; mean: number | null; sd: number | null }>(
      `SELECT (${SAMPLE_KEY}) AS key, count(*)::int AS n, avg(s) AS mean, stddev_pop(s) AS sd
       FROM (SELECT -(c.vector <#> $2::vector) AS s FROM chunks c WHERE c.namespace = $1 AND c.id = ANY($3::bigint[])) AS sample`,
      [ns, v, sample.ids],
    );
    if (row.key !== sample.key) {
      cache.sample = null; // another write since the sample was chosen: choose again
      continue;
    }
    if (row.n === 0) return { mean: 0, sd: 0, rows: 0 };
    return { mean: Number(row.mean), sd: Number(row.sd ?? 0), rows: row.n };
  }
  // writes landing between every choice and its use: number the chunks in the same statement
  const [row] = await q.query<{ n: number; mean: number | null; sd: number | null }>(
    `WITH numbered AS (
       SELECT id, row_number() OVER (ORDER BY id) - 1 AS r, count(*) OVER () AS total FROM chunks WHERE namespace = $1),
     sample AS (
       SELECT -(c.vector <#> $2::vector) AS s FROM numbered x JOIN chunks c ON c.namespace = $1 AND c.id = x.id
       WHERE x.r % greatest(1, ceil(x.total::float8 / $3)::bigint) = 0)
     SELECT count(*)::int AS n, avg(s) AS mean, stddev_pop(s) AS sd FROM sample`,
    [ns, v, NULL_SAMPLE_ROWS],
  );
  if (!row || row.n === 0) return { mean: 0, sd: 0, rows: 0 };
  return { mean: Number(row.mean), sd: Number(row.sd ?? 0), rows: row.n };
}

/** Every k-th chunk id in id order (at most NULL_SAMPLE_ROWS), with the key of the state they were read in. */
async function chooseSample(q: Queryable, ns: string): Promise<NullSample> {
  const rows = await q.query<{ key: string; ids: (number | string)[] | null }>(
    `SELECT (${SAMPLE_KEY}) AS key, (
       SELECT array_agg(id ORDER BY id) FROM (
         SELECT id, row_number() OVER (ORDER BY id) - 1 AS r, count(*) OVER () AS total FROM chunks WHERE namespace = $1) x
       WHERE x.r % greatest(1, ceil(x.total::float8 / $2)::bigint) = 0) AS ids`,
    [ns, NULL_SAMPLE_ROWS],
  );
  return { key: rows[0].key, ids: (rows[0].ids ?? []).map(Number) };
}

/** The chunk vectors with ids after `after`, in id order, a page at a time (keyset), so a large store is never read into memory at once. */
export async function* vectorsAfter(q: Queryable, ns: string, after = 0, page = 1000): AsyncGenerator<[number, Float32Array]> {
  for (;;) {
    const rows = await q.query<{ id: number; vector: string }>(
      "SELECT id, vector::text AS vector FROM chunks WHERE namespace = $1 AND id > $2 ORDER BY id LIMIT $3",
      [ns, after, page],
    );
    for (const r of rows) yield [Number(r.id), parseVector(r.vector)];
    if (rows.length < page) return;
    after = Number(rows[rows.length - 1].id);
  }
}

/**
 * First-chunk vectors of the memories people put in a topic (automatic placements left out, as in the SQLite
 * store: counted, they pulled a topic's centroid towards what was placed there), summed per topic in SQL.
 */
export async function topicVectorSums(q: Queryable, ns: string, pgvector: boolean): Promise<Map<string, { count: number; sum: Float32Array }>> {
  const members = `FROM memories m JOIN chunks c ON c.namespace = m.namespace AND c.memory_rowid = m.rowid AND c.ord = 0
     WHERE m.namespace = $1 AND m.topic IS NOT NULL AND m.kind <> 'summary' AND coalesce(jsonb_typeof(m.metadata::jsonb -> 'placement'), 'null') = 'null'`;
  if (pgvector) {
    const rows = await q.query<{ topic: string; n: number; sum: string }>(`SELECT m.topic::text AS topic, count(*)::int AS n, sum(c.vector)::text AS sum ${members} GROUP BY m.topic`, [ns]);
    return new Map(rows.map((r) => [r.topic, { count: r.n, sum: parseVector(r.sum) }]));
  }
  // a real[] column has no vector sum: the members' vectors are summed here, in id order
  const sums = new Map<string, { count: number; sum: Float32Array }>();
  for (const r of await q.query<{ topic: string; vector: string }>(`SELECT m.topic::text AS topic, c.vector::text AS vector ${members} ORDER BY c.id`, [ns])) {
    const v = parseVector(r.vector);
    let entry = sums.get(r.topic);
    if (!entry) sums.set(r.topic, (entry = { count: 0, sum: new Float32Array(v.length) }));
    entry.count++;
    for (let i = 0; i < v.length; i++) entry.sum[i] += v[i];
  }
  return sums;
}
