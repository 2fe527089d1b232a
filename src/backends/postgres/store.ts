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
 * A thin class: one short method per port method; the SQL lives in the `*-sql.ts` modules beside it, the bodies
 * of its write transactions in memory-writes.ts and pyramid-writes.ts, the planner statistics it keeps in step in
 * statistics.ts, and the dense channel's state in dense-search.ts.
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
import * as pyramid from "./pyramid-sql.js";
import { migrate } from "./schema.js";
import * as upkeep from "./upkeep-sql.js";
import { postgresEnrichmentFailures } from "./enrichment-sql.js";
import type { EnrichmentFailures } from "../../ports/enrichment.js";
import { dropNamespace } from "./drop-sql.js";
import * as writes from "./memory-writes.js";
import * as pyramidWrites from "./pyramid-writes.js";
import * as copy from "./copy-sql.js";
import type { StoreCopy } from "../../ports/copy.js";
import * as topics from "./topics-sql.js";
import * as vectors from "./vector-sql.js";
import { DenseSearch } from "./dense-search.js";
import { PlannerStatistics } from "./statistics.js";
import * as reembed from "./reembed-sql.js";
import type { ApproximateSearch } from "./hnsw-sql.js";

export interface PostgresStoreOptions {
  /** The namespace this store reads and writes (default 'default'). */
  namespace?: string;
  /** Approximate dense search (HNSW) for large namespaces (hnsw-sql.ts); false: always exact. */
  approximate?: Partial<ApproximateSearch> | false;
  /** A throwaway namespace: everything in it (rows and HNSW index) is deleted when the store is closed. */
  dropOnClose?: boolean;
}

export const DEFAULT_PG_NAMESPACE = "default";

export class PostgresStore implements Store {
  readonly entities: EntityReads;
  readonly enrichment: EnrichmentFailures;

  readonly copy: StoreCopy;
  readonly reembed: StoreReembed;

  /** The planner statistics this store keeps in step with its writes (statistics.ts). */
  private readonly planner: PlannerStatistics;

  /** The dense channel and what this process derived from the vectors (dense-search.ts). */
  private readonly dense: DenseSearch;

  private constructor(
    private readonly db: Database,
    readonly namespace: string,
    approximate: PostgresStoreOptions["approximate"],
    private readonly dropOnClose: boolean,
    private readonly pgvector: boolean,
  ) {
    this.entities = postgresEntityReads(db, namespace);
    this.enrichment = postgresEnrichmentFailures(db, namespace, (fn) => this.write(fn));
    this.copy = copy.postgresStoreCopy(db, namespace, (fn) => this.write(fn), (chunks) => this.planner.wrote(chunks));
    this.reembed = reembed.postgresStoreReembed(db, namespace, (fn) => this.write(fn), () => {
      // every vector changed: what this process derived from them is read again (the HNSW index is per dimension)
      this.dense.reset();
    });
    this.dense = new DenseSearch(db, namespace, approximate, pgvector, () => this.embedderStamp());
    this.planner = new PlannerStatistics(db, namespace);
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
    await store.planner.refreshStatistics(false);
    return store;
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
    const { edges: written, chunks } = await this.write((tx) => writes.writeMemories(tx, this.ns, memories, stamp, edges));
    await this.planner.wrote(chunks);
    if (written.length > 0) await this.planner.wroteEdges(written.length);
    return written;
  }

  async getMemory(id: string): Promise<Memory | null> {
    return rows.getMemory(this.db, this.ns, id);
  }

  async getMemories(ids: string[]): Promise<Map<string, Memory>> {
    return rows.getMemories(this.db, this.ns, ids);
  }

  async reviseMemory(next: PreparedMemory, stamp: EmbedderStamp, recordedAt: number): Promise<void> {
    await this.write((tx) => writes.reviseMemory(tx, this.ns, next, stamp, recordedAt));
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
    return this.write((tx) => writes.deleteMemory(tx, this.ns, id));
  }

  /**
   * Drops vocabulary words no chunk uses any more, then asks the server to VACUUM the tables (outside any
   * transaction). Freed space and the write-ahead log are the server's to reclaim, on its own schedule: no
   * checkpoint is forced (it needs privileges an application role rarely has), so `checkpointed` is false.
   */
  async purgeDeleted(): Promise<{ terms_dropped: number; checkpointed: boolean }> {
    const dropped = await this.write((tx) => upkeep.dropUnusedTerms(tx, this.ns));
    await upkeep.vacuumAfterPurge(this.db);
    return { terms_dropped: dropped, checkpointed: false };
  }

  async memoryIdsByImportKey(keys: string[]): Promise<Map<string, string>> {
    return writes.memoryIdsByImportKey(this.db, this.ns, keys);
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
    return this.dense.nearestChunks(vector, depth, filter);
  }

  async nearestChunksMany({ vectors, depth }: { vectors: Float32Array[]; depth: number }): Promise<Ranked[][]> {
    // one query at a time: the pool's connections serve the other requests meanwhile
    const out: Ranked[][] = [];
    for (const vector of vectors) out.push(await this.nearestChunks({ vector, depth, filter: {} }));
    return out;
  }

  async similarityNull(vector: Float32Array): Promise<{ mean: number; sd: number; rows: number }> {
    return this.dense.similarityNull(vector);
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
    await this.planner.wroteEdges(written.length);
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
    await this.write((tx) => pyramidWrites.setPyramidZone(tx, this.ns, zone));
  }

  async windowInputs(window: Window): Promise<Memory[]> {
    return pyramidWrites.windowInputs(this.db, this.ns, window);
  }

  async writeSummary(node: PreparedMemory, window: Window | { level: "turn"; start: number; end: number }, childIds: string[], stamp: EmbedderStamp, sources: string[] = []): Promise<boolean> {
    const written = await this.write((tx) => pyramidWrites.writeSummary(tx, this.ns, node, window, childIds, stamp, sources));
    if (written) await this.planner.wrote(node.chunks.length);
    return written;
  }


  async getMeta(key: string): Promise<string | null> {
    return upkeep.getMeta(this.db, this.ns, key);
  }

  async setMeta(key: string, value: string): Promise<void> {
    await upkeep.setMeta(this.db, this.ns, key, value);
  }

  async memoriesWithoutTurnNode(): Promise<string[]> {
    return pyramid.memoriesWithoutTurnNode(this.db, this.ns);
  }

  async deleteSummary(id: string): Promise<boolean> {
    return this.write((tx) => pyramidWrites.deleteSummary(tx, this.ns, id));
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
    return upkeep.stats(this.db, this.ns);
  }

  /**
   * After a bulk load: fresh planner statistics, so the next queries are planned for the data they will read, and
   * the HNSW index of a namespace now above the threshold, so its build (about a minute at 50,000 chunks on
   * PGlite) is paid here rather than by the first search.
   */
  async settle(): Promise<void> {
    await this.planner.settled();
    await this.planner.refreshStatistics(true);
    await this.dense.settle();
  }

  async memoryIdsInOrder(): Promise<string[]> {
    return upkeep.memoryIdsInOrder(this.db, this.ns);
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
      await this.planner.settled();
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
