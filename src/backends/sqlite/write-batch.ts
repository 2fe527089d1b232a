/**
 * @module backends/sqlite/write-batch
 * What one write of new memories does inside its transaction: the embedder check, each memory with its chunks,
 * words, FTS rows and mentions, the batch's word counts and chunk count, and the edges the batch names. Run by the
 * store on its own connection (small batches) and by its write thread (write-thread.ts) on another connection, so
 * that both write exactly the same rows. The caller owns the transaction.
 */
import type Database from "better-sqlite3";
import type { Edge, EdgeDraft } from "../../model/graph.js";
import type { PreparedMemory } from "../../model/types.js";
import type { EmbedderStamp } from "../../ports/store.js";
import * as graph from "./graph-sql.js";
import * as rows from "./memory-sql.js";

type Prepare = (sql: string) => Database.Statement;

export function writeBatch(prepare: Prepare, memories: PreparedMemory[], stamp: EmbedderStamp, edges: EdgeDraft[]): { chunks: { chunkId: number; vector: Float32Array }[]; edges: Edge[] } {
  const added: { chunkId: number; vector: Float32Array }[] = [];
  const written: Edge[] = [];
  rows.checkStamp(prepare, stamp);
  const tally: rows.TermTally = new Map();
  for (const p of memories) added.push(...rows.insertMemory(prepare, p, tally).chunks);
  rows.countTerms(prepare, tally);
  rows.addToChunkCount(prepare, added.length);
  for (const e of edges) written.push(graph.insertEdge(prepare, e));
  return { chunks: added, edges: written };
}
