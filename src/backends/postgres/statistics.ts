/**
 * @module backends/postgres/statistics
 * Keeps the planner's statistics in step with a namespace's growth: when the PostgreSQL store's tables (or its
 * namespace within them) have outgrown what ANALYZE last saw, they are analyzed again, beside the writes on a
 * server. Apart from the store (store.ts) because it is its own bookkeeping: counts of rows written since the
 * last refresh, and the refresh running, if any.
 */
import type { Database } from "./connection.js";

/**
 * The tables searches join; their statistics decide the plans. The pyramid's and the entities' tables too: left to
 * autovacuum, a plan made while summary_children was nearly empty counted a month node's children by reading all
 * 100,000 of them (80 ms a search, 5% of searches, right after a bulk load on a server).
 */
const ANALYZED_TABLES = [
  "memories", "chunks", "postings", "curated_postings", "terms", "memory_fields", "edges",
  "summary_nodes", "summary_children", "entities", "entity_aliases", "mentions",
];
/** Rows ANALYZE samples from a table (300 × the default statistics target of 100). */
const ANALYZE_SAMPLE_ROWS = 30_000;
/** Chunks written before the first statistics refresh: below this any plan is fast. */
const STATS_MIN_CHUNKS = 100;

/** The statistics bookkeeping of one store (one namespace of a database). */
export class PlannerStatistics {
  /** A statistics refresh running beside the writes (see wrote), or null. */
  private refreshing: Promise<void> | null = null;
  /** Chunk rows the planner's statistics last counted (pg_class.reltuples), and chunks this store wrote since. */
  private statsRows = 0;
  private writtenSinceStats = 0;
  /** This namespace's chunks as the statistics last saw them (see refreshStatistics), and as counted then. */
  private namespaceStatsRows = 0;
  private namespaceRows = 0;
  /** The same for edges, which grow without chunks (a bulk of supersessions): rows last counted, and written since. */
  private edgeStatsRows = 0;
  private edgesSinceStats = 0;

  constructor(
    private readonly db: Database,
    private readonly ns: string,
  ) {}

  /**
   * Keeps the planner's statistics in step with the tables. Without them every table looks one row long and
   * a search is planned as nested loops over the whole namespace (110 ms instead of 6 at 200 chunks, worse with
   * more). A server's autovacuum catches up within a minute or so; PGlite has no autovacuum at all. So the store
   * analyzes its tables itself, on open when they never were, and after its own writes once they have grown by
   * half since the statistics were taken (so a bulk load costs a handful of ANALYZEs, not one per write).
   *
   * Tables are shared by namespaces, and statistics are the table's: a namespace they have not seen (created or
   * grown since) is estimated at one row in every table, so the planner starts a join from all of its rows. With a
   * 100,000-chunk namespace on the server, a new 450-memory conversation's mention lookups took 3 s each and its
   * BM25 read every posting of the namespace. So the namespace's own size counts too: statistics are refreshed
   * when it holds more than twice the chunks the statistics attribute to it (read from pg_stats on open and after
   * each refresh), which costs a namespace about log2(size / 100) refreshes as it grows. A namespace too small a
   * share of the table for ANALYZE's sample (30,000 rows) to see is taken as seen at its size: refreshing would
   * not show it, and its plans, however poor, are over few rows.
   */
  async refreshStatistics(force: boolean): Promise<void> {
    const counted = this.writtenSinceStats;
    const read = async () => (await this.db.query<{ rows: number }>("SELECT reltuples::float8 AS rows FROM pg_class WHERE oid = 'chunks'::regclass"))[0]?.rows ?? -1;
    let rows = await read();
    const never = rows < 0 && (await this.db.query("SELECT 1 FROM chunks WHERE namespace = $1 LIMIT 1", [this.ns])).length > 0;
    // the namespace's estimate is read before analyzing only when it decides whether to analyze
    let seen = force || never ? null : await this.namespaceInStatistics(rows);
    if (!seen || this.outgrew(seen.estimated, seen.actual)) {
      // postings are vacuumed too: BM25 reads them by index only where the visibility map says the pages are settled
      for (const table of ANALYZED_TABLES) await this.db.maintenance(table === "postings" ? "VACUUM (ANALYZE) postings" : `ANALYZE ${table}`);
      rows = await read();
      seen = await this.namespaceInStatistics(rows);
    }
    this.statsRows = Math.max(0, rows);
    this.namespaceStatsRows = seen.estimated;
    this.namespaceRows = seen.actual;
    this.writtenSinceStats = Math.max(0, this.writtenSinceStats - counted); // what was written while analyzing
    if (force || never) await this.edgeStatistics(false);
  }

