/**
 * @module backends/postgres/store
 * The PostgreSQL store: the Store port over a Database (connection.ts: PGlite in process, or a `pg` pool),
 * with the SQLite store's behaviour and PostgreSQL's means: BM25 from postings in SQL (lexical-sql.ts), exact
 * inner-product search in pgvector (vector-sql.ts), topics as ltree (topics-sql.ts). One store reads and writes
 * one namespace (schema.ts: the leading column of every table), so many stores can share a database.
 *
 * Writes: every write runs in one transaction that first takes a transaction-scoped advisory lock on its
 * namespace, so writers of one namespace take turns, as SQLite's single writer does: the cycle check of an
 * edge, the vocabulary counts and the corpus counts are read and written by one writer at a time, and
 * read-committed isolation then sees every earlier writer's commit. Reads run outside transactions.
 * A thin class: one short method per port method; the SQL lives in the `*-sql.ts` modules beside it.
 */
import { CascadeError } from "../../errors.js";
import type { Edge, EdgeDraft, EdgeType, Suggestion } from "../../model/graph.js";
import type { PyramidNode } from "../../model/pyramid.js";
import type { Memory, PreparedMemory, Ranked, SearchFilter, TurnContext } from "../../model/types.js";
import type { Scope } from "../../model/scope.js";
import type { EntityReads } from "../../ports/entities.js";
import type { DoctorCheck, EmbedderStamp, HydratedChunk, LexicalQuery, ListQuery, NodeQuery, SessionNeighbours, Store, StoreReembed, StoreStats } from "../../ports/store.js";
import type { Window, WindowLevel } from "../../time/windows.js";
import type { Database, Queryable } from "./connection.js";
import { runDoctor } from "./doctor.js";
import { postgresEntityReads } from "./entities-sql.js";
import * as graph from "./graph-sql.js";
import * as lexical from "./lexical-sql.js";
import { listMemoryRowids } from "./list-sql.js";
import * as rows from "./memory-sql.js";
import { MEMORY_COLUMNS, toMemory, type MemoryRow } from "./memory-sql.js";
import * as pyramid from "./pyramid-sql.js";
import { migrate, TABLES } from "./schema.js";
import { postgresEnrichmentFailures } from "./enrichment-sql.js";
import type { EnrichmentFailures } from "../../ports/enrichment.js";
import { dropNamespace } from "./drop-sql.js";
import { addCounts, counts } from "./index-sql.js";
import { insertMemories } from "./write-sql.js";
import * as copy from "./copy-sql.js";
import type { StoreCopy } from "../../ports/copy.js";
import * as topics from "./topics-sql.js";
import * as vectors from "./vector-sql.js";
import { MatrixVectors } from "./vector-matrix.js";
import * as reembed from "./reembed-sql.js";
import { defaultApproximateSearch, ensureHnswIndex, isLightFilter, nearestByGraph, type ApproximateSearch } from "./hnsw-sql.js";

export interface PostgresStoreOptions {
  /** The namespace this store reads and writes (default 'default'). */
  namespace?: string;
  /** Approximate dense search (HNSW) for large namespaces (hnsw-sql.ts); false: always exact. */
  approximate?: Partial<ApproximateSearch> | false;
  /** A throwaway namespace: everything in it (rows and HNSW index) is deleted when the store is closed. */
  dropOnClose?: boolean;
}

export const DEFAULT_PG_NAMESPACE = "default";

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

export class PostgresStore implements Store {
  readonly entities: EntityReads;
  readonly enrichment: EnrichmentFailures;

  readonly copy: StoreCopy = {
    read: (section, page) => copy.readSection(this.db, this.ns, section, page),
    write: async (section, records, mark) => {
      await this.wrote(
        await this.write(async (tx) => {
          const chunks = await copy.writeSection(tx, this.ns, section, records);
          if (mark !== undefined) await copy.setCopyMark(tx, this.ns, mark);
          return chunks;
        }),
      );
    },
    mark: () => copy.copyMark(this.db, this.ns),
    setMark: (mark) => copy.setCopyMark(this.db, this.ns, mark),
    counts: () => copy.copyCounts(this.db, this.ns),
    fingerprint: () => copy.copyFingerprint(this.db, this.ns),
    namespaces: () => copy.namespaces(this.db),
  };

