/**
 * @module backends/sqlite/store
 * The embedded default store: SQLite tables are the source of truth (memories, chunks, terms, postings), FTS5
 * indexes live in the same file, and the dense index is an in-memory matrix derived from the chunk vectors.
 * A thin class owning the connection, the statement cache and the transactions, one short method per port method
 * (about fifty); the SQL lives in the `*-sql.ts` modules beside it, the bodies of its larger write transactions
 * in memory-writes.ts and pyramid-writes.ts, the reads with expiry applied in live-search.ts, the dense index in
 * vector-index.ts, the worker threads in threads.ts. Those a read of the rows does not use (the dense index, the
 * searches, the threads, the copy, the doctor...) are built on first use from store-parts.ts, so that opening a
 * store to read it (`cascade stats`: api/reader.ts) loads nineteen modules fewer, and neither stemmer nor
 * node:worker_threads.
 */
import { rmSync } from "node:fs";
import type Database from "better-sqlite3";
import { CascadeError, storeFailure } from "../../errors.js";
import type { Edge, EdgeDraft, EdgeType, Suggestion } from "../../model/graph.js";
import type { Memory, PreparedMemory, Ranked, SearchFilter, TurnContext } from "../../model/types.js";
import type { Scope } from "../../model/scope.js";
import type { DoctorCheck, EmbedderStamp, HydratedChunk, LexicalQuery, ListQuery, NodeQuery, SessionNeighbours, Store, StoreReembed, StoreStats } from "../../ports/store.js";
import { listMemoryIds } from "./list-sql.js";
import type { PyramidNode } from "../../model/pyramid.js";
import type { Window, WindowLevel } from "../../time/windows.js";
import { fromBlob } from "../../vectors/math.js";
import { openConnection, type Connection } from "./connection.js";
import { refuseWritesWhileDamaged } from "./damage.js";
import * as graph from "./graph-sql.js";
import { sqliteEntityReads } from "./entities-sql.js";
import { sqliteEnrichmentFailures } from "./enrichment-sql.js";
import * as rows from "./memory-sql.js";
import * as writes from "./memory-writes.js";
import * as pyramidWrites from "./pyramid-writes.js";
import * as upkeep from "./upkeep-sql.js";
import * as pyramid from "./pyramid-sql.js";
import { migrate } from "./schema.js";
import { cachedStatement, StatementCache } from "./statement-cache.js";
import type { PurgeReport } from "./purge.js";
import type { StoreCopy } from "../../ports/copy.js";
import { OwnerCache } from "./owner-cache.js";
import type { SqliteStoreOptions } from "./store-options.js";
import type { StoreParts } from "./store-parts.js";
import { lazyCopy, lazyReembed } from "./lazy-ports.js";

export type { SqliteStoreOptions } from "./store-options.js";
export { SIDE_READER_MIN_CHUNKS, WRITE_THREAD_MIN_CHUNKS } from "./store-options.js";