  /**
   * This namespace's chunks as the planner estimates them from the statistics (its share among the most common
   * values, else an equal part of what they leave), or its own count when it is too small a share of the table for
   * the sample to see; and its chunks as counted.
   */
  private async namespaceInStatistics(tableRows: number): Promise<{ estimated: number; actual: number }> {
    const [row] = await this.db.query<{ actual: number | null; vals: string[] | null; freqs: number[] | null; n_distinct: number | null }>(
      `SELECT (SELECT value::float8 FROM meta WHERE namespace = $1 AND key = 'chunk_count') AS actual, s.vals, s.freqs, s.n_distinct
       FROM (SELECT 1) AS one LEFT JOIN (SELECT most_common_vals::text::text[] AS vals, most_common_freqs::float8[] AS freqs, n_distinct::float8 AS n_distinct
                                         FROM pg_stats WHERE schemaname = current_schema() AND tablename = 'chunks' AND attname = 'namespace') AS s ON TRUE`,
      [this.ns],
    );
    const actual = row?.actual ?? 0;
    const rows = Math.max(tableRows, 0);
    if (!(rows <= ANALYZE_SAMPLE_ROWS || actual * (ANALYZE_SAMPLE_ROWS / 100) >= rows)) return { estimated: actual, actual }; // ~100 rows of it in the sample
    const vals = row?.vals ?? [];
    const freqs = row?.freqs ?? [];
    const at = vals.indexOf(this.ns);
    if (at >= 0) return { estimated: freqs[at] * rows, actual };
    const distinct = (row?.n_distinct ?? 0) < 0 ? -row!.n_distinct! * rows : (row?.n_distinct ?? 0);
    const rest = Math.max(0, 1 - freqs.reduce((a, b) => a + b, 0));
    return { estimated: (rest * rows) / Math.max(1, distinct - vals.length), actual };
  }

  /** Whether a namespace of `actual` chunks has more than twice the `estimated` the statistics give it (and enough to matter). */
  private outgrew(estimated: number, actual: number): boolean {
    return actual > Math.max(STATS_MIN_CHUNKS, 2 * estimated);
  }

  /** Edges' row count as the planner last counted it, after analyzing the table first when `analyze`. */
  private async edgeStatistics(analyze: boolean): Promise<void> {
    if (analyze) await this.db.maintenance("ANALYZE edges");
    this.edgeStatsRows = Math.max(0, (await this.db.query<{ rows: number }>("SELECT reltuples::float8 AS rows FROM pg_class WHERE oid = 'edges'::regclass"))[0]?.rows ?? 0);
    this.edgesSinceStats = 0;
  }

  /**
   * After committed edges: the edges table analyzed once it has outgrown its statistics by half. Without this,
   * the edge lookups of every search (supersession, the graph channel) ran on a table the planner still thought
   * nearly empty until autovacuum came by: 200 ms of annotation a query after 10,000 edges at 100,000 chunks,
   * against 6 ms once analyzed (cascade bench on a server, docs/SCALING.md).
   */
  async wroteEdges(edges: number): Promise<void> {
    this.edgesSinceStats += edges;
    if (this.edgesSinceStats > Math.max(STATS_MIN_CHUNKS, this.edgeStatsRows / 2)) await this.edgeStatistics(true);
  }

  /**
   * After a committed write of `chunks` chunks: statistics refreshed when the tables have outgrown them. On a
   * server the refresh runs on another connection while the writer goes on: analyzing in between the writes cost
   * a bulk load of 100,000 chunks 12 s of its 50 (docs/SCALING.md). settle() and close() wait for it.
   */
  async wrote(chunks: number): Promise<void> {
    this.writtenSinceStats += chunks;
    if (this.refreshing) return; // the writes since it started are counted for the next
    const grown = this.outgrew(Math.max(this.namespaceStatsRows, this.namespaceRows / 2), this.namespaceRows + this.writtenSinceStats);
    if (!(this.writtenSinceStats > Math.max(STATS_MIN_CHUNKS, this.statsRows / 2) || grown)) return;
    if (!this.db.concurrent) return this.refreshStatistics(true);
    // a failed refresh leaves the old statistics, and the next write tries again
    this.refreshing = this.refreshStatistics(true)
      .catch(() => {})
      .finally(() => (this.refreshing = null));
  }

  /** Waits for a refresh running beside the writes, if any (settle and close wait for it). */
  async settled(): Promise<void> {
    await this.refreshing;
  }
}
