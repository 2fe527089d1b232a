/**
 * @module backends/sqlite/side-reader
 * A second, read-only connection to a store's file in a worker thread, so that one search uses both cores.
 * better-sqlite3 runs every statement on the calling thread: a fused search ran FTS5's ranking, late
 * interaction's posting lists and the vector search one after another on one core. The lexical reads go to this
 * thread while the main thread searches the vectors, and their rows come back as messages.
 *
 * It reads what is committed: a search never runs inside a write transaction (better-sqlite3's transactions are
 * synchronous), so it sees the same store as the main connection, as the readers of another process do. Each
 * statement reads its own snapshot, as on the main connection, which is why callers already name chunks after
 * reading them and drop those deleted in between.
 */
import { asStoreError, BUSY_TIMEOUT_MS } from "./connection.js";
import { ThreadClient } from "./thread-client.js";

/** What a reader thread is asked for: BM25's ranking, or posting lists (late interaction); each may have its own. */
export type SideJob = "rank" | "lists";

export interface SideRequest {
  id: number;
  sql: string;
  /** One run of the statement per parameter set. */
  sets: unknown[][];
  /** raw: rows as arrays; pluck: the first column of each row, as a Float64Array (integer ids). */
  mode: "raw" | "pluck";
}

export type SideReply =
  | { id: number; rows: unknown[][][]; lists?: undefined; error?: undefined }
  | { id: number; lists: Float64Array[]; rows?: undefined; error?: undefined }
  | { id: number; error: { message: string; code?: string }; rows?: undefined; lists?: undefined };

export class SideReader {
  private readonly thread: ThreadClient<SideReply>;

  constructor(path: string) {
    this.thread = new ThreadClient<SideReply>(
      new URL("./side-reader-worker.js", import.meta.url),
      { path, busyTimeoutMs: BUSY_TIMEOUT_MS },
      (reply) => asStoreError(Object.assign(new Error(reply.error!.message), reply.error!.code ? { code: reply.error!.code } : {}), path),
      (code) => new Error(`the store's reader thread exited (code ${code})`),
    );
  }

  /** False once the thread has failed or been closed: the store then reads on its own connection. */
  get alive(): boolean {
    return this.thread.alive;
  }

  /** Each parameter set's rows, as arrays. */
  async raw(sql: string, sets: unknown[][]): Promise<unknown[][][]> {
    return (await this.thread.send({ sql, sets, mode: "raw" } satisfies Omit<SideRequest, "id">)).rows!;
  }

  /** Each parameter set's first column (integer ids). */
  async pluck(sql: string, sets: unknown[][]): Promise<Float64Array[]> {
    return (await this.thread.send({ sql, sets, mode: "pluck" } satisfies Omit<SideRequest, "id">)).lists!;
  }

  async close(): Promise<void> {
    await this.thread.close(new Error("the store was closed"));
  }
}
