/**
 * @module backends/sqlite/pyramid-writes
 * The SQLite store's pyramid writes, each the body of one write transaction that the store (store.ts) opens and
 * whose added and removed chunks it then hands to the vector index: a summary node written or removed, the whole
 * pyramid dropped for a new time zone; and the dirty windows and a window's memories. Apart from the facade so it
 * stays one short method a port method; the node SQL itself lives in pyramid-sql.ts.
 */
import type Database from "better-sqlite3";
import type { Memory, PreparedMemory } from "../../model/types.js";
import type { EmbedderStamp } from "../../ports/store.js";
import type { Window, WindowLevel } from "../../time/windows.js";
import * as rows from "./memory-sql.js";
import { MEMORY_COLUMNS, toMemory, type MemoryRow } from "./memory-sql.js";
import * as pyramid from "./pyramid-sql.js";

type Prepare = (sql: string) => Database.Statement;

/** Windows to rebuild, days first, then weeks, then months, each in time order. */
export function dirtyWindows(stmt: Prepare): { level: WindowLevel; start: number }[] {
  return stmt(
    "SELECT level, start_ms AS start FROM dirty_windows ORDER BY CASE level WHEN 'day' THEN 0 WHEN 'week' THEN 1 ELSE 2 END, start_ms",
  ).all() as { level: WindowLevel; start: number }[];
}

/** Every summary node removed and every window marked dirty, under a new time zone; the chunks removed. */
export function setPyramidZone(stmt: Prepare, zone: string): number[] {
  const removed: number[] = [];
  const nodes = stmt("SELECT m.rowid, m.id FROM summary_nodes n JOIN memories m ON m.rowid = n.memory_rowid").raw().all() as [number, string][];
  for (const [rowid, id] of nodes) removed.push(...rows.removeMemoryRow(stmt, rowid, id));
  stmt("DELETE FROM dirty_windows").run();
  stmt("INSERT INTO meta (key, value) VALUES ('pyramid_zone', ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value").run(zone);
  pyramid.markAllDirty(stmt);
  return removed;
}

/** The memories a window summarizes, in time order. */
export function windowInputs(stmt: Prepare, window: Window): Memory[] {
  const rowids = pyramid.windowInputRowids(stmt, window.level, window.start, window.end);
  const found = stmt(`SELECT ${MEMORY_COLUMNS} FROM memories m WHERE m.rowid IN (SELECT value FROM json_each(?)) ORDER BY m.at_ms, m.rowid`).all(
    JSON.stringify(rowids),
  ) as MemoryRow[];
  return found.map(toMemory);
}

/**
 * A summary node written (replacing one of the same id), with the chunks it added and removed; false when a child
 * or source is gone.
 */
export function writeSummary(
  stmt: Prepare,
  node: PreparedMemory,
  window: Window | { level: "turn"; start: number; end: number },
  childIds: string[],
  stamp: EmbedderStamp,
  sources: string[],
  added: { chunkId: number; vector: Float32Array }[],
  removed: number[],
): boolean {
  // under the write lock: a forget committed before this point is seen, one after it waits and rebuilds the window
  if (!pyramid.allExist(stmt, [...childIds, ...sources])) return false;
  rows.checkStamp(stmt, stamp);
  const old = pyramid.nodeRowidById(stmt, node.memory.id);
  if (old !== undefined) removed.push(...rows.removeMemoryRow(stmt, old, node.memory.id));
  const { rowid, chunks } = rows.insertMemory(stmt, node);
  added.push(...chunks);
  rows.addToChunkCount(stmt, chunks.length);
  const children = stmt("SELECT rowid FROM memories WHERE id IN (SELECT value FROM json_each(?))").pluck().all(JSON.stringify(childIds)) as number[];
  pyramid.insertNode(stmt, rowid, window.level, window.start, window.end, children);
  return true;
}

/** A summary node removed; the chunks removed (none when there is no node of that id). */
export function deleteSummary(stmt: Prepare, id: string): number[] {
  const rowid = pyramid.nodeRowidById(stmt, id);
  return rowid === undefined ? [] : rows.removeMemoryRow(stmt, rowid, id);
}
