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
import { Worker } from "node:worker_threads";
import { asStoreError, BUSY_TIMEOUT_MS } from "./connection.js";

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

interface Pending {
  resolve: (reply: SideReply) => void;
  reject: (err: unknown) => void;
}

export class SideReader {
  private readonly worker: Worker;
  private readonly pending = new Map<number, Pending>();
  private nextId = 1;
  private failure: unknown = null;

  constructor(private readonly path: string) {
    this.worker = new Worker(new URL("./side-reader-worker.js", import.meta.url), { workerData: { path, busyTimeoutMs: BUSY_TIMEOUT_MS } });
    // an idle thread does not keep the process alive; one with a statement in flight does (see send)
    this.worker.unref();
    this.worker.on("message", (reply: SideReply) => this.settle(reply));
    this.worker.on("error", (err) => this.fail(err));
    this.worker.on("exit", (code) => this.fail(new Error(`the store's reader thread exited (code ${code})`)));
  }

  /** False once the thread has failed or been closed: the store then reads on its own connection. */
  get alive(): boolean {
    return this.failure === null;
  }

  /** Each parameter set's rows, as arrays. */
  async raw(sql: string, sets: unknown[][]): Promise<unknown[][][]> {
    return (await this.send({ sql, sets, mode: "raw" })).rows!;
  }

  /** Each parameter set's first column (integer ids). */
  async pluck(sql: string, sets: unknown[][]): Promise<Float64Array[]> {
    return (await this.send({ sql, sets, mode: "pluck" })).lists!;
  }

  async close(): Promise<void> {
    this.fail(new Error("the store was closed"));
    await this.worker.terminate();
  }

  private send(request: Omit<SideRequest, "id">): Promise<SideReply> {
    if (this.failure !== null) return Promise.reject(this.failure);
    const id = this.nextId++;
    return new Promise<SideReply>((resolve, reject) => {
      if (this.pending.size === 0) this.worker.ref();
      this.pending.set(id, { resolve, reject });
      this.worker.postMessage({ id, ...request } satisfies SideRequest);
    });
  }

  private settle(reply: SideReply): void {
    const waiting = this.pending.get(reply.id);
    if (!waiting) return;
    this.pending.delete(reply.id);
    if (this.pending.size === 0) this.worker.unref();
    if (reply.error) {
      const err = Object.assign(new Error(reply.error.message), reply.error.code ? { code: reply.error.code } : {});
      waiting.reject(asStoreError(err, this.path));
    } else waiting.resolve(reply);
  }

  private fail(err: unknown): void {
    if (this.failure === null) this.failure = err;
    for (const waiting of this.pending.values()) waiting.reject(err);
    this.pending.clear();
  }
}
