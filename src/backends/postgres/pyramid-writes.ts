/**
 * @module backends/postgres/pyramid-writes
 * The PostgreSQL store's pyramid writes, each the body of one write transaction (the store, store.ts, opens it
 * under the namespace's write lock): a summary node written or removed, the whole pyramid dropped for a new time
 * zone; and the memories a window summarizes. Apart from the facade so it stays one line a port method; the
 * node SQL itself lives in pyramid-sql.ts.
 */
import type { PreparedMemory, Memory } from "../../model/types.js";
import type { EmbedderStamp } from "../../ports/store.js";
import type { Window } from "../../time/windows.js";
import type { Queryable } from "./connection.js";
import { addCounts } from "./index-sql.js";
import * as rows from "./memory-sql.js";
import { MEMORY_COLUMNS, toMemory, type MemoryRow } from "./memory-sql.js";
import * as pyramid from "./pyramid-sql.js";
import { insertMemories } from "./write-sql.js";

/** Every summary node removed and every window marked dirty, under a new time zone. */
export async function setPyramidZone(tx: Queryable, ns: string, zone: string): Promise<void> {
  const nodes = await tx.query<{ rowid: number; id: string }>(
    "SELECT m.rowid, m.id FROM summary_nodes n JOIN memories m ON m.namespace = n.namespace AND m.rowid = n.memory_rowid WHERE n.namespace = $1",
    [ns],
  );
  for (const n of nodes) await rows.removeMemoryRow(tx, ns, n.rowid, n.id);
  await tx.query("DELETE FROM dirty_windows WHERE namespace = $1", [ns]);
  await tx.query(
    "INSERT INTO meta (namespace, key, value) VALUES ($1, 'pyramid_zone', $2) ON CONFLICT (namespace, key) DO UPDATE SET value = excluded.value",
    [ns, zone],
  );
  await pyramid.markAllDirty(tx, ns);
}

/** The memories a window summarizes, in time order. */
export async function windowInputs(db: Queryable, ns: string, window: Window): Promise<Memory[]> {
  const rowids = await pyramid.windowInputRowids(db, ns, window.level, window.start, window.end);
  const found = await db.query<MemoryRow>(
    `SELECT ${MEMORY_COLUMNS} FROM memories m WHERE m.namespace = $1 AND m.rowid = ANY($2::bigint[]) ORDER BY m.at_ms, m.rowid`,
    [ns, rowids],
  );
  return found.map(toMemory);
}

/** A summary node written (replacing one of the same id); false when a child or source is gone. */
export async function writeSummary(
  tx: Queryable,
  ns: string,
  node: PreparedMemory,
  window: Window | { level: "turn"; start: number; end: number },
  childIds: string[],
  stamp: EmbedderStamp,
  sources: string[],
): Promise<boolean> {
  // the rows read are locked (FOR SHARE) until commit: a concurrent forget waits, then marks and rebuilds the window
  const locked = await pyramid.lockAll(tx, ns, [...childIds, ...sources]);
  if (!locked) return false;
  await rows.checkStamp(tx, ns, stamp);
  const old = await pyramid.nodeRowidById(tx, ns, node.memory.id);
  if (old !== undefined) await rows.removeMemoryRow(tx, ns, old, node.memory.id);
  const { rowids: [rowid], chunks } = await insertMemories(tx, ns, [node]);
  await addCounts(tx, ns, { chunk_count: chunks });
  await pyramid.insertNode(tx, ns, rowid, window.level, window.start, window.end, [...new Set(childIds)].map((id) => locked.get(id)!));
  return true;
}

/** A summary node removed; false when there is none of that id. */
export async function deleteSummary(tx: Queryable, ns: string, id: string): Promise<boolean> {
  const rowid = await pyramid.nodeRowidById(tx, ns, id);
  if (rowid === undefined) return false;
  await rows.removeMemoryRow(tx, ns, rowid, id);
  return true;
}
