/**
 * @module backends/sqlite/write-thread-worker
 * The thread behind a WriteThread (write-thread.ts): its own connection to the store's file, opened as the store
 * opens its own (the same pragmas, IMMEDIATE transactions, the damaged-store guard), which writes each batch it is
 * sent in one transaction (write-batch.ts), once the batch's last part has come (write-thread.ts WritePart), and
 * answers with the chunk ids, the edges and the chunk generation at the transaction's start and end. One message at
 * a time, in the order sent.
 */
import { parentPort, workerData } from "node:worker_threads";
import { openConnection } from "./connection.js";
import { refuseWritesWhileDamaged } from "./damage.js";
import { StatementCache } from "./statement-cache.js";
import type Database from "better-sqlite3";
import { withGenerations } from "./version.js";
import { writeBatch } from "./write-batch.js";
import { receivedMemories, type Arriving, type WritePart, type WriteReply } from "./write-thread.js";

const { path } = workerData as { path: string };
const db = openConnection(path);
refuseWritesWhileDamaged(db, path);
// 16 MB of page cache, not the store connection's 64 MB: a writer reads the b-tree pages it inserts into, and the
// thread's cache is memory the process holds besides the store's own (peak RSS of a 20,000-chunk bulk import)
db.pragma("cache_size = -16384");
const statements = new StatementCache<Database.Statement>();
function prepare(sql: string): Database.Statement {
  let s = statements.get(sql);
  if (!s) statements.set(sql, (s = db.prepare(sql)));
  return s;
}

/** Batches whose last part has not come yet, by request id (two writers' parts may alternate). */
const arriving = new Map<number, Arriving>();

parentPort!.on("message", (part: WritePart) => {
  const batch = part.head ? { head: part.head, chunks: [], vectors: [] } : arriving.get(part.id)!;
  batch.chunks.push(...part.chunks);
  batch.vectors.push(part.vectors);
  if (!part.last) {
    arriving.set(part.id, batch);
    return;
  }
  arriving.delete(part.id);
  const request = { id: part.id, ...batch.head };
  let reply: WriteReply;
  try {
    const { result: out, before, after } = withGenerations(db, prepare, () => writeBatch(prepare, receivedMemories(batch), request.stamp, request.edges));
    reply = { id: request.id, chunkIds: Float64Array.from(out.chunks, (c) => c.chunkId), edges: out.edges, before, after };
  } catch (err) {
    const e = err as { name?: string; message?: string; code?: unknown; field?: unknown };
    reply = {
      id: request.id,
      error: {
        message: String(e?.message ?? err),
        cascade: e?.name === "CascadeError",
        code: typeof e?.code === "string" ? e.code : undefined,
        field: typeof e?.field === "string" ? e.field : undefined,
      },
    };
  }
  parentPort!.postMessage(reply);
});
