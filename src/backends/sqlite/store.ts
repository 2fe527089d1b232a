/**
 * @module backends/sqlite/store
 * The embedded default store: SQLite tables are the source of truth (memories, chunks, terms, postings), FTS5
 * indexes live in the same file, and the dense index is an in-memory matrix derived from the chunk vectors.
 * This is the only module that writes SQL.
 */
import { statSync } from "node:fs";
import type Database from "better-sqlite3";
import { CascadeError } from "../../errors.js";
import type { Edge, EdgeDraft, EdgeType, Suggestion } from "../../model/graph.js";
import type { Memory, PreparedMemory, Ranked, SearchFilter, TurnContext } from "../../model/types.js";
import { distinctContentWords } from "../../text/tokenize.js";
import type { DoctorCheck, EmbedderStamp, HydratedChunk, ListQuery, NodeQuery, Store, StoreStats } from "../../ports/store.js";
import { listMemoryIds } from "./list-sql.js";
import { runDoctor } from "./doctor.js";
import { quoteFtsTerm } from "../../text/fts-query.js";
import type { PyramidNode } from "../../model/pyramid.js";
import type { Window, WindowLevel } from "../../time/windows.js";
import { fromBlob, toBlob } from "../../vectors/math.js";
import { openConnection, type Connection } from "./connection.js";
import { filterCondition, isEmptyFilter } from "./filter-sql.js";
import * as graph from "./graph-sql.js";
import * as pyramid from "./pyramid-sql.js";
import * as topics from "./topics-sql.js";
import { migrate } from "./schema.js";
import { VectorMatrix } from "../../vectors/matrix.js";

interface MemoryRow {
  rowid: number;
  id: string;
  kind: string;
  text: string;
  title: string | null;
  description: string | null;
  tags: string;
  topic: string | null;
  role: string | null;
  speaker: string | null;
  session: string | null;
  at: string;
  recorded_at: string;
  metadata: string;
  chunks: number;
}

const MEMORY_COLUMNS = `m.rowid, m.id, m.kind, m.text, m.title, m.description, m.tags, m.topic, m.role, m.speaker,
  m.session, m.at, m.recorded_at, m.metadata, (SELECT count(*) FROM chunks WHERE memory_rowid = m.rowid) AS chunks`;

function toMemory(row: MemoryRow): Memory {
  return {
    id: row.id,
    kind: row.kind,
    text: row.text,
    title: row.title,
    description: row.description,
    tags: JSON.parse(row.tags) as string[],
    topic: row.topic,
    role: row.role,
    speaker: row.speaker,
    session: row.session,
    at: row.at,
    recordedAt: row.recorded_at,
    metadata: JSON.parse(row.metadata) as Record<string, unknown>,
    chunks: row.chunks,
  };
}

/** Filters allowing at most this many chunks are applied in memory (see SqliteStore.allowedChunks). */
const SELECTIVE_CHUNKS = 20_000;

export interface SqliteStoreOptions {
  /** Largest filter result applied in memory rather than by a join (tests set 0 to exercise the join). */
  selectiveChunks?: number;
}

export class SqliteStore implements Store {
  private readonly db: Connection;
  private readonly statements = new Map<string, Database.Statement>();
  private matrix: VectorMatrix | null = null;
  /** PRAGMA data_version when the matrix was loaded: it changes when another connection commits. */
  private matrixVersion = -1;
  /** The chunks the last filter allowed, shared by the channels of one query (see allowedChunks). */
  private allowedCache: { key: string; version: string; ids: Set<number> | null } | null = null;

  private readonly selectiveChunks: number;

  constructor(readonly path: string, options: SqliteStoreOptions = {}) {
    this.selectiveChunks = options.selectiveChunks ?? SELECTIVE_CHUNKS;
    try {
      this.db = openConnection(path);
      migrate(this.db);
    } catch (err) {
      if (err instanceof CascadeError) throw err;
      throw new CascadeError("STORE_ERROR", `cannot open the store at ${path}: ${(err as Error).message}`, { cause: err });
    }
  }

