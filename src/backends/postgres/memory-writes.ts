/**
 * @module backends/postgres/memory-writes
 * The PostgreSQL store's memory writes, each the body of one write transaction (the store, store.ts, opens it
 * under the namespace's write lock and then keeps its planner statistics in step): memories written with their
 * edges, a memory revised, a memory deleted with what hangs on it. Apart from the facade so it stays one line a
 * port method; the row SQL itself lives in memory-sql.ts and write-sql.ts.
 */
import type { Edge, EdgeDraft } from "../../model/graph.js";
import type { PreparedMemory } from "../../model/types.js";
import type { EmbedderStamp } from "../../ports/store.js";
import type { Queryable } from "./connection.js";
import * as graph from "./graph-sql.js";
import { addCounts } from "./index-sql.js";
import * as rows from "./memory-sql.js";
import * as pyramid from "./pyramid-sql.js";
import { insertMemories } from "./write-sql.js";

/** Memories and edges written in one transaction; the chunks written are counted for the statistics. */
export async function writeMemories(tx: Queryable, ns: string, memories: PreparedMemory[], stamp: EmbedderStamp, edges: EdgeDraft[]): Promise<{ edges: Edge[]; chunks: number }> {
  await rows.checkStamp(tx, ns, stamp);
  const chunks = (await insertMemories(tx, ns, memories)).chunks;
  await addCounts(tx, ns, { chunk_count: chunks });
  return { edges: await graph.insertEdges(tx, ns, edges), chunks };
}

export async function reviseMemory(tx: Queryable, ns: string, next: PreparedMemory, stamp: EmbedderStamp, recordedAt: number): Promise<void> {
  await rows.checkStamp(tx, ns, stamp);
  await rows.reviseMemoryRow(tx, ns, next, recordedAt);
}

/** A memory removed with its turn summaries, its windows marked dirty; false when there is none of that id. */
export async function deleteMemory(tx: Queryable, ns: string, id: string): Promise<boolean> {
  const rowid = await rows.memoryRowid(tx, ns, id);
  if (rowid === undefined) return false;
  await pyramid.markDirty(tx, ns, [rowid]);
  await rows.stripContextOf(tx, ns, rowid);
  for (const turn of await pyramid.turnNodesOf(tx, ns, rowid)) await rows.removeMemoryRow(tx, ns, turn, `the turn summary of ${id}`);
  await rows.removeMemoryRow(tx, ns, rowid, id);
  return true;
}

/** Memory ids by import key, for the keys that have one. */
export async function memoryIdsByImportKey(db: Queryable, ns: string, keys: string[]): Promise<Map<string, string>> {
  if (keys.length === 0) return new Map();
  const found = await db.query<{ import_key: string; id: string }>(
    "SELECT import_key, id FROM memories WHERE namespace = $1 AND import_key = ANY($2::text[])",
    [ns, keys],
  );
  return new Map(found.map((r) => [r.import_key, r.id]));
}
