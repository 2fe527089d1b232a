/**
 * @module backends/sqlite/store
 * The embedded default store: SQLite tables are the source of truth (memories, chunks, terms, postings), FTS5
 * indexes live in the same file, and the dense index is an in-memory matrix derived from the chunk vectors.
 * A thin class owning the connection, the statement cache and the transactions; the SQL lives in the
 * `*-sql.ts` modules beside it (memory rows, lexical search, graph, pyramid, topics) and the dense index in
 * vector-index.ts. Longer than most files here (~370 lines) because it holds one short method per port method
 * (about fifty) and nothing else; splitting it would split the transaction boundaries, which belong together.
 */
import { rmSync, statSync } from "node:fs";
import type Database from "better-sqlite3";
import { CascadeError } from "../../errors.js";
import type { Edge, EdgeDraft, EdgeType, Suggestion } from "../../model/graph.js";
import type { Memory, PreparedMemory, Ranked, SearchFilter, TurnContext } from "../../model/types.js";
import type { Scope } from "../../model/scope.js";
import type { DoctorCheck, EmbedderStamp, HydratedChunk, LexicalQuery, ListQuery, NodeQuery, SessionNeighbours, Store, StoreReembed, StoreStats } from "../../ports/store.js";
import { listMemoryIds } from "./list-sql.js";
import { guarded, runDoctor } from "./doctor.js";
import { doctorInThread } from "./doctor-thread.js";
import type { PyramidNode } from "../../model/pyramid.js";
import type { Window, WindowLevel } from "../../time/windows.js";
import { fromBlob } from "../../vectors/math.js";
import { openConnection, unguarded, type Connection } from "./connection.js";
import { recordIntegrity, refuseWritesWhileDamaged } from "./damage.js";
import { filterCondition, isEmptyFilter } from "./filter-sql.js";
import * as graph from "./graph-sql.js";
import { sqliteEntityReads } from "./entities-sql.js";
import { sqliteEnrichmentFailures } from "./enrichment-sql.js";
import { LexicalSql, SELECTIVE_CHUNKS } from "./lexical-sql.js";
import * as rows from "./memory-sql.js";
import { MEMORY_COLUMNS, toMemory, type MemoryRow } from "./memory-sql.js";
import * as pyramid from "./pyramid-sql.js";
import * as topics from "./topics-sql.js";
import { migrate } from "./schema.js";
import { deeper, dropExpired, liveFilter } from "./expiry-sql.js";
import { availableParallelism } from "node:os";
import { defaultApproximateSearch, VectorIndex, type ApproximateSearch } from "./vector-index.js";
import { StatementCache } from "./statement-cache.js";
import { purgeDeleted, type PurgeReport } from "./purge.js";
import { idsByImportKey } from "./import-keys-sql.js";
import { copyCounts, copyFingerprint, copyMark, readSection, setCopyMark, writeSection } from "./copy-sql.js";
import type { StoreCopy } from "../../ports/copy.js";
import { OwnerCache } from "./owner-cache.js";
import { chunkGeneration, withGenerations } from "./version.js";
import { SideReader, type SideJob } from "./side-reader.js";
import * as reembed from "./reembed-sql.js";
import { writeBatch } from "./write-batch.js";
import { WriteThread } from "./write-thread.js";

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
  sideReader?: { minChunks: number; threads?: 1 | 2 } | false;
  /**
   * New memories' batches of at least `minChunks` chunks are written on another connection in a worker thread
   * (write-thread.ts), so that a large write's transaction does not hold the caller's thread; false: never.
   */
  writeThread?: { minChunks: number } | false;
}

/**
 * Below this many chunks the reader threads are not started: at 100,000 chunks they changed fused latency by less
 * than this machine's noise (p95 21-26 against 25-28 ms), and a server's workers already use the cores.
 */
export const SIDE_READER_MIN_CHUNKS = 200_000;

/**
 * Chunks from which a batch of new memories is written on the write thread: ~0.2 ms of statements a chunk in
 * one transaction (a 975,000-character memory's 1,252 chunks, its FTS rows and mentions: ~250 ms), so a batch this
 * size holds a thread ~25 ms, less than a message each way and a thread's start are worth.
 */
export const WRITE_THREAD_MIN_CHUNKS = 128;

export class SqliteStore implements Store {
  private readonly db: Connection;
  private readonly statements = new StatementCache<Database.Statement>();
  private readonly vectors: VectorIndex;
  private readonly lexical: LexicalSql;

  constructor(readonly path: string, private readonly options: SqliteStoreOptions = {}) {
    try {
      this.db = openConnection(path);
      migrate(this.db);
      refuseWritesWhileDamaged(this.db, path);
    } catch (err) {
      if (err instanceof CascadeError) throw err;
      throw new CascadeError("STORE_ERROR", `cannot open the store at ${path}: ${(err as Error).message}`, { cause: err });
    }
    this.lexical = new LexicalSql(this.prepare, options.selectiveChunks ?? SELECTIVE_CHUNKS, this.owners, (job) => this.sideReader(job));
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
  }