  private readonly prepare = (sql: string) => this.stmt(sql);

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
    const row = this.stmt("SELECT value FROM meta WHERE key = 'embedder'").get() as { value: string } | undefined;
    return row ? (JSON.parse(row.value) as EmbedderStamp) : null;
  }

  async writeMemories(memories: PreparedMemory[], stamp: EmbedderStamp, edges: EdgeDraft[] = []): Promise<Edge[]> {
    const added: { chunkId: number; vector: Float32Array }[] = [];
    const written: Edge[] = [];
    this.db.transaction(() => {
      this.checkStamp(stamp);
      for (const p of memories) added.push(...this.insertMemory(p).chunks);
      this.addToChunkCount(added.length);
      for (const e of edges) written.push(graph.insertEdge(this.prepare, e));
    })();
    if (this.matrix) for (const a of added) this.matrix.add(a.chunkId, a.vector);
    return written;
  }

  /** Stamps a new store with the embedder, or refuses vectors from another one (inside a transaction). */
  private checkStamp(stamp: EmbedderStamp): void {
    const existing = this.stmt("SELECT value FROM meta WHERE key = 'embedder'").get() as { value: string } | undefined;
    if (!existing) {
      this.stmt("INSERT INTO meta (key, value) VALUES ('embedder', ?)").run(JSON.stringify(stamp));
    } else {
      const have = JSON.parse(existing.value) as EmbedderStamp;
      if (have.id !== stamp.id || have.dimensions !== stamp.dimensions) throw mismatch(have, stamp);
    }
  }

  private insertMemory({ memory: m, chunks, contextOf }: PreparedMemory): { rowid: number; chunks: { chunkId: number; vector: Float32Array }[] } {
    const info = this.stmt(
      `INSERT INTO memories (id, kind, text, title, description, tags, topic, role, speaker, session, at, at_ms, recorded_at, metadata)
       VALUES (@id, @kind, @text, @title, @description, @tags, @topic, @role, @speaker, @session, @at, @atMs, @recordedAt, @metadata)`,
    ).run({
      ...m,
      tags: JSON.stringify(m.tags),
      atMs: Date.parse(m.at),
      metadata: JSON.stringify(m.metadata),
    });
    const memoryRowid = Number(info.lastInsertRowid);
    if (contextOf) {
      this.stmt("UPDATE memories SET context_rowid = (SELECT rowid FROM memories WHERE id = ?) WHERE rowid = ?").run(contextOf, memoryRowid);
    }
    pyramid.markDirty(this.prepare, [memoryRowid]);
    if (m.title || m.description || m.tags.length > 0) {
      this.stmt("INSERT INTO curated_fts (rowid, title, description, tags) VALUES (?, ?, ?, ?)").run(
        memoryRowid,
        m.title ?? "",
        m.description ?? "",
        m.tags.join(" "),
      );
    }
    const insertChunk = this.stmt(
      "INSERT INTO chunks (memory_rowid, ord, start, end, indexed_text, terms, vector, context_chars) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
    );
    const insertFts = this.stmt("INSERT INTO chunks_fts (rowid, body) VALUES (?, ?)");
    const countTerm = this.stmt("INSERT INTO terms (term, df) VALUES (?, 1) ON CONFLICT (term) DO UPDATE SET df = df + 1");
    const stored = chunks.map((c) => {
      const chunkId = Number(insertChunk.run(memoryRowid, c.ord, c.start, c.end, c.indexedText, c.terms.join(" "), toBlob(c.vector), c.contextChars).lastInsertRowid);
      insertFts.run(chunkId, c.indexedText);
      for (const term of c.terms) countTerm.run(term);
      return { chunkId, vector: c.vector };
    });
    return { rowid: memoryRowid, chunks: stored };
  }

  async getMemory(id: string): Promise<Memory | null> {
    const row = this.stmt(`SELECT ${MEMORY_COLUMNS} FROM memories m WHERE m.id = ?`).get(id) as MemoryRow | undefined;
    return row ? toMemory(row) : null;
  }

  async listMemories(query: ListQuery): Promise<{ memories: Memory[]; more: boolean }> {
    const rows = listMemoryIds(this.prepare, query);
    const page = rows.slice(0, query.limit);
    const memories = page.map((r) => toMemory(this.stmt(`SELECT ${MEMORY_COLUMNS} FROM memories m WHERE m.id = ?`).get(r.id) as MemoryRow));
    return { memories, more: rows.length > query.limit };
  }

  async deleteMemory(id: string): Promise<boolean> {
    let chunkIds: number[] = [];
    const deleted = this.db.transaction(() => {
      const row = this.stmt("SELECT rowid FROM memories WHERE id = ?").get(id) as { rowid: number } | undefined;
      if (!row) return false;
      pyramid.markDirty(this.prepare, [row.rowid]);
      this.stripContextOf(row.rowid);
      chunkIds = this.removeMemoryRow(row.rowid, id);
      return true;
    })();
    this.forgetVectors(chunkIds);
    return deleted;
  }

  /** Takes a forgotten memory's words out of the index of the turns that carried it as context. */
  private stripContextOf(rowid: number): void {
    const dependents = this.stmt("SELECT rowid FROM memories WHERE context_rowid = ?").pluck().all(rowid) as number[];
    for (const dep of dependents) {
      const c = this.stmt("SELECT id, indexed_text, terms, context_chars FROM chunks WHERE memory_rowid = ? AND ord = 0").get(dep) as
        | { id: number; indexed_text: string; terms: string; context_chars: number }
        | undefined;
      if (c && c.context_chars > 0) {
        const text = c.indexed_text.slice(0, c.indexed_text.length - c.context_chars);
        const terms = distinctContentWords(text);
        const kept = new Set(terms);
        this.stmt("DELETE FROM chunks_fts WHERE rowid = ?").run(c.id);
        this.stmt("INSERT INTO chunks_fts (rowid, body) VALUES (?, ?)").run(c.id, text);
        const uncount = this.stmt("UPDATE terms SET df = max(df - 1, 0) WHERE term = ?");
        for (const t of c.terms.split(" ")) if (t && !kept.has(t)) uncount.run(t);
        this.stmt("UPDATE chunks SET indexed_text = ?, terms = ?, context_chars = 0 WHERE id = ?").run(text, terms.join(" "), c.id);
      }
      this.stmt("UPDATE memories SET context_rowid = NULL WHERE rowid = ?").run(dep);
    }
  }

  async previousInSession(session: string, at: string): Promise<TurnContext | null> {
    const row = this.stmt(
      "SELECT id, speaker, text FROM memories WHERE session = ? AND at_ms < ? AND kind <> 'summary' ORDER BY at_ms DESC, rowid DESC LIMIT 1",
    ).get(session, Date.parse(at)) as TurnContext | undefined;
    return row ?? null;
  }

  /** Removes one memory from the tables and every index (inside a transaction); returns its chunk ids. */
  private removeMemoryRow(rowid: number, id: string): number[] {
    const chunks = this.stmt("SELECT id, terms FROM chunks WHERE memory_rowid = ?").all(rowid) as { id: number; terms: string }[];
    const deleteFts = this.stmt("DELETE FROM chunks_fts WHERE rowid = ?");
    const uncountTerm = this.stmt("UPDATE terms SET df = max(df - 1, 0) WHERE term = ?");
    for (const c of chunks) {
      deleteFts.run(c.id);
      for (const term of c.terms.split(" ")) if (term) uncountTerm.run(term);
    }
    this.stmt("DELETE FROM curated_fts WHERE rowid = ?").run(rowid);
    const info = this.stmt("DELETE FROM memories WHERE rowid = ?").run(rowid); // chunks, nodes and links cascade
    if (info.changes !== 1) throw new CascadeError("STORE_ERROR", `forget ${id}: the memory row was not deleted`);
    this.addToChunkCount(-chunks.length);
    return chunks.map((c) => c.id);
  }

  private forgetVectors(chunkIds: number[]): void {
    if (this.matrix) for (const c of chunkIds) this.matrix.remove(c);
  }

  async hydrate(chunkIds: number[]): Promise<Map<number, HydratedChunk>> {
    const rows = this.stmt(
      `SELECT c.id AS chunk_id, c.ord, c.start, c.end, ${MEMORY_COLUMNS}
       FROM chunks c JOIN memories m ON m.rowid = c.memory_rowid
       WHERE c.id IN (SELECT value FROM json_each(?))`,
    ).all(JSON.stringify(chunkIds)) as (MemoryRow & { chunk_id: number; ord: number; start: number; end: number })[];
    const out = new Map<number, HydratedChunk>();
    for (const r of rows) {
      const memory = toMemory(r);
      out.set(r.chunk_id, { chunkId: r.chunk_id, ord: r.ord, start: r.start, end: r.end, text: memory.text.slice(r.start, r.end), memory });
    }
    return out;
  }

  /**
   * The chunk ids a selective filter allows (a topic subtree, a short time range), or null when it allows more
   * than `selectiveChunks` (20,000). Reading them through the memories' indexes and filtering FTS5's matches in memory is
   * 4-5× faster than joining every match to its memory (31 → 7 ms for a 1% subtree at 100,000 chunks); for a
   * filter that keeps most chunks the join is as good and no large set is built. Cached for the channels of one
   * query until the store changes.
   */
  private allowedChunks(filter: SearchFilter): Set<number> | null {
    const key = JSON.stringify(filter);
    // data_version moves with other connections' commits, total_changes() with this connection's own writes
    const version = this.stmt("SELECT (SELECT data_version FROM pragma_data_version) || ':' || total_changes()").pluck().get() as string;
    if (this.allowedCache?.key === key && this.allowedCache.version === version) return this.allowedCache.ids;
    const cond = filterCondition(filter);
    const ids = this.stmt(`SELECT c.id FROM memories m JOIN chunks c ON c.memory_rowid = m.rowid WHERE ${cond.sql} LIMIT @cap`)
      .pluck()
      .all({ ...cond.params, cap: this.selectiveChunks + 1 }) as number[];
    const set = ids.length > this.selectiveChunks ? null : new Set(ids);
    this.allowedCache = { key, version, ids: set };
    return set;
  }

  async searchBody({ match, depth, filter }: { match: string; depth: number; filter: SearchFilter }): Promise<Ranked[]> {
    const allowed = isEmptyFilter(filter) ? null : this.allowedChunks(filter);
    if (allowed) {
      const all = this.stmt("SELECT rowid, rank FROM chunks_fts WHERE chunks_fts MATCH ?").raw().all(match) as [number, number][];
      const top = all.filter(([id]) => allowed.has(id)).sort((a, b) => a[1] - b[1] || a[0] - b[0]).slice(0, depth);
      const owners = this.ownersOf(top.map((t) => t[0]));
      return top.map(([chunkId, rank]) => ({ chunkId, memoryId: owners.get(chunkId)!, score: -rank }));
    }
    if (isEmptyFilter(filter)) {
      // Unfiltered: let FTS5 rank and cut on its own, then name the memories of just the top `depth`.
      const top = this.stmt("SELECT rowid AS chunkId, rank FROM chunks_fts WHERE chunks_fts MATCH ? ORDER BY rank LIMIT ?").all(
        match,
        depth,
      ) as { chunkId: number; rank: number }[];
      const owners = this.ownersOf(top.map((t) => t.chunkId));
      return top.map((t) => ({ chunkId: t.chunkId, memoryId: owners.get(t.chunkId)!, score: -t.rank }));
    }
    const cond = filterCondition(filter);
    const rows = this.stmt(
      `SELECT c.id AS chunkId, m.id AS memoryId, chunks_fts.rank AS rank
       FROM chunks_fts JOIN chunks c ON c.id = chunks_fts.rowid JOIN memories m ON m.rowid = c.memory_rowid
       WHERE chunks_fts MATCH @match AND ${cond.sql} ORDER BY chunks_fts.rank LIMIT @depth`,
    ).all({ ...cond.params, match, depth }) as { chunkId: number; memoryId: string; rank: number }[];
    return rows.map((r) => ({ chunkId: r.chunkId, memoryId: r.memoryId, score: -r.rank }));
  }

  async searchCurated({ match, depth, filter }: { match: string; depth: number; filter: SearchFilter }): Promise<Ranked[]> {
    const cond = filterCondition(filter);
    const rows = this.stmt(
      `SELECT (SELECT id FROM chunks WHERE memory_rowid = m.rowid ORDER BY ord LIMIT 1) AS chunkId, m.id AS memoryId,
              curated_fts.rank AS rank
       FROM curated_fts JOIN memories m ON m.rowid = curated_fts.rowid
       WHERE curated_fts MATCH @match AND ${cond.sql} ORDER BY curated_fts.rank LIMIT @depth`,
    ).all({ ...cond.params, match, depth }) as { chunkId: number; memoryId: string; rank: number }[];
    return rows.map((r) => ({ chunkId: r.chunkId, memoryId: r.memoryId, score: -r.rank }));
  }

  async nearestChunks({ vector, depth, filter }: { vector: Float32Array; depth: number; filter: SearchFilter }): Promise<Ranked[]> {
    const matrix = this.loadMatrix(vector.length);
    let neighbours;
    if (isEmptyFilter(filter)) {
      neighbours = matrix.nearest(vector, depth);
    } else {
      const selective = this.allowedChunks(filter);
      const cond = filterCondition(filter);
      const allowed = selective
        ? [...selective]
        : (this.stmt(`SELECT c.id FROM chunks c JOIN memories m ON m.rowid = c.memory_rowid WHERE ${cond.sql}`).pluck().all(cond.params) as number[]);
      neighbours = matrix.nearestAmong(vector, allowed, depth);
    }
    const owners = this.ownersOf(neighbours.map((n) => n.key));
    return neighbours.map((n) => ({ chunkId: n.key, memoryId: owners.get(n.key)!, score: n.similarity }));
  }

  private loadMatrix(dimensions: number): VectorMatrix {
    const version = this.db.pragma("data_version", { simple: true }) as number;
    if (this.matrix && this.matrixVersion === version) return this.matrix;
    // sized once (no doubling while loading); blobs are copied straight into the matrix, never one array each
    const matrix = new VectorMatrix(dimensions, this.chunkCount() + 1024);
    for (const row of this.stmt("SELECT id, vector FROM chunks").raw().iterate() as Iterable<[number, Buffer]>) {
      matrix.add(row[0], row[1]);
    }
    this.matrix = matrix;
    this.matrixVersion = version;
    return matrix;
  }

  /** Folds the write-ahead log into the database file (after a bulk load, before timing reads). */
  checkpoint(): void {
    this.db.pragma("wal_checkpoint(TRUNCATE)");
  }

  /** Every memory id in insertion order (for benchmarks). */
  async memoryIdsInOrder(): Promise<string[]> {
    return this.stmt("SELECT id FROM memories ORDER BY rowid").pluck().all() as string[];
  }

  /** Every chunk vector, straight from the table, one at a time (for checks against the derived index). */
  *streamVectors(): Generator<[number, Float32Array]> {
    for (const [id, blob] of this.stmt("SELECT id, vector FROM chunks").raw().iterate() as Iterable<[number, Buffer]>) yield [id, fromBlob(blob)];
  }

  async memoryIdsOfChunks(chunkIds: number[]): Promise<Map<number, string>> {
    return this.ownersOf(chunkIds);
  }

  private ownersOf(chunkIds: number[]): Map<number, string> {
    const rows = this.stmt(
      `SELECT c.id, m.id FROM chunks c JOIN memories m ON m.rowid = c.memory_rowid
       WHERE c.id IN (SELECT value FROM json_each(?))`,
    ).raw().all(JSON.stringify(chunkIds)) as [number, string][];
    return new Map(rows);
  }

  async termsAfter(afterId: number): Promise<{ id: number; term: string }[]> {
    return this.stmt("SELECT id, term FROM terms WHERE id > ? ORDER BY id").all(afterId) as { id: number; term: string }[];
  }

  async chunksWithTerms({ terms, filter }: { terms: string[]; filter: SearchFilter }): Promise<Map<string, number[]>> {
    const selective = isEmptyFilter(filter) ? null : this.allowedChunks(filter);
    const unfiltered = isEmptyFilter(filter) || selective !== null;
    const cond = filterCondition(filter);
    const query = unfiltered
      ? this.stmt("SELECT rowid FROM chunks_fts WHERE chunks_fts MATCH @match").pluck()
      : this.stmt(
          `SELECT c.id FROM chunks_fts JOIN chunks c ON c.id = chunks_fts.rowid JOIN memories m ON m.rowid = c.memory_rowid
           WHERE chunks_fts MATCH @match AND ${cond.sql}`,
        ).pluck();
    const out = new Map<string, number[]>();
    for (const term of terms) {
      // a quoted string is FTS5's literal form: the term is data, never syntax
      const ids = query.all({ ...cond.params, match: quoteFtsTerm(term) }) as number[];
      out.set(term, selective ? ids.filter((id) => selective.has(id)) : ids);
    }
    return out;
  }

  async termStats(terms: string[]): Promise<{ chunks: number; df: Map<string, number> }> {
    const rows = this.stmt("SELECT term, df FROM terms WHERE term IN (SELECT value FROM json_each(?))").raw().all(JSON.stringify(terms)) as [string, number][];
    const df = new Map(terms.map((t) => [t, 0]));
    for (const [t, n] of rows) df.set(t, n);
    return { chunks: this.chunkCount(), df };
  }

  /** count(*) scans the table (8 ms at 100,000 chunks); the count is kept in meta instead, in the same transactions. */
  private chunkCount(): number {
    const v = this.stmt("SELECT value FROM meta WHERE key = 'chunk_count'").pluck().get() as string | undefined;
    return v === undefined ? 0 : Number(v);
  }

  private addToChunkCount(delta: number): void {
    this.stmt(
      "INSERT INTO meta (key, value) VALUES ('chunk_count', @delta) ON CONFLICT (key) DO UPDATE SET value = CAST(value AS INTEGER) + @delta",
    ).run({ delta });
  }

  async eventTimes(memoryIds: string[]): Promise<Map<string, number>> {
    const rows = this.stmt("SELECT id, at_ms FROM memories WHERE id IN (SELECT value FROM json_each(?))")
      .raw()
      .all(JSON.stringify(memoryIds)) as [string, number][];
    return new Map(rows);
  }

  async firstChunkIds(memoryIds: string[]): Promise<Map<string, number>> {
    const rows = this.stmt(
      `SELECT m.id, (SELECT c.id FROM chunks c WHERE c.memory_rowid = m.rowid ORDER BY c.ord LIMIT 1)
       FROM memories m WHERE m.id IN (SELECT value FROM json_each(?))`,
    ).raw().all(JSON.stringify(memoryIds)) as [string, number][];
    return new Map(rows);
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
    this.db.transaction(() => {
      const nodes = this.stmt("SELECT m.rowid, m.id FROM summary_nodes n JOIN memories m ON m.rowid = n.memory_rowid").raw().all() as [number, string][];
      for (const [rowid, id] of nodes) removed.push(...this.removeMemoryRow(rowid, id));
      this.stmt("DELETE FROM dirty_windows").run();
      this.stmt("INSERT INTO meta (key, value) VALUES ('pyramid_zone', ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value").run(zone);
      pyramid.markAllDirty(this.prepare);
    })();
    this.forgetVectors(removed);
  }

  async windowInputs(window: Window): Promise<Memory[]> {
    const rowids = pyramid.windowInputRowids(this.prepare, window.level, window.start, window.end);
    const rows = this.stmt(`SELECT ${MEMORY_COLUMNS} FROM memories m WHERE m.rowid IN (SELECT value FROM json_each(?)) ORDER BY m.at_ms, m.rowid`).all(
      JSON.stringify(rowids),
    ) as MemoryRow[];
    return rows.map(toMemory);
  }

  async writeSummary(node: PreparedMemory, window: Window, childIds: string[], stamp: EmbedderStamp): Promise<void> {
    const added: { chunkId: number; vector: Float32Array }[] = [];
    const removed: number[] = [];
    this.db.transaction(() => {
      this.checkStamp(stamp);
      removed.push(...this.removeNode(window.level, window.start));
      const { rowid, chunks } = this.insertMemory(node);
      added.push(...chunks);
      this.addToChunkCount(chunks.length);
      const children = this.stmt("SELECT rowid FROM memories WHERE id IN (SELECT value FROM json_each(?))").pluck().all(JSON.stringify(childIds)) as number[];
      pyramid.insertNode(this.prepare, rowid, window.level, window.start, window.end, children);
    })();
    this.forgetVectors(removed);
    if (this.matrix) for (const a of added) this.matrix.add(a.chunkId, a.vector);
  }

  async deleteSummary(level: WindowLevel, start: number): Promise<boolean> {
    const removed = this.db.transaction(() => this.removeNode(level, start))();
    this.forgetVectors(removed);
    return removed.length > 0;
  }

  private removeNode(level: WindowLevel, start: number): number[] {
    const rowid = pyramid.nodeRowid(this.prepare, level, start);
    return rowid === undefined ? [] : this.removeMemoryRow(rowid, `${level} node`);
  }

  async pyramidNodes(query: NodeQuery = {}): Promise<PyramidNode[]> {
    return pyramid.listNodes(this.prepare, query);
  }

  async summaryChildren(id: string): Promise<string[]> {
    return pyramid.childIds(this.prepare, id);
  }

  async topicRows(under?: string): Promise<{ path: string; description: string | null }[]> {
    return topics.topicRows(this.prepare, under);
  }

  async saveTopic(path: string, description: string | null, at: number): Promise<void> {
    topics.upsertTopic(this.prepare, path, description, at);
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

  async doctor(repair: boolean): Promise<DoctorCheck[]> {
    const checks = runDoctor(this.db, this.prepare, (await this.embedderStamp())?.dimensions ?? null, repair);
    if (checks.some((c) => c.repaired)) this.matrix = null; // reloaded from the table on next use
    return checks;
  }

  async stats(): Promise<StoreStats> {
    const count = (table: string) => (this.stmt(`SELECT count(*) FROM ${table}`).pluck().get() as number);
    let bytes = 0;
    if (this.path !== ":memory:") {
      for (const suffix of ["", "-wal"]) {
        try {
          bytes += statSync(this.path + suffix).size;
        } catch {
          // no WAL file yet
        }
      }
    }
    return { memories: count("memories"), chunks: count("chunks"), terms: count("terms"), bytes };
  }

  async close(): Promise<void> {
    if (this.db.open) this.db.close();
  }
}

function mismatch(have: EmbedderStamp, want: EmbedderStamp): CascadeError {
  return new CascadeError(
    "EMBEDDER_MISMATCH",
    `this store was built with embedder ${have.id} (${have.dimensions}-d) and cannot take vectors from ${want.id} ` +
      `(${want.dimensions}-d); open it with the same embedder or use a new --db`,
    { field: "embedder" },
  );
}
