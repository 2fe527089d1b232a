/**
 * @module backends/sqlite/store
 * The embedded default store: SQLite tables are the source of truth (memories, chunks, terms, postings), FTS5
 * indexes live in the same file, and the dense index is an in-memory matrix derived from the chunk vectors.
 * A thin class owning the connection, the statement cache and the transactions, one short method per port method
 * (about fifty); the SQL lives in the `*-sql.ts` modules beside it, the bodies of its larger write transactions
 * in memory-writes.ts and pyramid-writes.ts, the reads with expiry applied in live-search.ts, the dense index in
 * vector-index.ts, the worker threads in threads.ts. Just over 400 lines on purpose: one short method for each of
 * the port's methods, so that the whole port reads in one file.
 */
import { rmSync } from "node:fs";
import type Database from "better-sqlite3";
import { CascadeError, storeFailure } from "../../errors.js";
import type { Edge, EdgeDraft, EdgeType, Suggestion } from "../../model/graph.js";
import type { Memory, PreparedMemory, Ranked, SearchFilter, TurnContext } from "../../model/types.js";
import type { Scope } from "../../model/scope.js";
import type { DoctorCheck, EmbedderStamp, HydratedChunk, LexicalQuery, ListQuery, NodeQuery, SessionNeighbours, Store, StoreReembed, StoreStats } from "../../ports/store.js";
import { listMemoryIds } from "./list-sql.js";
import { doctorStore } from "./doctor-store.js";
import type { PyramidNode } from "../../model/pyramid.js";
import type { Window, WindowLevel } from "../../time/windows.js";
import { fromBlob } from "../../vectors/math.js";
import { openConnection, type Connection } from "./connection.js";
import { refuseWritesWhileDamaged } from "./damage.js";
import * as graph from "./graph-sql.js";
import { sqliteEntityReads } from "./entities-sql.js";
import { sqliteEnrichmentFailures } from "./enrichment-sql.js";
import { LexicalSql, SELECTIVE_CHUNKS } from "./lexical-sql.js";
import * as rows from "./memory-sql.js";
import * as writes from "./memory-writes.js";
import * as pyramidWrites from "./pyramid-writes.js";
import * as upkeep from "./upkeep-sql.js";
import * as pyramid from "./pyramid-sql.js";
import * as topics from "./topics-sql.js";
import { migrate } from "./schema.js";
import { LiveSearch } from "./live-search.js";
import { availableParallelism } from "node:os";
import { defaultApproximateSearch, VectorIndex, type ApproximateSearch } from "./vector-index.js";
import { cachedStatement, StatementCache } from "./statement-cache.js";
import { purgeDeleted, type PurgeReport } from "./purge.js";
import { idsByImportKey } from "./import-keys-sql.js";
import { sqliteStoreCopy } from "./copy-sql.js";
import type { StoreCopy } from "../../ports/copy.js";
import { OwnerCache } from "./owner-cache.js";
import { chunkGeneration, withGenerations } from "./version.js";
import { sqliteStoreReembed } from "./reembed-sql.js";
import { writeBatch } from "./write-batch.js";
import { StoreThreads, type SideReaderWanted, type WriteThreadWanted } from "./threads.js";

export interface SqliteStoreOptions {
  /** Largest filter result applied in memory rather than by a join (tests set 0 to exercise the join). */
  selectiveChunks?: number;
  /** A scratch store (bench, eval) alone in this folder: the folder is removed when the store closes. */
  scratchDir?: string;
  /** Approximate dense search for large stores (backends/sqlite/vector-index.ts); false: always exact. */
  approximate?: Partial<Omit<ApproximateSearch, "path">> | false;
  /**
   * FTS5's reads on their own connections in worker threads (side-reader.ts) once the store holds `minChunks`
   * chunks, so that a search's lexical and vector work run side by side: BM25's ranking on one thread and late
   * interaction's posting lists on another (`threads`: 2, the default), or both on one; false: never.
   */
  sideReader?: SideReaderWanted;
  /**
   * New memories' batches of at least `minChunks` chunks are written on another connection in a worker thread
   * (write-thread.ts), so that a large write's transaction does not hold the caller's thread; false: never.
   */
  writeThread?: WriteThreadWanted;
}

export { SIDE_READER_MIN_CHUNKS, WRITE_THREAD_MIN_CHUNKS } from "./threads.js";

export class SqliteStore implements Store {
  private readonly db: Connection;
  private readonly statements = new StatementCache<Database.Statement>();
  private readonly vectors: VectorIndex;
  private readonly lexical: LexicalSql;
  /** The channel reads with expiry applied (live-search.ts). */
  private readonly live: LiveSearch;

