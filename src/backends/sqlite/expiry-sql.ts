/**
 * @module backends/sqlite/expiry-sql
 * Leaving expired memories out of a search without slowing every search down. A filter with `liveAt` alone
 * would make every query take the filtered (joined) path, which costs several milliseconds at 100,000 chunks;
 * but expired memories are few, so their chunks are read once through the partial index on `expires_at_ms`,
 * the channels ask for that many more candidates, and the expired ones are dropped from the answer. Only when
 * more than `MAX_EXCLUDED` chunks have expired does `liveAt` stay in the SQL filter.
 */
import type { Ranked, SearchFilter } from "../../model/types.js";
import type Database from "better-sqlite3";
import { storeVersion } from "./version.js";

type Prepare = (sql: string) => Database.Statement;

const MAX_EXCLUDED = 2_000;

export interface LiveFilter {
  /** The filter the channel's query runs with. */
  filter: SearchFilter;
  /** Chunks to drop from its answer (expired), or null. */
  expired: Set<number> | null;
}

/** The last answer per store (its statement cache): a search's channels all ask with the same `liveAt`. */
const lastAnswer = new WeakMap<Prepare, { version: string; liveAt: number; ids: number[] }>();

export function liveFilter(stmt: Prepare, filter: SearchFilter): LiveFilter {
  if (filter.liveAt === undefined) return { filter, expired: null };
  const ids = expiredChunks(stmt, filter.liveAt);
  if (ids.length > MAX_EXCLUDED) return { filter, expired: null };
  const { liveAt: _liveAt, ...rest } = filter;
  return { filter: rest, expired: ids.length ? new Set(ids) : null };
}

/** The chunks of memories expired at `liveAt` (at most one more than MAX_EXCLUDED), kept while the store is unchanged. */
function expiredChunks(stmt: Prepare, liveAt: number): number[] {
  const version = storeVersion(stmt);
  const last = lastAnswer.get(stmt);
  if (last && last.version === version && last.liveAt === liveAt) return last.ids;
  const ids = stmt(
    "SELECT c.id FROM memories m JOIN chunks c ON c.memory_rowid = m.rowid WHERE m.expires_at_ms IS NOT NULL AND m.expires_at_ms <= ? LIMIT ?",
  )
    .pluck()
    .all(liveAt, MAX_EXCLUDED + 1) as number[];
  lastAnswer.set(stmt, { version, liveAt, ids });
  return ids;
}

/** How many candidates to ask for so that `depth` remain after the expired ones are dropped. */
export const deeper = (depth: number, live: LiveFilter) => depth + (live.expired?.size ?? 0);

export function dropExpired(list: Ranked[], live: LiveFilter, depth: number): Ranked[] {
  return live.expired ? list.filter((r) => !live.expired!.has(r.chunkId)).slice(0, depth) : list;
}