  readonly reembed: StoreReembed = {
    start: (target) => this.write((tx) => reembed.start(tx, this.ns, target)),
    progress: () => reembed.progress(this.db, this.ns),
    todo: (after, limit) => reembed.todo(this.db, this.ns, after, limit),
    save: (rows) => this.write((tx) => reembed.save(tx, this.ns, rows)),
    switchOver: async () => {
      const missing = await this.write((tx) => reembed.switchOver(tx, this.ns));
      if (missing === 0) {
        // every vector changed: what this process derived from them is read again (the HNSW index is per dimension)
        this.graphReady = undefined;
        this.nullSample.sample = null;
        this.matrix?.reset();
      }
      return missing;
    },
  };

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

  /** The HNSW settings, or null for exact search only; and the index's build, once this store needed it. */
  private readonly approximate: ApproximateSearch | null;
  private graphReady: Promise<boolean> | undefined;
  /** The chunks the dense channel's similarity distribution is sampled from, while the namespace is unchanged (vector-sql.ts). */
  private readonly nullSample: { sample: vectors.NullSample | null } = { sample: null };
  /** Dense search in this process, on a server without pgvector (vector-matrix.ts); null where pgvector searches. */
  private readonly matrix: MatrixVectors | null;

  private constructor(
    private readonly db: Database,
    readonly namespace: string,
    approximate: PostgresStoreOptions["approximate"],
    private readonly dropOnClose: boolean,
    private readonly pgvector: boolean,
  ) {
    this.entities = postgresEntityReads(db, namespace);
    this.enrichment = postgresEnrichmentFailures(db, namespace, (fn) => this.write(fn));
    this.approximate = approximate === false || !pgvector ? null : { ...defaultApproximateSearch, ...approximate };
    this.matrix = pgvector ? null : new MatrixVectors(db, namespace);
  }