  private readonly prepare = (sql: string) => this.stmt(sql);
  private readonly owners = new OwnerCache(this.prepare);
  /** The reader threads: BM25's ranking on the first, posting lists on the second (or on the first too). */
  private sides: SideReader[] = [];
  /** The thread that writes large batches on its own connection (write-thread.ts), started by the first. */
  private writer: WriteThread | null = null;
  readonly entities = sqliteEntityReads(this.prepare, this.owners);
  readonly enrichment = sqliteEnrichmentFailures(this.prepare, (fn) => this.db.transaction(fn)());

  readonly copy: StoreCopy = {
    read: async (section, page) => readSection(this.prepare, section, page),
    write: async (section, records, mark) => {
      const added = this.chunkWrite(() => {
        const chunks = writeSection(this.prepare, section, records);
        if (mark !== undefined) setCopyMark(this.prepare, mark);
        return chunks;
      });
      this.vectors.add(added);
    },
    mark: async () => copyMark(this.prepare),
    setMark: async (mark) => setCopyMark(this.prepare, mark),
    counts: async () => copyCounts(this.prepare),
    fingerprint: async () => copyFingerprint(this.prepare),
    namespaces: async () => ["default"],
  };

  readonly reembed: StoreReembed = {
    start: async (target) => reembed.start(this.db, target),
    progress: async () => reembed.progress(this.db),
    todo: async (after, limit) => reembed.todo(this.db, after, limit),
    save: async (rows) => reembed.save(this.db, rows),
    switchOver: async () => {
      const missing = reembed.switchOver(this.db);
      // every vector changed (and perhaps their size): the matrix and the saved graph are rebuilt from the table
      if (missing === 0) this.vectors.invalidate();
      return missing;
    },
  };

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

  /** The reader thread for a job, started the first time a search of a large enough store on a file asks for one. */
  private sideReader(job: SideJob): SideReader | null {
    if (this.sides.length === 0) {
      const wanted = this.options.sideReader ?? { minChunks: SIDE_READER_MIN_CHUNKS };
      if (wanted === false || this.path === ":memory:" || rows.chunkCount(this.prepare) < wanted.minChunks) return null;
      this.sides = Array.from({ length: wanted.threads ?? 2 }, () => new SideReader(this.path));
    }
    const side = this.sides[job === "rank" ? 0 : this.sides.length - 1];
    return side.alive ? side : null;
  }

  /**
   * A cached prepared statement, always handed out in plain object mode: `.pluck()` and `.raw()` change a
   * statement in place, and a mode left over from another caller once made forget delete nothing.
   */
  private stmt(sql: string): Database.Statement {
    let s = this.statements.get(sql);
    if (!s) {
      s = this.db.prepare(sql);
      this.statements.set(sql, s);
    }
    return s.reader ? s.raw(false).pluck(false) : s;
  }

  async embedderStamp(): Promise<EmbedderStamp | null> {
    return rows.embedderStamp(this.prepare);
  }

