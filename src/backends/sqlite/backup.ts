/**
 * @module backends/sqlite/backup
 * A copy of a live store file through SQLite's online backup API (better-sqlite3's `db.backup`), while other
 * connections keep writing.
 *
 * The backup copies pages in steps; a write by another connection between two steps makes SQLite start over.
 * Against a writer that never pauses (`cascade serve` under load) a copy in small steps might never finish, so
 * after the first step (which only counts the pages) every page is copied in one step: one read transaction,
 * which in WAL mode neither waits for the writers nor makes them wait, and holds every transaction committed
 * before it began. The copy is written under a temporary name and renamed into place when complete, so an
 * interrupted backup never leaves a file that looks like a store.
 *
 * The vector graph beside a store (`.hnsw`) is derived from the chunk vectors and is not copied: a copy taken
 * from a different moment than the database's would not match it. The copy builds its own on the first search
 * that needs one (stores above the approximate-search threshold; vector-index.ts).
 */
import Database from "better-sqlite3";
import { renameSync, rmSync, statSync } from "node:fs";
import { BUSY_TIMEOUT_MS } from "./connection.js";
import { checkCascadeSchema, checkStorePath } from "./identify.js";

export interface FileBackup {
  pages: number;
  bytes: number;
}

export async function backupFile(path: string, dest: string): Promise<FileBackup> {
  checkStorePath(path);
  const db = new Database(path, { readonly: true, fileMustExist: true });
  const partial = `${dest}.partial-${process.pid}`;
  try {
    db.pragma(`busy_timeout = ${BUSY_TIMEOUT_MS}`);
    checkCascadeSchema(db, path); // never copy another application's database under Cascade's name
    const done = await db.backup(partial, { progress: () => 0x7fffffff });
    renameSync(partial, dest);
    return { pages: done.totalPages, bytes: statSync(dest).size };
  } catch (err) {
    rmSync(partial, { force: true });
    throw err;
  } finally {
    db.close();
  }
}
