/**
 * @module backends/sqlite/lexical-sql
 * Lexical search for the SQLite store: the FTS5 body and curated channels, posting lists per term (colbert),
 * term statistics, and the selective-filter shortcut shared by the channels of one query (also used by the
 * dense channel to restrict its candidates).
 */
import type Database from "better-sqlite3";
import type { Ranked, SearchFilter } from "../../model/types.js";
import { quoteFtsTerm, toFtsQuery } from "./fts-query.js";
import type { LexicalQuery } from "../../ports/store.js";
import { stemmer } from "stemmer";
import { filterCondition, isEmptyFilter } from "./filter-sql.js";
import { chunkCount } from "./memory-sql.js";
import type { OwnerCache } from "./owner-cache.js";
import { storeVersion } from "./version.js";
import type { SideJob, SideReader } from "./side-reader.js";

type Prepare = (sql: string) => Database.Statement;

/** Filters allowing at most this many chunks are applied in memory (see LexicalSql.allowedChunks). */
export const SELECTIVE_CHUNKS = 20_000;

export class LexicalSql {
  /** The chunks the last filter allowed, shared by the channels of one query (see allowedChunks). */
  private allowedCache: { key: string; version: string; ids: Set<number> | null } | null = null;

  constructor(
    private readonly stmt: Prepare,
    private readonly selectiveChunks: number,
    private readonly owners: OwnerCache,
    /** The store's reader thread for a job, when it has them (a large store on a file): FTS5's reads run there. */
    private readonly side: (job: SideJob) => SideReader | null = () => null,
  ) {}

  /**
   * The chunk ids a selective filter allows (a topic subtree, a short time range), or null when it allows more
   * than `selectiveChunks` (20,000). Reading them through the memories' indexes and filtering FTS5's matches in memory is
   * 4-5× faster than joining every match to its memory (31 → 7 ms for a 1% subtree at 100,000 chunks); for a
   * filter that keeps most chunks the join is as good and no large set is built. Cached for the channels of one
   * query until the store changes.
   */
  allowedChunks(filter: SearchFilter): Set<number> | null {
    const key = JSON.stringify(filter);
    const version = storeVersion(this.stmt);
    if (this.allowedCache?.key === key && this.allowedCache.version === version) return this.allowedCache.ids;
    const cond = filterCondition(filter);
    const ids = this.stmt(`SELECT c.id FROM memories m JOIN chunks c ON c.memory_rowid = m.rowid WHERE ${cond.sql} LIMIT @cap`)
      .pluck()
      .all({ ...cond.params, cap: this.selectiveChunks + 1 }) as number[];
    const set = ids.length > this.selectiveChunks ? null : new Set(ids);
    this.allowedCache = { key, version, ids: set };
    return set;
  }

  /** Every chunk the filter allows (the selective set when there is one, else all by a join). */
  allowedChunkList(filter: SearchFilter): number[] {
    const selective = this.allowedChunks(filter);
    const cond = filterCondition(filter);
    return selective
      ? [...selective]
      : (this.stmt(`SELECT c.id FROM chunks c JOIN memories m ON m.rowid = c.memory_rowid WHERE ${cond.sql}`).pluck().all(cond.params) as number[]);
  }

  async searchBody({ words, depth, filter }: LexicalQuery): Promise<Ranked[]> {
    const match = toFtsQuery(words);
    if (match === null) return [];
    const allowed = isEmptyFilter(filter) ? null : this.allowedChunks(filter);
    if (allowed) {
      const all = this.stmt("SELECT rowid, rank FROM chunks_fts WHERE chunks_fts MATCH ?").raw().all(match) as [number, number][];
      const top = all.filter(([id]) => allowed.has(id)).sort((a, b) => a[1] - b[1] || a[0] - b[0]).slice(0, depth);
      const owners = this.owners.ownersOf(top.map((t) => t[0]));
      return top.filter(([chunkId]) => owners.has(chunkId)).map(([chunkId, rank]) => ({ chunkId, memoryId: owners.get(chunkId)!, score: -rank }));
    }
    if (isEmptyFilter(filter)) {
      // Unfiltered: let FTS5 rank and cut on its own, then name the memories of just the top `depth`.
      const sql = "SELECT rowid, rank FROM chunks_fts WHERE chunks_fts MATCH ? ORDER BY rank LIMIT ?";
      const side = this.side("rank");
      const top = (side ? (await side.raw(sql, [[match, depth]]))[0] : this.stmt(sql).raw().all(match, depth)) as [number, number][];
      const owners = this.owners.ownersOf(top.map((t) => t[0]));
      // each statement reads its own snapshot: a chunk another process deleted in between has no owner any more
      return top.filter(([chunkId]) => owners.has(chunkId)).map(([chunkId, rank]) => ({ chunkId, memoryId: owners.get(chunkId)!, score: -rank }));
    }
    const cond = filterCondition(filter);
    const rows = this.stmt(
      `SELECT c.id AS chunkId, m.id AS memoryId, chunks_fts.rank AS rank
       FROM chunks_fts JOIN chunks c ON c.id = chunks_fts.rowid JOIN memories m ON m.rowid = c.memory_rowid
       WHERE chunks_fts MATCH @match AND ${cond.sql} ORDER BY chunks_fts.rank LIMIT @depth`,
    ).all({ ...cond.params, match, depth }) as { chunkId: number; memoryId: string; rank: number }[];
    return rows.map((r) => ({ chunkId: r.chunkId, memoryId: r.memoryId, score: -r.rank }));
  }

