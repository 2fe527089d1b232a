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
 * pgvector's text form. Float32 values printed with the shortest round-trip digits of a double would carry
 * noise; `Math.fround` keeps them exactly what the float4 column will hold.
 */
export function toVectorText(v: Float32Array): string {
  let out = "[";
  for (let i = 0; i < v.length; i++) out += (i ? "," : "") + String(Math.fround(v[i]));
  return out + "]";
}

export function parseVector(text: string): Float32Array {
  const body = text.trim().replace(/^\[/, "").replace(/\]$/, "");
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

/** Mean and (population) sd of the query's similarity over an even sample: every k-th chunk in id order. */
export async function similarityNull(q: Queryable, ns: string, vector: Float32Array): Promise<{ mean: number; sd: number; rows: number }> {
  const [row] = await q.query<{ n: number; mean: number | null; sd: number | null }>(
    `WITH numbered AS (
       SELECT id, row_number() OVER (ORDER BY id) - 1 AS r, count(*) OVER () AS total FROM chunks WHERE namespace = $1),
     sample AS (
       SELECT -(c.vector <#> $2::vector) AS s FROM numbered x JOIN chunks c ON c.namespace = $1 AND c.id = x.id
       WHERE x.r % greatest(1, ceil(x.total::float8 / $3)::bigint) = 0)
     SELECT count(*)::int AS n, avg(s) AS mean, stddev_pop(s) AS sd FROM sample`,
    [ns, toVectorText(vector), NULL_SAMPLE_ROWS],
  );
  if (!row || row.n === 0) return { mean: 0, sd: 0, rows: 0 };
  return { mean: Number(row.mean), sd: Number(row.sd ?? 0), rows: row.n };
}

/** Every chunk vector in id order, a page at a time (keyset), so a large store is never read into memory at once. */
export async function* allVectors(q: Queryable, ns: string, page = 1000): AsyncGenerator<[number, Float32Array]> {
  let after = 0;
  for (;;) {
    const rows = await q.query<{ id: number; vector: string }>(
      "SELECT id, vector::text AS vector FROM chunks WHERE namespace = $1 AND id > $2 ORDER BY id LIMIT $3",
      [ns, after, page],
    );
    for (const r of rows) yield [r.id, parseVector(r.vector)];
    if (rows.length < page) return;
    after = rows[rows.length - 1].id;
  }
}

/**
 * First-chunk vectors of the memories people put in a topic (automatic placements left out, as in the SQLite
 * store: counted, they pulled a topic's centroid towards what was placed there), summed per topic in SQL.
 */
export async function topicVectorSums(q: Queryable, ns: string): Promise<Map<string, { count: number; sum: Float32Array }>> {
  const rows = await q.query<{ topic: string; n: number; sum: string }>(
    `SELECT m.topic::text AS topic, count(*)::int AS n, sum(c.vector)::text AS sum
     FROM memories m JOIN chunks c ON c.namespace = m.namespace AND c.memory_rowid = m.rowid AND c.ord = 0
     WHERE m.namespace = $1 AND m.topic IS NOT NULL AND m.kind <> 'summary' AND coalesce(jsonb_typeof(m.metadata::jsonb -> 'placement'), 'null') = 'null'
     GROUP BY m.topic`,
    [ns],
  );
  return new Map(rows.map((r) => [r.topic, { count: r.n, sum: parseVector(r.sum) }]));
}
