/**
 * @module backends/sqlite/doctor-thread
 * Doctor's checks in a worker thread: SQLite's integrity check and the index comparisons read the whole file,
 * seconds on a large store, and on the server's thread they held every other request (three cross-site GETs of
 * /v1/doctor held /health 6.2 s). In a thread of its own the event loop stays free, and a run nobody waits for
 * any more is ended (`signal`): the caller's promise is rejected at once, and the thread is told to stop, which
 * it does after the statement it is in. It is never terminated: terminating a thread inside a better-sqlite3 call
 * (a busy wait, say) aborts the whole process ("v8::ToLocalChecked Empty MaybeLocal", test/http-stall.test.ts).
 */
import { Worker } from "node:worker_threads";
import { CascadeError } from "../../errors.js";
import type { DoctorCheck } from "../../ports/store.js";
import { asStoreError, BUSY_TIMEOUT_MS } from "./connection.js";

type Reply = { checks: DoctorCheck[]; error?: undefined } | { error: { message: string; code?: string }; checks?: undefined };

export function doctorInThread(path: string, dimensions: number | null, signal?: AbortSignal): Promise<DoctorCheck[]> {
  if (signal?.aborted) return Promise.reject(cancelled());
  const stop = new SharedArrayBuffer(4);
  const worker = new Worker(new URL("./doctor-worker.js", import.meta.url), { workerData: { path, dimensions, busyTimeoutMs: BUSY_TIMEOUT_MS, stop } });
  return new Promise<DoctorCheck[]>((resolve, reject) => {
    const abort = () => {
      reject(cancelled());
      Atomics.store(new Int32Array(stop), 0, 1);
    };
    signal?.addEventListener("abort", abort, { once: true });
    const done = () => signal?.removeEventListener("abort", abort);
    worker.once("message", (reply: Reply) => {
      done();
      if (reply.checks) resolve(reply.checks);
      else reject(asStoreError(Object.assign(new Error(reply.error.message), { code: reply.error.code }), path));
    });
    worker.once("error", (err) => (done(), reject(err)));
    worker.once("exit", (code) => (done(), reject(new Error(`doctor's thread exited (code ${code}) before answering`))));
  });
}

const cancelled = () => new CascadeError("STORE_ERROR", "doctor was cancelled: no one waits for its answer any more");