export class SqliteStore implements Store {
  private readonly db: Connection;
  private readonly statements = new StatementCache<Database.Statement>();
  /** The dense index, the searches, the threads and more (store-parts.ts): loaded by the first method that needs them. */
  private partsLoading?: Promise<StoreParts>;

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
  }

  private readonly prepare = (sql: string) => this.stmt(sql);
  private readonly owners = new OwnerCache(this.prepare);
  readonly entities = sqliteEntityReads(this.prepare, this.owners);
  readonly enrichment = sqliteEnrichmentFailures(this.prepare, (fn) => this.db.transaction(fn)());

  readonly copy: StoreCopy = lazyCopy(this.prepare, () => this.parts());
  readonly reembed: StoreReembed = lazyReembed(() => this.parts());

  /** The parts reading rows does not use (store-parts.ts), built on first use; a read-only open never loads them. */
  private parts(): Promise<StoreParts> {
    this.partsLoading ??= import("./store-parts.js").then((m) => m.storeParts({ path: this.path, options: this.options, db: this.db, prepare: this.prepare, owners: this.owners }));
    return this.partsLoading;
  }

  /** A cached prepared statement in plain object mode (statement-cache.ts). */
  private stmt(sql: string): Database.Statement {
    return cachedStatement(this.db, this.statements, sql);
  }

  async embedderStamp(): Promise<EmbedderStamp | null> {
    return rows.embedderStamp(this.prepare);
  }

  async writeMemories(memories: PreparedMemory[], stamp: EmbedderStamp, edges: EdgeDraft[] = []): Promise<Edge[]> {
    const { threads, vectors: index, chunkWrite, writeBatch } = await this.parts();
    const thread = threads.writeThread(memories, stamp);
    if (thread) {
      const done = await thread.write(memories, stamp, edges);
      const vectors = memories.flatMap((p) => p.chunks.map((c) => c.vector));
      index.addOwn(done.before, done.after, done.chunkIds.map((chunkId, i) => ({ chunkId, vector: vectors[i] })));
      return done.edges;
    }
    const { chunks, edges: written } = chunkWrite(() => writeBatch(this.prepare, memories, stamp, edges));
    index.add(chunks);
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
    const { vectors, chunkWrite } = await this.parts();
    const { removed, added } = chunkWrite(() => writes.reviseMemory(this.prepare, next, stamp, recordedAt));
    vectors.forget(removed);
    vectors.add(added);
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
    const { vectors, chunkWrite } = await this.parts();
    const deleted = chunkWrite(() => writes.deleteMemory(this.prepare, id, chunkIds));
    vectors.forget(chunkIds);
    return deleted;
  }

  async purgeDeleted(): Promise<PurgeReport> {
    const { vectors, purgeDeleted } = await this.parts();
    const report = purgeDeleted(this.db);
    // the saved vector graph is a copy of the vectors too: rewritten without the forgotten ones
    vectors.purge((await this.embedderStamp().catch(() => null))?.dimensions ?? null);
    return report;
  }

  async memoryIdsByImportKey(keys: string[]): Promise<Map<string, string>> {
    return (await this.parts()).idsByImportKey(this.prepare, keys);
  }

  async previousInSession(session: string, at: string, scope: Scope): Promise<TurnContext | null> {
    return rows.previousInSession(this.prepare, session, at, scope);
  }

  async hydrate(chunkIds: number[]): Promise<Map<number, HydratedChunk>> {
    return rows.hydrate(this.prepare, chunkIds);
  }

  async searchBody(query: LexicalQuery): Promise<Ranked[]> {
    return (await this.parts()).live.searchBody(query);
  }

  async indexKeys(words: string[]): Promise<Map<string, string>> {
    return (await this.parts()).lexical.indexKeys(words);
  }

  async searchCurated(query: LexicalQuery): Promise<Ranked[]> {
    return (await this.parts()).live.searchCurated(query);
  }

  async nearestChunks(query: { vector: Float32Array; depth: number; filter: SearchFilter; alongside?: boolean }): Promise<Ranked[]> {
    return (await this.parts()).live.nearestChunks(query);
  }

  async nearestChunksMany({ vectors, depth }: { vectors: Float32Array[]; depth: number }): Promise<Ranked[][]> {
    return (await this.parts()).vectors.nearestMany(vectors, depth, (ids) => this.owners.ownersOf(ids));
  }

  async similarityNull(vector: Float32Array): Promise<{ mean: number; sd: number; rows: number }> {
    return (await this.parts()).vectors.similarityNull(vector);
  }

  /** Folds the write-ahead log into the database file (after a bulk load, before timing reads). */
  async settle(): Promise<void> {
    this.db.pragma("wal_checkpoint(TRUNCATE)");
    (await this.parts()).vectors.persist();
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
    return (await this.parts()).lexical.termsAfter(afterId);
  }

  async chunksWithTerms(query: { terms: string[]; filter: SearchFilter }): Promise<Map<string, number[]>> {
    return (await this.parts()).live.chunksWithTerms(query);
  }

  async termStats(terms: string[]): Promise<{ chunks: number; df: Map<string, number> }> {
    return (await this.parts()).lexical.termStats(terms);
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
    const { vectors, chunkWrite } = await this.parts();
    const removed = chunkWrite(() => pyramidWrites.setPyramidZone(this.prepare, zone));
    vectors.forget(removed);
  }

  async windowInputs(window: Window): Promise<Memory[]> {
    return pyramidWrites.windowInputs(this.prepare, window);
  }

  async writeSummary(node: PreparedMemory, window: Window | { level: "turn"; start: number; end: number }, childIds: string[], stamp: EmbedderStamp, sources: string[] = []): Promise<boolean> {
    const added: { chunkId: number; vector: Float32Array }[] = [];
    const removed: number[] = [];
    const { vectors, chunkWrite } = await this.parts();
    const written = chunkWrite(() => pyramidWrites.writeSummary(this.prepare, node, window, childIds, stamp, sources, added, removed));
    vectors.forget(removed);
    vectors.add(added);
    return written;
  }

  async deleteSummary(id: string): Promise<boolean> {
    const { vectors, chunkWrite } = await this.parts();
    const removed = chunkWrite(() => pyramidWrites.deleteSummary(this.prepare, id));
    vectors.forget(removed);
    return removed.length > 0;
  }

  async pyramidNodes(query: NodeQuery = {}): Promise<PyramidNode[]> {
    return pyramid.listNodes(this.prepare, query);
  }

  async getMeta(key: string): Promise<string | null> {
    return upkeep.getMeta(this.prepare, key);
  }

  async setMeta(key: string, value: string): Promise<void> {
    // a transaction: a lock held too long is STORE_ERROR (connection.ts), which a store opened for reads tolerates
    this.db.transaction(() => upkeep.setMeta(this.prepare, key, value))();
  }

  async memoriesWithoutTurnNode(): Promise<string[]> {
    return pyramid.memoriesWithoutTurnNode(this.prepare);
  }

  async summaryChildren(id: string): Promise<string[]> {
    return pyramid.childIds(this.prepare, id);
  }

  async topicRows(under?: string): Promise<{ path: string; description: string | null }[]> {
    return (await this.parts()).topics.topicRows(this.prepare, under);
  }

  async saveTopic(path: string, description: string | null, at: number): Promise<void> {
    const { topics } = await this.parts();
    this.db.transaction(() => topics.upsertTopic(this.prepare, path, description, at))(); // a transaction: a lock held too long is STORE_ERROR
  }

  async moveTopic(from: string, to: string, options: { merge: boolean }): Promise<number> {
    const { topics } = await this.parts();
    return this.db.transaction(() => topics.repath(this.prepare, from, to, options.merge))();
  }

  async deleteTopic(path: string): Promise<number> {
    const { topics } = await this.parts();
    return this.db.transaction(() => topics.deleteTopic(this.prepare, path))();
  }

  async topicVectorSums(): Promise<Map<string, { count: number; sum: Float32Array }>> {
    return (await this.parts()).topics.topicVectorSums(this.prepare);
  }

  async topicCounts(under?: string): Promise<{ path: string; count: number }[]> {
    return (await this.parts()).topics.topicCounts(this.prepare, under);
  }

  async doctor(repair: boolean, options: { signal?: AbortSignal } = {}): Promise<DoctorCheck[]> {
    const dimensions = (await this.embedderStamp().catch(() => null))?.dimensions ?? null; // a damaged page: checked below
    const { doctorStore, vectors } = await this.parts();
    return doctorStore(this.db, this.prepare, this.path, vectors, dimensions, repair, options.signal);
  }

  async stats(): Promise<StoreStats> {
    return upkeep.stats(this.prepare, this.path);
  }

  async close(): Promise<void> {
    // (parts never loaded: no thread started, no index built, nothing to persist)
    const parts = await this.partsLoading?.catch(() => undefined);
    await parts?.threads.close();
    if (this.db.open) parts?.vectors.persist();
    if (this.db.open) this.db.close();
    if (this.options.scratchDir) rmSync(this.options.scratchDir, { recursive: true, force: true });
  }
}
