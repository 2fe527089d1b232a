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
import { pacer } from "../../event-loop.js";

/** A chunk as it travels: its words as one string, its vector in the request's one buffer. */
export interface SentChunk {
  ord: number;
  start: number;
  end: number;
  indexedText: string;
  contextChars: number;
  terms: string;
}

/** The memories of a batch without their chunks, each with how many of the batch's chunks are its own. */
export type SentMemory = Omit<PreparedMemory, "chunks"> & { chunkCount: number };

/**
 * A batch as it travels to the thread: in parts of at most PART_CHUNKS chunks, the first with the memories (their
 * texts), the stamp and the edges, the last marked so; the thread writes once the last has come. Making and
 * copying a message costs the sending thread: a megabyte's 1,252 chunks in one message held it 60-80 ms on a loaded
 * machine (~15 ms idle); in parts, a server answers other requests between two. Each part's vectors are one
 * transferred buffer, its chunks' words strings.
 */
export interface WritePart {
  id: number;
  head?: { memories: SentMemory[]; dimensions: number; stamp: EmbedderStamp; edges: EdgeDraft[] };
  chunks: SentChunk[];
  /** The part's chunk vectors, in order, `dimensions` numbers each. */
  vectors: Float32Array;
  last: boolean;
}

/** Chunks in one part of a batch sent to the thread (a few milliseconds of making and copying). */
export const PART_CHUNKS = 256;

/** A batch on its way in, on the thread: what the parts so far brought. */
export interface Arriving {
  head: NonNullable<WritePart["head"]>;
  chunks: SentChunk[];
  vectors: Float32Array[];
}

/** The batch again, on the thread, once its last part has come. */
export function receivedMemories(batch: Arriving): PreparedMemory[] {
  const { dimensions } = batch.head;
  const vectors = batch.vectors.flatMap((part) => Array.from({ length: part.length / dimensions }, (_, i) => part.subarray(i * dimensions, (i + 1) * dimensions)));
  let next = 0;
  return batch.head.memories.map(({ chunkCount, ...p }) => ({
    ...p,
    chunks: batch.chunks.slice(next, (next += chunkCount)).map((c, i) => ({ ...c, text: "", terms: c.terms ? c.terms.split(" ") : [], vector: vectors[next - chunkCount + i] })),
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

  /** Writes the batch in one transaction on the thread's connection; its parts are sent with `pause` between two. */
  async write(memories: PreparedMemory[], stamp: EmbedderStamp, edges: EdgeDraft[], pause = pacer()): Promise<ThreadWritten> {
    // a reply that carries an error rejects (ThreadClient), so the one that resolves carries the write's result
    const reply = (await this.thread.sendParts(parts(memories, stamp, edges), pause)) as Extract<WriteReply, { chunkIds: Float64Array }>;
    return { chunkIds: Array.from(reply.chunkIds), edges: reply.edges, before: reply.before, after: reply.after };
  }

  async close(): Promise<void> {
    await this.thread.close(new CascadeError("STORE_ERROR", "the store was closed while a write was in flight; it was not reported done"));
  }
}

/** The parts of a batch, each made when it is sent; only what the rows hold travels (a chunk's own text is a slice of the memory's, sent with it). */
function* parts(memories: PreparedMemory[], stamp: EmbedderStamp, edges: EdgeDraft[]): Generator<{ message: Omit<WritePart, "id">; transfer: ArrayBuffer[] }> {
  const dimensions = stamp.dimensions;
  const all = memories.flatMap((p) => p.chunks);
  let head: WritePart["head"] = { memories: memories.map(({ chunks, ...p }) => ({ ...p, chunkCount: chunks.length })), dimensions, stamp, edges };
  let from = 0;
  do {
    const slice = all.slice(from, (from += PART_CHUNKS));
    const vectors = new Float32Array(slice.length * dimensions);
    const chunks = slice.map((c, i): SentChunk => {
      vectors.set(c.vector, i * dimensions);
      return { ord: c.ord, start: c.start, end: c.end, indexedText: c.indexedText, contextChars: c.contextChars, terms: c.terms.join(" ") };
    });
    yield { message: { head, chunks, vectors, last: from >= all.length }, transfer: [vectors.buffer as ArrayBuffer] };
    head = undefined;
  } while (from < all.length);
}
