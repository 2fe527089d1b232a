/**
 * @module backends/sqlite/live-search
 * The SQLite store's channel reads with expiry applied (expiry-sql.ts): each read runs on the filter of live
 * memories, asks deeper by the number of expired chunks, and drops those after. Apart from the store (store.ts) so
 * the facade stays one short method a port method; lexical search is lexical-sql.ts, dense search vector-index.ts.
 */
import type Database from "better-sqlite3";
import type { Ranked, SearchFilter } from "../../model/types.js";
import type { LexicalQuery } from "../../ports/store.js";
import { deeper, dropExpired, liveFilter } from "./expiry-sql.js";
import { isEmptyFilter } from "./filter-sql.js";
import type { LexicalSql } from "./lexical-sql.js";
import type { OwnerCache } from "./owner-cache.js";
import type { StoreThreads } from "./threads.js";
import type { VectorIndex } from "./vector-index.js";

type Prepare = (sql: string) => Database.Statement;

/** One store's channel reads, live memories only. */
export class LiveSearch {
  constructor(
    private readonly prepare: Prepare,
    private readonly lexical: LexicalSql,
    private readonly vectors: VectorIndex,
    private readonly owners: OwnerCache,
    private readonly threads: StoreThreads,
  ) {}

  async searchBody(query: LexicalQuery): Promise<Ranked[]> {
    const live = liveFilter(this.prepare, query.filter);
    return dropExpired(await this.lexical.searchBody({ ...query, filter: live.filter, depth: deeper(query.depth, live) }), live, query.depth);
  }

  searchCurated(query: LexicalQuery): Ranked[] {
    const live = liveFilter(this.prepare, query.filter);
    return dropExpired(this.lexical.searchCurated({ ...query, filter: live.filter, depth: deeper(query.depth, live) }), live, query.depth);
  }

  async nearestChunks({ vector, depth, filter, alongside }: { vector: Float32Array; depth: number; filter: SearchFilter; alongside?: boolean }): Promise<Ranked[]> {
    // the lexical channels hand their reads to the reader threads first, so that they work while this one searches
    // (one turn of the event loop; not for revision detection, where it cost ~1.5 ms a memory at 1,000,000 chunks)
    if (alongside && this.threads.readersAlive) await new Promise(setImmediate);
    const live = liveFilter(this.prepare, filter);
    const allowed = isEmptyFilter(live.filter) ? null : this.lexical.allowedChunkList(live.filter);
    return dropExpired(this.vectors.nearest(vector, deeper(depth, live), allowed, (ids) => this.owners.ownersOf(ids)), live, depth);
  }

  async chunksWithTerms(query: { terms: string[]; filter: SearchFilter }): Promise<Map<string, number[]>> {
    const live = liveFilter(this.prepare, query.filter);
    const lists = await this.lexical.chunksWithTerms({ ...query, filter: live.filter });
    if (live.expired) for (const [term, ids] of lists) lists.set(term, ids.filter((id) => !live.expired!.has(id)));
    return lists;
  }
}