  constructor(readonly path: string, private readonly options: SqliteStoreOptions = {}) {
    try {
      this.db = openConnection(path);
      migrate(this.db);
      refuseWritesWhileDamaged(this.db, path);
    } catch (err) {
      if (err instanceof CascadeError) throw err;
      // a full disk met while opening (the shared-memory file, a migration) is named as one, not "disk I/O error"
      const code = (err as { code?: unknown })?.code;
      if (code === "SQLITE_FULL" || code === "SQLITE_IOERR_SHMSIZE") throw storeFailure(err, `the store ${path}`)!;
      throw new CascadeError("STORE_ERROR", `cannot open the store at ${path}: ${(err as Error).message}`, { cause: err });
    }
    this.threads = new StoreThreads(path, options, () => rows.chunkCount(this.prepare));
    this.lexical = new LexicalSql(this.prepare, options.selectiveChunks ?? SELECTIVE_CHUNKS, this.owners, (job) => this.threads.sideReader(job));
    this.vectors = new VectorIndex(
      // a prepared statement: db.pragma() prepares anew on every call, and this is asked several times a search
      () => this.stmt("SELECT data_version FROM pragma_data_version").pluck().get() as number,
      () => chunkGeneration(this.prepare),
      () => this.stmt("SELECT id, vector FROM chunks").raw().iterate() as Iterable<[number, Buffer]>,
      () => rows.chunkCount(this.prepare),
      options.approximate === false
        ? null
        : { ...defaultApproximateSearch, threads: availableParallelism(), ...options.approximate, path: path === ":memory:" ? null : `${path}.hnsw` },
    );
    this.live = new LiveSearch(this.prepare, this.lexical, this.vectors, this.owners, this.threads);
    this.reembed = sqliteStoreReembed(this.db, () => {
      // every vector changed (and perhaps their size): the matrix and the saved graph are rebuilt from the table
      this.vectors.invalidate();
    });
  }

  private readonly prepare = (sql: string) => this.stmt(sql);
  private readonly owners = new OwnerCache(this.prepare);
  /** The reader threads and the write thread, each started the first time a large enough job comes (threads.ts). */
  private readonly threads: StoreThreads;
  readonly entities = sqliteEntityReads(this.prepare, this.owners);
  readonly enrichment = sqliteEnrichmentFailures(this.prepare, (fn) => this.db.transaction(fn)());

  readonly copy: StoreCopy = sqliteStoreCopy(this.prepare, (fn) => this.chunkWrite(fn), (added) => this.vectors.add(added));

  readonly reembed: StoreReembed;

  /**
   * A write transaction that adds or deletes chunks, whose chunks the caller then hands to the vector index (`add`,
   * `forget`): the chunk generation is read at its start and its end, so that the index knows its own write from
   * another connection's (vector-index.ts) and does not read the table again for it.
   */
  private chunkWrite<T>(fn: () => T): T {
    const { result, before, after } = withGenerations(this.db, this.prepare, fn);
    this.vectors.ownWrite(before, after);
    return result;
  }

  /** A cached prepared statement in plain object mode (statement-cache.ts). */
  private stmt(sql: string): Database.Statement {
    return cachedStatement(this.db, this.statements, sql);
  }

  async embedderStamp(): Promise<EmbedderStamp | null> {
    return rows.embedderStamp(this.prepare);
  }

  async writeMemories(memories: PreparedMemory[], stamp: EmbedderStamp, edges: EdgeDraft[] = []): Promise<Edge[]> {
    const thread = this.threads.writeThread(memories, stamp);
    if (thread) {
      const done = await thread.write(memories, stamp, edges);
      const vectors = memories.flatMap((p) => p.chunks.map((c) => c.vector));
      this.vectors.addOwn(done.before, done.after, done.chunkIds.map((chunkId, i) => ({ chunkId, vector: vectors[i] })));
      return done.edges;
    }
    const { chunks, edges: written } = this.chunkWrite(() => writeBatch(this.prepare, memories, stamp, edges));
    this.vectors.add(chunks);
    return written;
  }

  async getMemory(id: string): Promise<Memory | null> {
    return rows.getMemory(this.prepare, id);
  }

  async getMemories(ids: string[]): Promise<Map<string, Memory>> {
    // in process, one prepared lookup a memory costs less than assembling an IN list
    const out = new Map<string, Memory>();
    for (const id of ids) {
      const m = out.has(id) ? null : rows.getMemory(this.prepare, id);
      if (m) out.set(id, m);
    }
    return out;
  }

  async reviseMemory(next: PreparedMemory, stamp: EmbedderStamp, recordedAt: number): Promise<void> {
    const { removed, added } = this.chunkWrite(() => writes.reviseMemory(this.prepare, next, stamp, recordedAt));
    this.vectors.forget(removed);
    this.vectors.add(added);
  }

