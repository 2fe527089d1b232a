/**
 * @module backends/sqlite/threads
 * The SQLite store's worker threads: the FTS5 reader threads a large store's searches hand their lexical reads to
 * (side-reader.ts), and the thread large batches of new memories are written on (write-thread.ts). Which one a job
 * gets, when they start (the first time a large enough job comes, never for an in-memory store, whose connection a
 * thread cannot open), and their closing. Apart from the store (store.ts) because it is state of its own.
 */
import type { PreparedMemory } from "../../model/types.js";
import type { EmbedderStamp } from "../../ports/store.js";
import { SideReader, type SideJob } from "./side-reader.js";
import { WriteThread } from "./write-thread.js";

import { SIDE_READER_MIN_CHUNKS, WRITE_THREAD_MIN_CHUNKS, type SideReaderWanted, type WriteThreadWanted } from "./store-options.js";

export { SIDE_READER_MIN_CHUNKS, WRITE_THREAD_MIN_CHUNKS, type SideReaderWanted, type WriteThreadWanted };

/** The worker threads of one store on a file. */
export class StoreThreads {
  /** The reader threads: BM25's ranking on the first, posting lists on the second (or on the first too). */
  private sides: SideReader[] = [];
  /** The thread that writes large batches on its own connection (write-thread.ts), started by the first. */
  private writer: WriteThread | null = null;

  constructor(
    private readonly path: string,
    private readonly options: { sideReader?: SideReaderWanted; writeThread?: WriteThreadWanted },
    /** The store's chunk count, read when deciding whether to start the reader threads. */
    private readonly chunkCount: () => number,
  ) {}

  /** The reader thread for a job, started the first time a search of a large enough store on a file asks for one. */
  sideReader(job: SideJob): SideReader | null {
    if (this.sides.length === 0) {
      const wanted = this.options.sideReader ?? { minChunks: SIDE_READER_MIN_CHUNKS };
      if (wanted === false || this.path === ":memory:" || this.chunkCount() < wanted.minChunks) return null;
      this.sides = Array.from({ length: wanted.threads ?? 2 }, () => new SideReader(this.path));
    }
    const side = this.sides[job === "rank" ? 0 : this.sides.length - 1];
    return side.alive ? side : null;
  }

  /** Whether a reader thread is running (a search then lets the lexical channels hand their reads over first). */
  get readersAlive(): boolean {
    return this.sides.some((side) => side.alive);
  }

  /**
   * The write thread for a batch of at least `minChunks` chunks on a file (write-thread.ts), started the first time
   * one comes; null for a smaller batch (a message each way costs more than its transaction), one with a vector not of
   * the stamp's size, or when the thread failed.
   */
  writeThread(memories: PreparedMemory[], stamp: EmbedderStamp): WriteThread | null {
    const wanted = this.options.writeThread ?? { minChunks: WRITE_THREAD_MIN_CHUNKS };
    if (wanted === false || this.path === ":memory:") return null;
    let chunks = 0;
    for (const p of memories) {
      chunks += p.chunks.length;
      // vectors travel in one buffer of the stamp's size; a vector of another size is refused or stored as it is here
      if (p.chunks.some((c) => c.vector.length !== stamp.dimensions)) return null;
    }
    if (chunks < wanted.minChunks) return null;
    this.writer ??= new WriteThread(this.path);
    return this.writer.alive ? this.writer : null;
  }

  async close(): Promise<void> {
    await Promise.all(this.sides.map((side) => side.close()));
    await this.writer?.close();
  }
}
