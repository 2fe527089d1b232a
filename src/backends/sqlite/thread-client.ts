/**
 * @module backends/sqlite/thread-client
 * The store's side of a worker thread that answers numbered requests (side-reader.ts reads, write-thread.ts
 * writes): requests in flight by id, the thread kept alive only while one is, and every waiting request rejected
 * with the first failure once the thread errs, exits or is closed (after which `alive` is false and the store
 * does the work on its own connection).
 */
import { Worker, type Transferable } from "node:worker_threads";

/** A reply names its request and either carries an answer or an error. */
export interface ThreadReply {
  id: number;
  error?: unknown;
}

interface Pending<R> {
  resolve: (reply: R) => void;
  reject: (err: unknown) => void;
}

export class ThreadClient<R extends ThreadReply> {
  private readonly worker: Worker;
  private readonly pending = new Map<number, Pending<R>>();
  private nextId = 1;
  private failure: unknown = null;

  /**
   * `script` is the worker's module; `failed` turns a reply's error into what the waiting caller gets; `exited` is
   * the error for requests in flight when the thread exits.
   */
  constructor(
    script: URL,
    workerData: unknown,
    private readonly failed: (reply: R) => unknown,
    exited: (code: number) => Error,
  ) {
    this.worker = new Worker(script, { workerData });
    // an idle thread does not keep the process alive; one with a request in flight does (see send)
    this.worker.unref();
    this.worker.on("message", (reply: R) => this.settle(reply));
    this.worker.on("error", (err) => this.fail(err));
    this.worker.on("exit", (code) => this.fail(exited(code)));
  }

  /** False once the thread has failed or been closed. */
  get alive(): boolean {
    return this.failure === null;
  }

  /** Sends `request` with an id of its own; resolves with the thread's reply to it. */
  send(request: object, transfer: Transferable[] = []): Promise<R> {
    if (this.failure !== null) return Promise.reject(this.failure);
    const id = this.nextId++;
    return new Promise<R>((resolve, reject) => {
      if (this.pending.size === 0) this.worker.ref();
      this.pending.set(id, { resolve, reject });
      this.worker.postMessage({ id, ...request }, transfer);
    });
  }

  /**
   * Sends one request as several messages under one id, `pause` awaited between two (the thread answers once, after
   * the last): building and copying a megabyte's message is tens of milliseconds of this thread's time, which a
   * server spends answering other requests in between. `parts` makes each message when its turn comes.
   */
  async sendParts(parts: Iterable<{ message: object; transfer?: Transferable[] }>, pause: () => Promise<void> | undefined): Promise<R> {
    if (this.failure !== null) throw this.failure;
    const id = this.nextId++;
    const reply = new Promise<R>((resolve, reject) => {
      if (this.pending.size === 0) this.worker.ref();
      this.pending.set(id, { resolve, reject });
    });
    reply.catch(() => {}); // a failure while parts are still being sent is thrown below, once
    let first = true;
    for (const { message, transfer } of parts) {
      if (!first) await pause();
      first = false;
      // the thread failed meanwhile: what was waiting (this request too) is already rejected
      if (this.failure !== null) break;
      this.worker.postMessage({ id, ...message }, transfer ?? []);
    }
    return reply;
  }

  /** Rejects what is in flight with `reason` and stops the thread. */
  async close(reason: Error): Promise<void> {
    this.fail(reason);
    await this.worker.terminate();
  }

  private settle(reply: R): void {
    const waiting = this.pending.get(reply.id);
    if (!waiting) return;
    this.pending.delete(reply.id);
    if (this.pending.size === 0) this.worker.unref();
    if (reply.error) waiting.reject(this.failed(reply));
    else waiting.resolve(reply);
  }

  private fail(err: unknown): void {
    if (this.failure === null) this.failure = err;
    for (const waiting of this.pending.values()) waiting.reject(err);
    this.pending.clear();
  }
}
