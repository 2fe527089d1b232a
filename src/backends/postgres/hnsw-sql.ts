/**
 * @module backends/postgres/hnsw-sql
 * Approximate dense search on pgvector's HNSW, for namespaces large enough that the exact scan costs more than a
 * graph walk. `chunks.vector` has no fixed dimension (namespaces with embedders of different sizes share the
 * table), and pgvector indexes only a fixed one, so the index is per namespace: a partial expression index on
 * `vector::vector(d)` WHERE namespace = that one, with `vector_ip_ops` because the vectors are unit length and
 * the exact search orders by `<#>` (negative inner product): the same order, the same scores.
 *
 * Used, as in the SQLite store, by searches that exclude little (no filter but expiry and excluded kinds); a
 * selective filter scans the admitted rows exactly. pgvector 0.8's iterative scan keeps walking the graph while
 * the filter drops candidates, so a search still returns `depth` rows; `ef_search` is set per query, in the
 * query's own transaction, to at least the depth asked for.
 */
import { createHash } from "node:crypto";
import type { Ranked, SearchFilter } from "../../model/types.js";
import type { Database } from "./connection.js";
import { filterCondition } from "./filter-sql.js";
import { Params } from "./params.js";
import { toVectorText } from "./vector-sql.js";

export interface ApproximateSearch {
  /** Chunks in the namespace from which light searches use the graph. */
  above: number;
  /** Graph links per node (pgvector's `m`) and candidate list while building (`ef_construction`). */
  m: number;
  efConstruction: number;
  /** Candidate list while searching (`hnsw.ef_search`), raised to the depth asked for; pgvector allows at most 1000. */
  efSearch: number;
}

/**
 * Measured on PGlite with `node dist/bench/pg-hnsw.js` (docs/POSTGRES.md): on 20,000 vectors of the default
 * embedder, ef_construction 200 and ef_search 400 find 97% of the exact top 10 in ~4 ms, where the exact scan
 * takes ~15 ms; with pgvector's defaults (64, 40) recall@10 was 0.64. Below the threshold the scan is cheap enough
 * that exact answers are worth it.
 */
export const defaultApproximateSearch: ApproximateSearch = Object.freeze({ above: 50_000, m: 16, efConstruction: 200, efSearch: 400 });

/** The conditions a graph walk handles well: they drop few rows, so the iterative scan soon finds `depth` of them. */
const LIGHT_FILTER_KEYS = new Set<keyof SearchFilter>(["liveAt", "excludeKinds"]);

export function isLightFilter(filter: SearchFilter): boolean {
  return (Object.keys(filter) as (keyof SearchFilter)[]).every((k) => filter[k] === undefined || LIGHT_FILTER_KEYS.has(k));
}

/** The index's name: one per namespace and dimension (a namespace re-stamped with another embedder gets another). */
export function hnswIndexName(ns: string, dimensions: number): string {
  return `${hnswIndexPrefix(ns)}${dimensions}`;
}

/** What the names of a namespace's indexes (any dimension) start with. */
export function hnswIndexPrefix(ns: string): string {
  return `chunks_hnsw_${createHash("sha1").update(ns).digest("hex").slice(0, 16)}_`;
}

/** pgvector 0.8 brought the iterative scan a filtered graph walk needs; an older server searches exactly. */
const MIN_PGVECTOR = [0, 8];

/**
 * Creates the namespace's index unless it exists (another process may have built it, or be building it now);
 * false when the server's pgvector is too old to search it. The statement is composed by PostgreSQL's format()
 * so the namespace is quoted as a literal, never spliced by hand.
 */
export async function ensureHnswIndex(db: Database, ns: string, dimensions: number, a: ApproximateSearch): Promise<boolean> {
  const [ext] = await db.query<{ version: string }>("SELECT extversion AS version FROM pg_extension WHERE extname = 'vector'");
  const [major, minor] = (ext?.version ?? "0").split(".").map(Number);
  if (major < MIN_PGVECTOR[0] || (major === MIN_PGVECTOR[0] && minor < MIN_PGVECTOR[1])) return false;
  const name = hnswIndexName(ns, dimensions);
  const [{ ddl }] = await db.query<{ ddl: string }>(
    `SELECT format('CREATE INDEX IF NOT EXISTS %I ON chunks USING hnsw ((vector::vector(%s)) vector_ip_ops) WITH (m = %s, ef_construction = %s) WHERE namespace = %L',
                   $1::text, $2::int, $3::int, $4::int, $5::text) AS ddl`,
    [name, dimensions, a.m, a.efConstruction, ns],
  );
  try {
    // one transaction without the statement timeout: a build over a large namespace takes longer than a query may
    await db.transaction(async (tx) => {
      await tx.query("SET LOCAL statement_timeout = 0");
      await tx.query(ddl);
    });
  } catch (err) {
    // two processes that both found no index: the second's CREATE fails once the first's exists
    if ((await db.query("SELECT 1 FROM pg_indexes WHERE indexname = $1", [name])).length === 0) throw err;
  }
  return true;
}

/** The nearest chunks by the graph: the exact search's query on `vector::vector(d)`, which the partial index serves. */
export async function nearestByGraph(db: Database, ns: string, dimensions: number, vector: Float32Array, depth: number, filter: SearchFilter, efSearch: number): Promise<Ranked[]> {
  const d = Math.floor(dimensions); // an integer from the embedder stamp, part of the index expression
  const p = new Params(ns);
  const v = p.add(toVectorText(vector));
  const cond = filterCondition(filter, p);
  const limit = p.add(depth);
  const ef = Math.min(1000, Math.max(efSearch, depth));
  const rows = await db.transaction(async (tx) => {
    await tx.query(`SET LOCAL hnsw.ef_search = ${ef}`);
    await tx.query("SET LOCAL hnsw.iterative_scan = strict_order");
    return tx.query<{ chunk: number; memory: string; score: number }>(
      `SELECT c.id AS chunk, m.id AS memory, -(c.vector::vector(${d}) <#> ${v}::vector(${d})) AS score
       FROM chunks c JOIN memories m ON m.namespace = c.namespace AND m.rowid = c.memory_rowid
       WHERE c.namespace = $1 AND ${cond}
       ORDER BY c.vector::vector(${d}) <#> ${v}::vector(${d}) LIMIT ${limit}`,
      p.values,
    );
  });
  return rows.map((r) => ({ chunkId: r.chunk, memoryId: r.memory, score: r.score }));
}
