/**
 * @module backends/sqlite/snapshot
 * A consistent copy of a store file that other processes may be writing: `VACUUM INTO` reads the whole file in
 * one read transaction (WAL: the writers neither wait nor tear it) and writes a compact new file.
 */
import Database from "better-sqlite3";
import { BUSY_TIMEOUT_MS } from "./connection.js";

export function snapshotFile(path: string, dest: string): void {
  const db = new Database(path, { readonly: true, fileMustExist: true });
  try {
    db.pragma(`busy_timeout = ${BUSY_TIMEOUT_MS}`);
    db.prepare("VACUUM INTO ?").run(dest);
  } finally {
    db.close();
  }
}
