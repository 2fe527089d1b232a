/**
 * @module backends/sqlite/version
 * What this connection can see of the store, as a string that changes whenever it does: PRAGMA data_version
 * moves with other connections' commits, total_changes() with this connection's own writes. Whatever is read
 * and kept between searches (a filter's chunks, the expired chunks: memory rows, not chunk rows alone) is kept
 * under it. What depends on chunk rows alone (the vector matrix, chunk owners) is kept under the chunk generation
 * (`chunkGeneration`), which other connections' commits of anything else leave alone.
 */
import type Database from "better-sqlite3";

type Prepare = (sql: string) => Database.Statement;

export function storeVersion(stmt: Prepare): string {
  return stmt("SELECT (SELECT data_version FROM pragma_data_version) || ':' || total_changes()").pluck().get() as string;
}

/**
 * The meta key of the chunk generation (migration 18): a count that triggers bump in the same transaction as every
 * change to a chunk's id, memory or vector (a chunk added, deleted, re-embedded), whichever connection makes it.
 */
export const CHUNK_GENERATION_KEY = "chunk_generation";

/**
 * The chunk generation this connection sees now: one row of meta by its key (~1 µs, a prepared statement). NaN when
 * the row is missing (a store damaged by hand), which equals nothing: whatever is kept under it is read again.
 */
export function chunkGeneration(stmt: Prepare): number {
  const value = stmt(`SELECT value FROM meta WHERE key = '${CHUNK_GENERATION_KEY}'`).pluck().get() as string | undefined | null;
  return value === undefined || value === null ? NaN : Number(value);
}

/**
 * Runs `write` in one transaction of `db` and reads the chunk generation at its start and its end, inside it: what
 * the vector matrix needs to take this connection's own chunks without reading the table again (vector-index.ts).
 */
export function withGenerations<T>(db: Database.Database, stmt: Prepare, write: () => T): { result: T; before: number; after: number } {
  return db.transaction(() => {
    const before = chunkGeneration(stmt);
    const result = write();
    return { result, before, after: chunkGeneration(stmt) };
  })();
}

/**
 * What this connection can see of the chunk rows: the chunk generation, and total_changes() for this connection's
 * own writes (a write rolled back takes the generation back where it was, but not total_changes). Without the
 * generation's row (a store damaged by hand), PRAGMA data_version stands in: any other connection's commit.
 */
export function chunkVersion(stmt: Prepare): string {
  return stmt(
    `SELECT ifnull((SELECT value FROM meta WHERE key = '${CHUNK_GENERATION_KEY}'), 'd' || (SELECT data_version FROM pragma_data_version)) || ':' || total_changes()`,
  )
    .pluck()
    .get() as string;
}
