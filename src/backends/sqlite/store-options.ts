/**
 * @module backends/sqlite/store-options
 * The SQLite store's options (store.ts), and from what size it starts its worker threads (threads.ts): apart from
 * both so that the store and its parts loaded on first use (store-parts.ts) name them without loading each other.
 */
import type { ApproximateSearch } from "./vector-index.js";

/**
 * Below this many chunks the reader threads are not started: at 100,000 chunks they changed fused latency by less
 * than this machine's noise (p95 21-26 against 25-28 ms), and a server's workers already use the cores.
 */
export const SIDE_READER_MIN_CHUNKS = 200_000;

/**
 * Chunks from which a batch of new memories is written on the write thread: ~0.2 ms of statements a chunk in
 * one transaction (a 975,000-character memory's 1,252 chunks, its FTS rows and mentions: ~250 ms), so a batch this
 * size holds a thread ~25 ms, less than a message each way and a thread's start are worth.
 */
export const WRITE_THREAD_MIN_CHUNKS = 128;

/** The reader threads wanted (SqliteStoreOptions.sideReader): from how many chunks, and how many; false: never. */
export type SideReaderWanted = { minChunks: number; threads?: 1 | 2 } | false;
/** The write thread wanted (SqliteStoreOptions.writeThread): from how many chunks a batch; false: never. */
export type WriteThreadWanted = { minChunks: number } | false;

export interface SqliteStoreOptions {
  /** Largest filter result applied in memory rather than by a join (tests set 0 to exercise the join). */
  selectiveChunks?: number;
  /** A scratch store (bench, eval) alone in this folder: the folder is removed when the store closes. */
  scratchDir?: string;
  /** Approximate dense search for large stores (backends/sqlite/vector-index.ts); false: always exact. */
  approximate?: Partial<Omit<ApproximateSearch, "path">> | false;
  /**
   * FTS5's reads on their own connections in worker threads (side-reader.ts) once the store holds `minChunks`
   * chunks, so that a search's lexical and vector work run side by side: BM25's ranking on one thread and late
   * interaction's posting lists on another (`threads`: 2, the default), or both on one; false: never.
   */
  sideReader?: SideReaderWanted;
  /**
   * New memories' batches of at least `minChunks` chunks are written on another connection in a worker thread
   * (write-thread.ts), so that a large write's transaction does not hold the caller's thread; false: never.
   */
  writeThread?: WriteThreadWanted;
}