  async writeMemories(memories: PreparedMemory[], stamp: EmbedderStamp, edges: EdgeDraft[] = []): Promise<Edge[]> {
    const thread = this.writeThread(memories, stamp);
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

  /**
   * The write thread for a batch of at least `minChunks` chunks on a file (write-thread.ts), started the first time
   * one comes; null for a smaller batch (a message each way costs more than its transaction), one with a vector not of
   * the stamp's size, or when the thread failed.
   */
  private writeThread(memories: PreparedMemory[], stamp: EmbedderStamp): WriteThread | null {
    const wanted = this.options.writeThread ?? { minChunks: WRITE_THREAD_MIN_CHUNKS };
    if (wanted === false || this.path === ":memory:") return null;
    let chunks = 0;
    for (const p of memories) {
      chunks += p.chunks.length;
      // vectors travel in one buffer of the stamp's size; a vector of another size is refused or stored as it is here
      if (p.chunks.some((c) => c.vector.length !== stamp.dimensions)) return null;
    }
    if (chunks < wanted.minChunks) return null;
    this.writer ??= new WriteThread(this.path);
    return this.writer.alive ? this.writer : null;
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
    const { removed, added } = this.chunkWrite(() => {
      rows.checkStamp(this.prepare, stamp);
      return rows.reviseMemoryRow(this.prepare, next, recordedAt);
    });
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
    let chunkIds: number[] = [];
    const deleted = this.chunkWrite(() => {
      const rowid = rows.memoryRowid(this.prepare, id);
      if (rowid === undefined) return false;
      pyramid.markDirty(this.prepare, [rowid]);
      rows.stripContextOf(this.prepare, rowid);
      for (const turn of pyramid.turnNodesOf(this.prepare, rowid)) chunkIds.push(...rows.removeMemoryRow(this.prepare, turn, `the turn summary of ${id}`));
      chunkIds.push(...rows.removeMemoryRow(this.prepare, rowid, id));
      return true;
    });
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
    const live = liveFilter(this.prepare, query.filter);
    return dropExpired(await this.lexical.searchBody({ ...query, filter: live.filter, depth: deeper(query.depth, live) }), live, query.depth);
  }

  async indexKeys(words: string[]): Promise<Map<string, string>> {
    return this.lexical.indexKeys(words);
  }

  async searchCurated(query: LexicalQuery): Promise<Ranked[]> {
    const live = liveFilter(this.prepare, query.filter);
    return dropExpired(this.lexical.searchCurated({ ...query, filter: live.filter, depth: deeper(query.depth, live) }), live, query.depth);
  }

  async nearestChunks({ vector, depth, filter, alongside }: { vector: Float32Array; depth: number; filter: SearchFilter; alongside?: boolean }): Promise<Ranked[]> {
    // the lexical channels hand their reads to the reader threads first, so that they work while this one searches
    // (one turn of the event loop; not for revision detection, where it cost ~1.5 ms a memory at 1,000,000 chunks)
    if (alongside && this.sides.some((side) => side.alive)) await new Promise(setImmediate);
    const live = liveFilter(this.prepare, filter);
    const allowed = isEmptyFilter(live.filter) ? null : this.lexical.allowedChunkList(live.filter);
    return dropExpired(this.vectors.nearest(vector, deeper(depth, live), allowed, (ids) => this.owners.ownersOf(ids)), live, depth);
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
    return this.stmt("SELECT id FROM memories ORDER BY rowid").pluck().all() as string[];
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
    const live = liveFilter(this.prepare, query.filter);
    const lists = await this.lexical.chunksWithTerms({ ...query, filter: live.filter });
    if (live.expired) for (const [term, ids] of lists) lists.set(term, ids.filter((id) => !live.expired!.has(id)));
    return lists;
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
    return this.db.transaction(() => {
      const s = graph.decideSuggestion(this.prepare, id, decision, at);
      if (edge) graph.insertEdge(this.prepare, edge);
      return s;
    })();
  }

  async dirtyWindows(): Promise<{ level: WindowLevel; start: number }[]> {
    return this.stmt(
      "SELECT level, start_ms AS start FROM dirty_windows ORDER BY CASE level WHEN 'day' THEN 0 WHEN 'week' THEN 1 ELSE 2 END, start_ms",
    ).all() as { level: WindowLevel; start: number }[];
  }

  async clearDirtyWindows(windows: { level: WindowLevel; start: number }[]): Promise<void> {
    const clear = this.stmt("DELETE FROM dirty_windows WHERE level = ? AND start_ms = ?");
    this.db.transaction(() => windows.forEach((w) => clear.run(w.level, w.start)))();
  }

  async pyramidZone(): Promise<string> {
    return pyramid.pyramidZone(this.prepare);
  }

  async setPyramidZone(zone: string): Promise<void> {
    const removed: number[] = [];
    this.chunkWrite(() => {
      const nodes = this.stmt("SELECT m.rowid, m.id FROM summary_nodes n JOIN memories m ON m.rowid = n.memory_rowid").raw().all() as [number, string][];
      for (const [rowid, id] of nodes) removed.push(...rows.removeMemoryRow(this.prepare, rowid, id));
      this.stmt("DELETE FROM dirty_windows").run();
      this.stmt("INSERT INTO meta (key, value) VALUES ('pyramid_zone', ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value").run(zone);
      pyramid.markAllDirty(this.prepare);
    });
    this.vectors.forget(removed);
  }

  async windowInputs(window: Window): Promise<Memory[]> {
    const rowids = pyramid.windowInputRowids(this.prepare, window.level, window.start, window.end);
    const rows = this.stmt(`SELECT ${MEMORY_COLUMNS} FROM memories m WHERE m.rowid IN (SELECT value FROM json_each(?)) ORDER BY m.at_ms, m.rowid`).all(
      JSON.stringify(rowids),
    ) as MemoryRow[];
    return rows.map(toMemory);
  }

  async writeSummary(node: PreparedMemory, window: Window | { level: "turn"; start: number; end: number }, childIds: string[], stamp: EmbedderStamp, sources: string[] = []): Promise<boolean> {
    const added: { chunkId: number; vector: Float32Array }[] = [];
    const removed: number[] = [];
    const written = this.chunkWrite(() => {
      // under the write lock: a forget committed before this point is seen, one after it waits and rebuilds the window
      if (!pyramid.allExist(this.prepare, [...childIds, ...sources])) return false;
      rows.checkStamp(this.prepare, stamp);
      const old = pyramid.nodeRowidById(this.prepare, node.memory.id);
      if (old !== undefined) removed.push(...rows.removeMemoryRow(this.prepare, old, node.memory.id));
      const { rowid, chunks } = rows.insertMemory(this.prepare, node);
      added.push(...chunks);
      rows.addToChunkCount(this.prepare, chunks.length);
      const children = this.stmt("SELECT rowid FROM memories WHERE id IN (SELECT value FROM json_each(?))").pluck().all(JSON.stringify(childIds)) as number[];
      pyramid.insertNode(this.prepare, rowid, window.level, window.start, window.end, children);
      return true;
    });
    this.vectors.forget(removed);
    this.vectors.add(added);
    return written;
  }


  async deleteSummary(id: string): Promise<boolean> {
    const removed = this.chunkWrite(() => {
      const rowid = pyramid.nodeRowidById(this.prepare, id);
      return rowid === undefined ? [] : rows.removeMemoryRow(this.prepare, rowid, id);
    });
    this.vectors.forget(removed);
    return removed.length > 0;
  }

  async pyramidNodes(query: NodeQuery = {}): Promise<PyramidNode[]> {
    return pyramid.listNodes(this.prepare, query);
  }

  async getMeta(key: string): Promise<string | null> {
    return (this.stmt("SELECT value FROM meta WHERE key = ?").pluck().get(`engine.${key}`) as string | undefined) ?? null;
  }

  async setMeta(key: string, value: string): Promise<void> {
    this.stmt("INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value").run(`engine.${key}`, value);
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
    return this.db.transaction(() => {
      const held = topics.memoriesUnder(this.prepare, path);
      if (held > 0) throw new CascadeError("INVALID_INPUT", `topic: ${path} still holds ${held} memories (move, merge or forget them first)`, { field: "topic" });
      return topics.deleteTopicRows(this.prepare, path);
    })();
  }

  async topicVectorSums(): Promise<Map<string, { count: number; sum: Float32Array }>> {
    const out = new Map<string, { count: number; sum: Float32Array }>();
    for (const [topic, blob] of topics.topicMemberVectors(this.prepare)) {
      const v = fromBlob(blob);
      let entry = out.get(topic);
      if (!entry) out.set(topic, (entry = { count: 0, sum: new Float32Array(v.length) }));
      entry.count++;
      for (let i = 0; i < v.length; i++) entry.sum[i] += v[i];
    }
    return out;
  }

  async topicCounts(under?: string): Promise<{ path: string; count: number }[]> {
    const cond = filterCondition(under === undefined ? {} : { under });
    return this.stmt(`SELECT m.topic AS path, count(*) AS count FROM memories m WHERE m.topic IS NOT NULL AND ${cond.sql} GROUP BY m.topic ORDER BY m.topic`).all(
      cond.params,
    ) as { path: string; count: number }[];
  }

  async doctor(repair: boolean, options: { signal?: AbortSignal } = {}): Promise<DoctorCheck[]> {
    const dimensions = (await this.embedderStamp().catch(() => null))?.dimensions ?? null; // a damaged page: checked below
    // checks alone read in a thread of their own (a file's store: a thread cannot open an in-memory one)
    const checks =
      repair || this.path === ":memory:"
        ? unguarded(this.db, () => runDoctor(this.db, this.prepare, dimensions, repair))
        : await doctorInThread(this.path, dimensions, options.signal);
    recordIntegrity(this.db, checks[0]);
    if (checks.some((c) => c.repaired)) this.vectors.invalidate(); // reloaded from the table on next use
    const graph = guarded("approximate vector index", () => this.vectors.check(dimensions, repair));
    return graph ? [...checks, graph] : checks;
  }

  async stats(): Promise<StoreStats> {
    const count = (table: string) => (this.stmt(`SELECT count(*) FROM ${table}`).pluck().get() as number);
    let bytes = 0;
    if (this.path !== ":memory:") {
      for (const suffix of ["", "-wal", ".hnsw"]) {
        try {
          bytes += statSync(this.path + suffix).size;
        } catch {
          // no WAL file yet
        }
      }
    }
    const summaries = count("summary_nodes");
    return { memories: count("memories") - summaries, summaries, chunks: count("chunks"), terms: count("terms"), bytes };
  }

  async close(): Promise<void> {
    await Promise.all(this.sides.map((side) => side.close()));
    await this.writer?.close();
    if (this.db.open) this.vectors.persist();
    if (this.db.open) this.db.close();
    if (this.options.scratchDir) rmSync(this.options.scratchDir, { recursive: true, force: true });
  }
}