  async memoryRevisions(id: string): Promise<{ recordedAt: number; memory: Memory }[]> {
    return rows.revisionsOf(this.prepare, id);
  }

  async listMemories(query: ListQuery): Promise<{ memories: Memory[]; more: boolean }> {
    const found = listMemoryIds(this.prepare, query);
    const memories = found.slice(0, query.limit).map((r) => rows.getMemory(this.prepare, r.id)!);
    return { memories, more: found.length > query.limit };
  }

  async deleteMemory(id: string): Promise<boolean> {
    const chunkIds: number[] = [];
    const deleted = this.chunkWrite(() => writes.deleteMemory(this.prepare, id, chunkIds));
    this.vectors.forget(chunkIds);
    return deleted;
  }

  async purgeDeleted(): Promise<PurgeReport> {
    const report = purgeDeleted(this.db);
    // the saved vector graph is a copy of the vectors too: rewritten without the forgotten ones
    this.vectors.purge((await this.embedderStamp().catch(() => null))?.dimensions ?? null);
    return report;
  }

  async memoryIdsByImportKey(keys: string[]): Promise<Map<string, string>> {
    return idsByImportKey(this.prepare, keys);
  }

  async previousInSession(session: string, at: string, scope: Scope): Promise<TurnContext | null> {
    return rows.previousInSession(this.prepare, session, at, scope);
  }

  async hydrate(chunkIds: number[]): Promise<Map<number, HydratedChunk>> {
    return rows.hydrate(this.prepare, chunkIds);
  }

  async searchBody(query: LexicalQuery): Promise<Ranked[]> {
    return this.live.searchBody(query);
  }

  async indexKeys(words: string[]): Promise<Map<string, string>> {
    return this.lexical.indexKeys(words);
  }

  async searchCurated(query: LexicalQuery): Promise<Ranked[]> {
    return this.live.searchCurated(query);
  }

  async nearestChunks(query: { vector: Float32Array; depth: number; filter: SearchFilter; alongside?: boolean }): Promise<Ranked[]> {
    return this.live.nearestChunks(query);
  }

  async nearestChunksMany({ vectors, depth }: { vectors: Float32Array[]; depth: number }): Promise<Ranked[][]> {
    return this.vectors.nearestMany(vectors, depth, (ids) => this.owners.ownersOf(ids));
  }

  async similarityNull(vector: Float32Array): Promise<{ mean: number; sd: number; rows: number }> {
    return this.vectors.similarityNull(vector);
  }

  /** Folds the write-ahead log into the database file (after a bulk load, before timing reads). */
  async settle(): Promise<void> {
    this.db.pragma("wal_checkpoint(TRUNCATE)");
    this.vectors.persist();
  }

  async memoryIdsInOrder(): Promise<string[]> {
    return upkeep.memoryIdsInOrder(this.prepare);
  }

  /** Every chunk vector, straight from the table, one at a time (for checks against the derived index). */
  async *allVectors(): AsyncGenerator<[number, Float32Array]> {
    for (const [id, blob] of this.stmt("SELECT id, vector FROM chunks").raw().iterate() as Iterable<[number, Buffer]>) yield [id, fromBlob(blob)];
  }

  async memoryIdsOfChunks(chunkIds: number[]): Promise<Map<number, string>> {
    return this.owners.ownersOf(chunkIds);
  }

  async termsAfter(afterId: number): Promise<{ id: number; term: string }[]> {
    return this.lexical.termsAfter(afterId);
  }

  async chunksWithTerms(query: { terms: string[]; filter: SearchFilter }): Promise<Map<string, number[]>> {
    return this.live.chunksWithTerms(query);
  }

  async termStats(terms: string[]): Promise<{ chunks: number; df: Map<string, number> }> {
    return this.lexical.termStats(terms);
  }

  async sessionNeighbours(memoryIds: string[], window: number): Promise<Map<string, SessionNeighbours>> {
    return rows.sessionNeighbours(this.prepare, memoryIds, window);
  }

  async speakersOf(memoryIds: string[]): Promise<Map<string, string>> {
    return rows.speakersOf(this.prepare, memoryIds);
  }

  async eventTimes(memoryIds: string[]): Promise<Map<string, number>> {
    return rows.eventTimes(this.prepare, memoryIds);
  }

  async firstChunkIds(memoryIds: string[]): Promise<Map<string, number>> {
    return rows.firstChunkIds(this.prepare, memoryIds);
  }

  async addEdges(drafts: EdgeDraft[]): Promise<Edge[]> {
    return this.db.transaction(() => drafts.map((d) => graph.insertEdge(this.prepare, d)))();
  }

  async retractEdge(id: string, at: number): Promise<Edge> {
    return this.db.transaction(() => graph.retractEdge(this.prepare, id, at))();
  }