  /** Opens a store on a database: applies the migrations it lacks, then serves one namespace. */
  static async open(db: Database, options: PostgresStoreOptions = {}): Promise<PostgresStore> {
    try {
      await migrate(db);
    } catch (err) {
      await db.close().catch(() => {});
      if (err instanceof CascadeError) throw err;
      throw new CascadeError("STORE_ERROR", `cannot open the store at ${db.label}: ${(err as Error).message}`, { cause: err });
    }
    if (options.dropOnClose && (options.namespace ?? DEFAULT_PG_NAMESPACE) === DEFAULT_PG_NAMESPACE) {
      await db.close().catch(() => {});
      throw new CascadeError("INVALID_INPUT", "a store dropped on close needs a namespace of its own, never the default one");
    }
    const store = new PostgresStore(db, options.namespace ?? DEFAULT_PG_NAMESPACE, options.approximate, Boolean(options.dropOnClose), await hasPgvectorColumn(db));
    await store.refreshStatistics(false);
    return store;
  }

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
  private async refreshStatistics(force: boolean): Promise<void> {
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
  private async wroteEdges(edges: number): Promise<void> {
    this.edgesSinceStats += edges;
    if (this.edgesSinceStats > Math.max(STATS_MIN_CHUNKS, this.edgeStatsRows / 2)) await this.edgeStatistics(true);
  }

  /**
   * After a committed write of `chunks` chunks: statistics refreshed when the tables have outgrown them. On a
   * server the refresh runs on another connection while the writer goes on: analyzing in between the writes cost
   * a bulk load of 100,000 chunks 12 s of its 50 (docs/SCALING.md). settle() and close() wait for it.
   */
  private async wrote(chunks: number): Promise<void> {
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

  /** One write transaction, holding this namespace's write lock (see the module note). */
  private write<T>(fn: (tx: Queryable) => Promise<T>): Promise<T> {
    return this.db.transaction(async (tx) => {
      await tx.query("SELECT pg_advisory_xact_lock(hashtextextended($1, 0))", [`cascade:${this.namespace}`]);
      return fn(tx);
    });
  }

  private get ns(): string {
    return this.namespace;
  }

  async embedderStamp(): Promise<EmbedderStamp | null> {
    return rows.embedderStamp(this.db, this.ns);
  }

  async writeMemories(memories: PreparedMemory[], stamp: EmbedderStamp, edges: EdgeDraft[] = []): Promise<Edge[]> {
    let chunks = 0;
    const written = await this.write(async (tx) => {
      chunks = 0; // a retried transaction starts over
      await rows.checkStamp(tx, this.ns, stamp);
      chunks = (await insertMemories(tx, this.ns, memories)).chunks;
      await addCounts(tx, this.ns, { chunk_count: chunks });
      return graph.insertEdges(tx, this.ns, edges);
    });
    await this.wrote(chunks);
    if (written.length > 0) await this.wroteEdges(written.length);
    return written;
  }

  async getMemory(id: string): Promise<Memory | null> {
    return rows.getMemory(this.db, this.ns, id);
  }

  async getMemories(ids: string[]): Promise<Map<string, Memory>> {
    return rows.getMemories(this.db, this.ns, ids);
  }

  async reviseMemory(next: PreparedMemory, stamp: EmbedderStamp, recordedAt: number): Promise<void> {
    await this.write(async (tx) => {
      await rows.checkStamp(tx, this.ns, stamp);
      await rows.reviseMemoryRow(tx, this.ns, next, recordedAt);
    });
  }

  async memoryRevisions(id: string): Promise<{ recordedAt: number; memory: Memory }[]> {
    return rows.revisionsOf(this.db, this.ns, id);
  }

  async listMemories(query: ListQuery): Promise<{ memories: Memory[]; more: boolean }> {
    const found = await listMemoryRowids(this.db, this.ns, query);
    return { memories: await rows.memoriesByRowids(this.db, this.ns, found.slice(0, query.limit)), more: found.length > query.limit };
  }

  async previousInSession(session: string, at: string, scope: Scope): Promise<TurnContext | null> {
    return rows.previousInSession(this.db, this.ns, session, at, scope);
  }

  async deleteMemory(id: string): Promise<boolean> {
    return this.write(async (tx) => {
      const rowid = await rows.memoryRowid(tx, this.ns, id);
      if (rowid === undefined) return false;
      await pyramid.markDirty(tx, this.ns, [rowid]);
      await rows.stripContextOf(tx, this.ns, rowid);
      for (const turn of await pyramid.turnNodesOf(tx, this.ns, rowid)) await rows.removeMemoryRow(tx, this.ns, turn, `the turn summary of ${id}`);
      await rows.removeMemoryRow(tx, this.ns, rowid, id);
      return true;
    });
  }

  /**
   * Drops vocabulary words no chunk uses any more, then asks the server to VACUUM the tables (outside any
   * transaction). Freed space and the write-ahead log are the server's to reclaim, on its own schedule: no
   * checkpoint is forced (it needs privileges an application role rarely has), so `checkpointed` is false.
   */
  async purgeDeleted(): Promise<{ terms_dropped: number; checkpointed: boolean }> {
    const dropped = await this.write(async (tx) => (await tx.query("DELETE FROM terms WHERE namespace = $1 AND df <= 0 RETURNING id", [this.ns])).length);
    for (const table of ["terms", "postings", "curated_postings", "chunks", "memories"]) await this.db.maintenance(`VACUUM ${table}`);
    return { terms_dropped: dropped, checkpointed: false };
  }

  async memoryIdsByImportKey(keys: string[]): Promise<Map<string, string>> {
    if (keys.length === 0) return new Map();
    const found = await this.db.query<{ import_key: string; id: string }>(
      "SELECT import_key, id FROM memories WHERE namespace = $1 AND import_key = ANY($2::text[])",
      [this.ns, keys],
    );
    return new Map(found.map((r) => [r.import_key, r.id]));
  }

  async hydrate(chunkIds: number[]): Promise<Map<number, HydratedChunk>> {
    return rows.hydrate(this.db, this.ns, chunkIds);
  }

  async searchBody(query: LexicalQuery): Promise<Ranked[]> {
    return lexical.searchBody(this.db, this.ns, query);
  }

  async searchCurated(query: LexicalQuery): Promise<Ranked[]> {
    return lexical.searchCurated(this.db, this.ns, query);
  }

  async indexKeys(words: string[]): Promise<Map<string, string>> {
    return lexical.indexKeys(words);
  }

  async nearestChunks({ vector, depth, filter }: { vector: Float32Array; depth: number; filter: SearchFilter }): Promise<Ranked[]> {
    if (this.matrix) return this.matrix.nearest(vector, depth, filter);
    const graph = await this.graphDimensions(filter);
    if (graph !== null) return nearestByGraph(this.db, this.ns, graph, vector, depth, filter, this.approximate!.efSearch);
    return vectors.nearestChunks(this.db, this.ns, vector, depth, filter);
  }

  async nearestChunksMany({ vectors, depth }: { vectors: Float32Array[]; depth: number }): Promise<Ranked[][]> {
    // one query at a time: the pool's connections serve the other requests meanwhile
    const out: Ranked[][] = [];
    for (const vector of vectors) out.push(await this.nearestChunks({ vector, depth, filter: {} }));
    return out;
  }

  /**
   * The vector size of the namespace's HNSW index when this search should walk it (a light filter over a
   * namespace above the threshold, pgvector 0.8 or later), building the index the first time; null for the exact scan.
   */
  private async graphDimensions(filter: SearchFilter): Promise<number | null> {
    if (!this.approximate || !isLightFilter(filter)) return null;
    if ((await counts(this.db, this.ns)).chunk_count < this.approximate.above) return null;
    const stamp = await this.embedderStamp();
    if (!stamp) return null;
    this.graphReady ??= ensureHnswIndex(this.db, this.ns, stamp.dimensions, this.approximate).catch((err) => {
      this.graphReady = undefined; // tried again by the next search
      throw err;
    });
    return (await this.graphReady) ? stamp.dimensions : null;
  }

  async similarityNull(vector: Float32Array): Promise<{ mean: number; sd: number; rows: number }> {
    if (this.matrix) return this.matrix.similarityNull(vector);
    return vectors.similarityNull(this.db, this.ns, vector, this.nullSample);
  }

  async termsAfter(afterId: number): Promise<{ id: number; term: string }[]> {
    return lexical.termsAfter(this.db, this.ns, afterId);
  }

  async chunksWithTerms(query: { terms: string[]; filter: SearchFilter }): Promise<Map<string, number[]>> {
    return lexical.chunksWithTerms(this.db, this.ns, query.terms, query.filter);
  }

  async memoryIdsOfChunks(chunkIds: number[]): Promise<Map<number, string>> {
    return rows.ownersOf(this.db, this.ns, chunkIds);
  }

  async termStats(terms: string[]): Promise<{ chunks: number; df: Map<string, number> }> {
    return lexical.termStats(this.db, this.ns, terms);
  }

  async sessionNeighbours(memoryIds: string[], window: number): Promise<Map<string, SessionNeighbours>> {
    return rows.sessionNeighbours(this.db, this.ns, memoryIds, window);
  }

  async speakersOf(memoryIds: string[]): Promise<Map<string, string>> {
    return rows.speakersOf(this.db, this.ns, memoryIds);
  }

  async eventTimes(memoryIds: string[]): Promise<Map<string, number>> {
    return rows.eventTimes(this.db, this.ns, memoryIds);
  }

  async firstChunkIds(memoryIds: string[]): Promise<Map<string, number>> {
    return rows.firstChunkIds(this.db, this.ns, memoryIds);
  }

  async addEdges(drafts: EdgeDraft[]): Promise<Edge[]> {
    const written = await this.write((tx) => graph.insertEdges(tx, this.ns, drafts));
    await this.wroteEdges(written.length);
    return written;
  }

  async retractEdge(id: string, at: number): Promise<Edge> {
    return this.write((tx) => graph.retractEdge(tx, this.ns, id, at));
  }

  async edgesTouching(memoryIds: string[], type?: EdgeType): Promise<Edge[]> {
    return graph.edgesTouching(this.db, this.ns, memoryIds, type);
  }

  async addSuggestions(suggestions: Omit<Suggestion, "id" | "status">[]): Promise<void> {
    await this.write(async (tx) => {
      for (const s of suggestions) await graph.insertSuggestion(tx, this.ns, s);
    });
  }

  async listSuggestions(status?: Suggestion["status"]): Promise<Suggestion[]> {
    return graph.listSuggestions(this.db, this.ns, status);
  }

  async decideSuggestion(id: string, decision: "accepted" | "rejected", at: number, edge?: EdgeDraft): Promise<Suggestion> {
    return this.write(async (tx) => {
      const s = await graph.decideSuggestion(tx, this.ns, id, decision, at);
      if (edge) await graph.insertEdge(tx, this.ns, edge);
      return s;
    });
  }

  async dirtyWindows(): Promise<{ level: WindowLevel; start: number }[]> {
    return pyramid.dirtyWindows(this.db, this.ns);
  }

  async clearDirtyWindows(windows: { level: WindowLevel; start: number }[]): Promise<void> {
    await this.write((tx) => pyramid.clearDirtyWindows(tx, this.ns, windows));
  }

  async pyramidZone(): Promise<string> {
    return pyramid.pyramidZone(this.db, this.ns);
  }

  async setPyramidZone(zone: string): Promise<void> {
    await this.write(async (tx) => {
      const nodes = await tx.query<{ rowid: number; id: string }>(
        "SELECT m.rowid, m.id FROM summary_nodes n JOIN memories m ON m.namespace = n.namespace AND m.rowid = n.memory_rowid WHERE n.namespace = $1",
        [this.ns],
      );
      for (const n of nodes) await rows.removeMemoryRow(tx, this.ns, n.rowid, n.id);
      await tx.query("DELETE FROM dirty_windows WHERE namespace = $1", [this.ns]);
      await tx.query(
        "INSERT INTO meta (namespace, key, value) VALUES ($1, 'pyramid_zone', $2) ON CONFLICT (namespace, key) DO UPDATE SET value = excluded.value",
        [this.ns, zone],
      );
      await pyramid.markAllDirty(tx, this.ns);
    });
  }

  async windowInputs(window: Window): Promise<Memory[]> {
    const rowids = await pyramid.windowInputRowids(this.db, this.ns, window.level, window.start, window.end);
    const found = await this.db.query<MemoryRow>(
      `SELECT ${MEMORY_COLUMNS} FROM memories m WHERE m.namespace = $1 AND m.rowid = ANY($2::bigint[]) ORDER BY m.at_ms, m.rowid`,
      [this.ns, rowids],
    );
    return found.map(toMemory);
  }

  async writeSummary(node: PreparedMemory, window: Window | { level: "turn"; start: number; end: number }, childIds: string[], stamp: EmbedderStamp, sources: string[] = []): Promise<boolean> {
    const written = await this.write(async (tx) => {
      // the rows read are locked (FOR SHARE) until commit: a concurrent forget waits, then marks and rebuilds the window
      const locked = await pyramid.lockAll(tx, this.ns, [...childIds, ...sources]);
      if (!locked) return false;
      await rows.checkStamp(tx, this.ns, stamp);
      const old = await pyramid.nodeRowidById(tx, this.ns, node.memory.id);
      if (old !== undefined) await rows.removeMemoryRow(tx, this.ns, old, node.memory.id);
      const { rowids: [rowid], chunks } = await insertMemories(tx, this.ns, [node]);
      await addCounts(tx, this.ns, { chunk_count: chunks });
      await pyramid.insertNode(tx, this.ns, rowid, window.level, window.start, window.end, [...new Set(childIds)].map((id) => locked.get(id)!));
      return true;
    });
    if (written) await this.wrote(node.chunks.length);
    return written;
  }


  async getMeta(key: string): Promise<string | null> {
    const [row] = await this.db.query<{ value: string }>("SELECT value FROM meta WHERE namespace = $1 AND key = $2", [this.ns, `engine.${key}`]);
    return row?.value ?? null;
  }

  async setMeta(key: string, value: string): Promise<void> {
    await this.db.query(
      "INSERT INTO meta (namespace, key, value) VALUES ($1, $2, $3) ON CONFLICT (namespace, key) DO UPDATE SET value = excluded.value",
      [this.ns, `engine.${key}`, value],
    );
  }

  async memoriesWithoutTurnNode(): Promise<string[]> {
    return pyramid.memoriesWithoutTurnNode(this.db, this.ns);
  }

  async deleteSummary(id: string): Promise<boolean> {
    return this.write(async (tx) => {
      const rowid = await pyramid.nodeRowidById(tx, this.ns, id);
      if (rowid === undefined) return false;
      await rows.removeMemoryRow(tx, this.ns, rowid, id);
      return true;
    });
  }

  async pyramidNodes(query: NodeQuery = {}): Promise<PyramidNode[]> {
    return pyramid.listNodes(this.db, this.ns, query);
  }

  async summaryChildren(id: string): Promise<string[]> {
    return pyramid.childIds(this.db, this.ns, id);
  }

  async topicRows(under?: string): Promise<{ path: string; description: string | null }[]> {
    return topics.topicRows(this.db, this.ns, under);
  }

  async saveTopic(path: string, description: string | null, at: number): Promise<void> {
    await this.write((tx) => topics.upsertTopic(tx, this.ns, path, description, at));
  }

  async moveTopic(from: string, to: string, options: { merge: boolean }): Promise<number> {
    return this.write((tx) => topics.repath(tx, this.ns, from, to, options.merge));
  }

  async deleteTopic(path: string): Promise<number> {
    return this.write(async (tx) => {
      const held = await topics.memoriesUnder(tx, this.ns, path);
      if (held > 0) throw new CascadeError("INVALID_INPUT", `topic: ${path} still holds ${held} memories (move, merge or forget them first)`, { field: "topic" });
      return topics.deleteTopicRows(tx, this.ns, path);
    });
  }

  async topicVectorSums(): Promise<Map<string, { count: number; sum: Float32Array }>> {
    return vectors.topicVectorSums(this.db, this.ns, this.pgvector);
  }

  async topicCounts(under?: string): Promise<{ path: string; count: number }[]> {
    return topics.topicCounts(this.db, this.ns, under);
  }

  /** Counts for this namespace; `bytes` is the size of the store's tables on the server, all namespaces together. */
  async stats(): Promise<StoreStats> {
    const [row] = await this.db.query<{ memories: number; summaries: number; chunks: number; terms: number; bytes: number }>(
      `SELECT (SELECT count(*) FROM memories WHERE namespace = $1)::int AS memories,
              (SELECT count(*) FROM summary_nodes WHERE namespace = $1)::int AS summaries,
              (SELECT count(*) FROM chunks WHERE namespace = $1)::int AS chunks,
              (SELECT count(*) FROM terms WHERE namespace = $1)::int AS terms,
              (SELECT coalesce(sum(pg_total_relation_size(t::regclass)), 0) FROM unnest($2::text[]) AS t)::float8 AS bytes`,
      [this.ns, [...TABLES]],
    );
    return { memories: row.memories - row.summaries, summaries: row.summaries, chunks: row.chunks, terms: row.terms, bytes: row.bytes };
  }

  /**
   * After a bulk load: fresh planner statistics, so the next queries are planned for the data they will read, and
   * the HNSW index of a namespace now above the threshold, so its build (about a minute at 50,000 chunks on
   * PGlite) is paid here rather than by the first search.
   */
  async settle(): Promise<void> {
    await this.refreshing;
    await this.refreshStatistics(true);
    await this.graphDimensions({});
    const stamp = this.matrix && (await this.embedderStamp());
    if (stamp) await this.matrix!.similarityNull(new Float32Array(stamp.dimensions)); // reads the vectors in
  }

  async memoryIdsInOrder(): Promise<string[]> {
    return (await this.db.query<{ id: string }>("SELECT id FROM memories WHERE namespace = $1 ORDER BY rowid", [this.ns])).map((r) => r.id);
  }

  allVectors(): AsyncIterable<[number, Float32Array]> {
    return vectors.vectorsAfter(this.db, this.ns);
  }

  async doctor(repair: boolean): Promise<DoctorCheck[]> {
    return runDoctor(this.db, this.ns, (await this.embedderStamp())?.dimensions ?? null, repair);
  }

  private closed = false;

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    try {
      await this.refreshing;
      if (this.dropOnClose) await dropNamespace(this.db, this.ns);
    } finally {
      await this.db.close();
    }
  }
}

/** Whether `chunks.vector` is pgvector's type (else `real[]`: a server without pgvector, schema.ts). */
async function hasPgvectorColumn(db: Database): Promise<boolean> {
  const [row] = await db.query<{ type: string }>("SELECT format_type(atttypid, atttypmod) AS type FROM pg_attribute WHERE attrelid = 'chunks'::regclass AND attname = 'vector'");
  return row?.type === "vector";
}
