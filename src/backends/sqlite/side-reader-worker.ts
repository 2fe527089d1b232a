/**
 * @module backends/sqlite/side-reader-worker
 * The thread behind a SideReader (side-reader.ts): its own read-only connection to the store's file, which runs
 * the statements it is sent, one message at a time, and answers with their rows. Statements are the store's own
 * SQL text with bound parameters; nothing here builds SQL.
 */
import Database from "better-sqlite3";
import { parentPort, workerData } from "node:worker_threads";
import type { SideReply, SideRequest } from "./side-reader.js";

const { path, busyTimeoutMs } = workerData as { path: string; busyTimeoutMs: number };
const db = new Database(path, { readonly: true, fileMustExist: true });
db.pragma(`busy_timeout = ${busyTimeoutMs}`);
db.pragma("temp_store = MEMORY");
// 64 MB, as the store's own connection (connection.ts)
db.pragma("cache_size = -65536");

const statements = new Map<string, Database.Statement>();
function prepared(sql: string, mode: SideRequest["mode"]): Database.Statement {
  const key = `${mode}\u0000${sql}`;
  let s = statements.get(key);
  if (!s) {
    s = db.prepare(sql);
    s = mode === "raw" ? s.raw() : s.pluck();
    statements.set(key, s);
  }
  return s;
}

parentPort!.on("message", (request: SideRequest) => {
  let reply: SideReply;
  try {
    const s = prepared(request.sql, request.mode);
    if (request.mode === "raw") {
      reply = { id: request.id, rows: request.sets.map((params) => s.all(...params) as unknown[][]) };
    } else {
      // id lists travel as transferred buffers: a common word's list is a hundred thousand numbers
      const lists = request.sets.map((params) => Float64Array.from(s.all(...params) as number[]));
      reply = { id: request.id, lists };
      parentPort!.postMessage(reply, lists.map((l) => l.buffer));
      return;
    }
  } catch (err) {
    const e = err as { message?: string; code?: string };
    reply = { id: request.id, error: { message: String(e?.message ?? err), code: typeof e?.code === "string" ? e.code : undefined } };
  }
  parentPort!.postMessage(reply);
});
