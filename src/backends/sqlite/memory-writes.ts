/**
 * @module backends/sqlite/memory-writes
 * The SQLite store's memory revisions and deletions, each the body of one write transaction that the store
 * (store.ts) opens and whose removed and added chunks it then hands to the vector index. Apart from the facade so
 * it stays one short method a port method; the row SQL itself lives in memory-sql.ts.
 */
import type Database from "better-sqlite3";
import type { PreparedMemory } from "../../model/types.js";
import type { EmbedderStamp } from "../../ports/store.js";
import * as rows from "./memory-sql.js";
import * as pyramid from "./pyramid-sql.js";

type Prepare = (sql: string) => Database.Statement;

/** A memory's new version written, the old one kept as a revision; the chunks removed and added. */
export function reviseMemory(stmt: Prepare, next: PreparedMemory, stamp: EmbedderStamp, recordedAt: number): ReturnType<typeof rows.reviseMemoryRow> {
  rows.checkStamp(stmt, stamp);
  return rows.reviseMemoryRow(stmt, next, recordedAt);
}

/**
 * A memory removed with its turn summaries, its windows marked dirty; false when there is none of that id. The
 * chunks removed are pushed onto `chunkIds`.
 */
export function deleteMemory(stmt: Prepare, id: string, chunkIds: number[]): boolean {
  const rowid = rows.memoryRowid(stmt, id);
  if (rowid === undefined) return false;
  pyramid.markDirty(stmt, [rowid]);
  rows.stripContextOf(stmt, rowid);
  for (const turn of pyramid.turnNodesOf(stmt, rowid)) chunkIds.push(...rows.removeMemoryRow(stmt, turn, `the turn summary of ${id}`));
  chunkIds.push(...rows.removeMemoryRow(stmt, rowid, id));
  return true;
}