  searchCurated({ words, depth, filter }: LexicalQuery): Ranked[] {
    const match = toFtsQuery(words);
    if (match === null) return [];
    const cond = filterCondition(filter);
    const rows = this.stmt(
      `SELECT (SELECT id FROM chunks WHERE memory_rowid = m.rowid ORDER BY ord LIMIT 1) AS chunkId, m.id AS memoryId,
              curated_fts.rank AS rank
       FROM curated_fts JOIN memories m ON m.rowid = curated_fts.rowid
       WHERE curated_fts MATCH @match AND ${cond.sql} ORDER BY curated_fts.rank LIMIT @depth`,
    ).all({ ...cond.params, match, depth }) as { chunkId: number; memoryId: string; rank: number }[];
    return rows.map((r) => ({ chunkId: r.chunkId, memoryId: r.memoryId, score: -r.rank }));
  }

  /** FTS5's porter tokenizer files a word under its Porter stem; the `stemmer` package computes the same stem. */
  indexKeys(words: string[]): Map<string, string> {
    return new Map(words.map((w) => [w, stemmer(w)]));
  }

  termsAfter(afterId: number): { id: number; term: string }[] {
    return this.stmt("SELECT id, term FROM terms WHERE id > ? ORDER BY id").all(afterId) as { id: number; term: string }[];
  }

  async chunksWithTerms({ terms, filter }: { terms: string[]; filter: SearchFilter }): Promise<Map<string, number[]>> {
    const sql = "SELECT rowid FROM chunks_fts WHERE chunks_fts MATCH ?";
    // a quoted string is FTS5's literal form: the term is data, never syntax
    const side = this.side("lists");
    const found = side
      ? new Map((await side.pluck(sql, terms.map((term) => [quoteFtsTerm(term)]))).map((ids, i) => [terms[i], Array.from(ids)]))
      : new Map(terms.map((term) => [term, this.stmt(sql).pluck().all(quoteFtsTerm(term)) as number[]]));
    if (isEmptyFilter(filter)) return found;
    // The filter is checked once for the union of every term's chunks: joining it into each term's query made
    // SQLite rebuild a metadata subquery per term (a 40% `priority>=3` cost 340 ms a query at 100,000 chunks).
    const allowed = this.allowedChunks(filter) ?? this.allowedAmong([...new Set([...found.values()].flat())], filter);
    for (const [term, ids] of found) found.set(term, ids.filter((id) => allowed.has(id)));
    return found;
  }

  /** Which of these chunks the filter allows, in one statement. */
  private allowedAmong(chunkIds: number[], filter: SearchFilter): Set<number> {
    const cond = filterCondition(filter);
    const sql = `SELECT c.id FROM chunks c JOIN memories m ON m.rowid = c.memory_rowid
                 WHERE c.id IN (SELECT value FROM json_each(@ids)) AND ${cond.sql}`;
    return new Set(this.stmt(sql).pluck().all({ ...cond.params, ids: JSON.stringify(chunkIds) }) as number[]);
  }

  termStats(terms: string[]): { chunks: number; df: Map<string, number> } {
    const rows = this.stmt("SELECT term, df FROM terms WHERE term IN (SELECT value FROM json_each(?))").raw().all(JSON.stringify(terms)) as [string, number][];
    const df = new Map(terms.map((t) => [t, 0]));
    for (const [t, n] of rows) df.set(t, n);
    return { chunks: chunkCount(this.stmt), df };
  }
}