  async edgesTouching(memoryIds: string[], type?: EdgeType): Promise<Edge[]> {
    return graph.edgesTouching(this.prepare, memoryIds, type);
  }

  async addSuggestions(suggestions: Omit<Suggestion, "id" | "status">[]): Promise<void> {
    this.db.transaction(() => suggestions.forEach((s) => graph.insertSuggestion(this.prepare, s)))();
  }

  async listSuggestions(status?: Suggestion["status"]): Promise<Suggestion[]> {
    return graph.listSuggestions(this.prepare, status);
  }

  async decideSuggestion(id: string, decision: "accepted" | "rejected", at: number, edge?: EdgeDraft): Promise<Suggestion> {
    return this.db.transaction(() => graph.decideSuggestionWithEdge(this.prepare, id, decision, at, edge))();
  }

  async dirtyWindows(): Promise<{ level: WindowLevel; start: number }[]> {
    return pyramidWrites.dirtyWindows(this.prepare);
  }

  async clearDirtyWindows(windows: { level: WindowLevel; start: number }[]): Promise<void> {
    const clear = this.stmt("DELETE FROM dirty_windows WHERE level = ? AND start_ms = ?");
    this.db.transaction(() => windows.forEach((w) => clear.run(w.level, w.start)))();
  }

  async pyramidZone(): Promise<string> {
    return pyramid.pyramidZone(this.prepare);
  }

  async setPyramidZone(zone: string): Promise<void> {
    const removed = this.chunkWrite(() => pyramidWrites.setPyramidZone(this.prepare, zone));
    this.vectors.forget(removed);
  }

  async windowInputs(window: Window): Promise<Memory[]> {
    return pyramidWrites.windowInputs(this.prepare, window);
  }

  async writeSummary(node: PreparedMemory, window: Window | { level: "turn"; start: number; end: number }, childIds: string[], stamp: EmbedderStamp, sources: string[] = []): Promise<boolean> {
    const added: { chunkId: number; vector: Float32Array }[] = [];
    const removed: number[] = [];
    const written = this.chunkWrite(() => pyramidWrites.writeSummary(this.prepare, node, window, childIds, stamp, sources, added, removed));
    this.vectors.forget(removed);
    this.vectors.add(added);
    return written;
  }

  async deleteSummary(id: string): Promise<boolean> {
    const removed = this.chunkWrite(() => pyramidWrites.deleteSummary(this.prepare, id));
    this.vectors.forget(removed);
    return removed.length > 0;
  }

  async pyramidNodes(query: NodeQuery = {}): Promise<PyramidNode[]> {
    return pyramid.listNodes(this.prepare, query);
  }

  async getMeta(key: string): Promise<string | null> {
    return upkeep.getMeta(this.prepare, key);
  }

  async setMeta(key: string, value: string): Promise<void> {
    upkeep.setMeta(this.prepare, key, value);
  }

  async memoriesWithoutTurnNode(): Promise<string[]> {
    return pyramid.memoriesWithoutTurnNode(this.prepare);
  }

  async summaryChildren(id: string): Promise<string[]> {
    return pyramid.childIds(this.prepare, id);
  }

  async topicRows(under?: string): Promise<{ path: string; description: string | null }[]> {
    return topics.topicRows(this.prepare, under);
  }

  async saveTopic(path: string, description: string | null, at: number): Promise<void> {
    this.db.transaction(() => topics.upsertTopic(this.prepare, path, description, at))(); // a transaction: a lock held too long is STORE_ERROR
  }

  async moveTopic(from: string, to: string, options: { merge: boolean }): Promise<number> {
    return this.db.transaction(() => topics.repath(this.prepare, from, to, options.merge))();
  }

  async deleteTopic(path: string): Promise<number> {
    return this.db.transaction(() => topics.deleteTopic(this.prepare, path))();
  }

  async topicVectorSums(): Promise<Map<string, { count: number; sum: Float32Array }>> {
    return topics.topicVectorSums(this.prepare);
  }

  async topicCounts(under?: string): Promise<{ path: string; count: number }[]> {
    return topics.topicCounts(this.prepare, under);
  }

  async doctor(repair: boolean, options: { signal?: AbortSignal } = {}): Promise<DoctorCheck[]> {
    const dimensions = (await this.embedderStamp().catch(() => null))?.dimensions ?? null; // a damaged page: checked below
    return doctorStore(this.db, this.prepare, this.path, this.vectors, dimensions, repair, options.signal);
  }

  async stats(): Promise<StoreStats> {
    return upkeep.stats(this.prepare, this.path);
  }

  async close(): Promise<void> {
    await this.threads.close();
    if (this.db.open) this.vectors.persist();
    if (this.db.open) this.db.close();
    if (this.options.scratchDir) rmSync(this.options.scratchDir, { recursive: true, force: true });
  }
}
