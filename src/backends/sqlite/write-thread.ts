/**
 * @module backends/sqlite/write-thread
 * A second connection to a store's file in a worker thread that writes large batches of new memories, so that the
 * server's one thread answers other requests while a megabyte's chunks, FTS rows and mentions are written
 * (~250 ms of statements and commit for a 975,000-character memory, which no transaction can pause in).
 *
 * The batch is still one transaction, on the other connection: a memory is stored whole or not at all, and a reader
 * on the store's own connection sees it only once it is committed (WAL: each statement reads a committed snapshot),
 * as it sees another process's write. What the store keeps between searches is kept under the chunk generation or
 * PRAGMA data_version (version.ts, owner-cache.ts, vector-index.ts), so it already follows another connection's
 * commits; the vector matrix is handed the new chunks only when it held the generation the write began from.
 *
 * A write of the store's own connection meanwhile waits for this one's lock (the busy timeout), as it would for
 * another process. A thread that fails or exits rejects what it was sending, and the store then writes on its own
 * connection; SQLite rolls back a transaction whose connection went away, so nothing half-written remains.
 */
import { CascadeError, type ErrorCode } from "../../errors.js";
import type { Edge, EdgeDraft } from "../../model/graph.js";
import type { PreparedMemory } from "../../model/types.js";
import type { EmbedderStamp } from "../../ports/store.js";
import { asStoreError } from "./connection.js";
import { ThreadClient } from "./thread-client.js";

/** A chunk as it travels: its words as one string, its vector in the request's one buffer. */
export interface SentChunk {
  ord: number;
  start: number;
  end: number;
  indexedText: string;
  contextChars: number;
  terms: string;
}

/**
 * A batch as it travels to the thread. Copying a message costs the sending thread too: a megabyte's 1,252 chunks
 * as objects with word lists and one array a vector took ~15 ms; as strings and one transferred buffer, less.
 */
export interface WriteRequest {
  id: number;
  memories: (Omit<PreparedMemory, "chunks"> & { chunks: SentChunk[] })[];
  /** Every chunk's vector, in order, `dimensions` numbers each. */
  vectors: Float32Array;
  dimensions: number;
  stamp: EmbedderStamp;
  edges: EdgeDraft[];
}

/** The batch again, on the thread. */
export function receivedMemories(request: WriteRequest): PreparedMemory[] {
  let next = 0;
  const { vectors, dimensions } = request;
  return request.memories.map((p) => ({
    ...p,
    chunks: p.chunks.map((c) => ({ ...c, text: "", terms: c.terms ? c.terms.split(" ") : [], vector: vectors.subarray(next * dimensions, ++next * dimensions) })),
  }));
}

export type WriteReply =
  | { id: number; chunkIds: Float64Array; edges: Edge[]; before: number; after: number; error?: undefined }
  | { id: number; error: { message: string; cascade: boolean; code?: string; field?: string } };

export interface ThreadWritten {
  chunkIds: number[];
  edges: Edge[];
  /** The chunk generation at the start and the end of the write's transaction. */
  before: number;
  after: number;
}

export class WriteThread {
  private readonly thread: ThreadClient<WriteReply>;

  constructor(path: string) {
    this.thread = new ThreadClient<WriteReply>(
      new URL("./write-thread-worker.js", import.meta.url),
      { path },
      (reply) => {
        const { message, cascade, code, field } = reply.error!;
        return cascade ? new CascadeError(code as ErrorCode, message, { field }) : asStoreError(Object.assign(new Error(message), code ? { code } : {}), path);
      },
      (code) => new CascadeError("STORE_ERROR", `the store's write thread exited (code ${code}); the write in flight was not reported done`),
    );
  }

  /** False once the thread has failed or been closed: the store then writes on its own connection. */
  get alive(): boolean {
    return this.thread.alive;
  }

  /** Writes the batch in one transaction on the thread's connection. */
  async write(memories: PreparedMemory[], stamp: EmbedderStamp, edges: EdgeDraft[]): Promise<ThreadWritten> {
    // only what the rows hold travels (a chunk's own text is a slice of the memory's, already sent with it)
    const dimensions = stamp.dimensions;
    let total = 0;
    for (const p of memories) total += p.chunks.length;
    const vectors = new Float32Array(total * dimensions);
    let next = 0;
    const sent = memories.map((p) => ({
      ...p,
      chunks: p.chunks.map((c): SentChunk => {
        vectors.set(c.vector, next++ * dimensions);
        return { ord: c.ord, start: c.start, end: c.end, indexedText: c.indexedText, contextChars: c.contextChars, terms: c.terms.join(" ") };
      }),
    }));
    // a reply that carries an error rejects (ThreadClient), so the one that resolves carries the write's result
    const reply = (await this.thread.send({ memories: sent, vectors, dimensions, stamp, edges } satisfies Omit<WriteRequest, "id">, [vectors.buffer])) as Extract<WriteReply, { chunkIds: Float64Array }>;
    return { chunkIds: Array.from(reply.chunkIds), edges: reply.edges, before: reply.before, after: reply.after };
  }

  async close(): Promise<void> {
    await this.thread.close(new CascadeError("STORE_ERROR", "the store was closed while a write was in flight; it was not reported done"));
  }
}
