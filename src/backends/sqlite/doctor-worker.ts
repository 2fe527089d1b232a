/**
 * @module backends/sqlite/doctor-worker
 * The thread behind doctor-thread.ts: doctor's checks (never a repair) on a read-only connection of its own,
 * answered in one message. Once the caller gives up (`stop` set), every statement still to be prepared throws, so
 * the checks left fail at once and the thread ends after the statement it is in.
 */
import Database from "better-sqlite3";
import { parentPort, workerData } from "node:worker_threads";
import { runDoctor } from "./doctor.js";

const { path, dimensions, busyTimeoutMs, stop } = workerData as { path: string; dimensions: number | null; busyTimeoutMs: number; stop: SharedArrayBuffer };
const stopped = new Int32Array(stop);
try {
  const db = new Database(path, { readonly: true, fileMustExist: true });
  try {
    db.pragma(`busy_timeout = ${busyTimeoutMs}`);
    const statements = new Map<string, Database.Statement>();
    const prepare = (sql: string) => {
      if (Atomics.load(stopped, 0)) throw new Error("cancelled");
      return statements.get(sql) ?? statements.set(sql, db.prepare(sql)).get(sql)!;
    };
    parentPort!.postMessage({ checks: runDoctor(db, prepare, dimensions, false) });
  } finally {
    db.close();
  }
} catch (err) {
  const e = err as { message?: string; code?: string };
  parentPort!.postMessage({ error: { message: String(e?.message ?? err), code: typeof e?.code === "string" ? e.code : undefined } });
}
