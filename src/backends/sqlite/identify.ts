/**
 * @module backends/sqlite/identify
 * Refuses to open what is not a Cascade store. Opening any path with SQLite "works": an unrelated application's
 * database would silently gain Cascade's tables and be switched to WAL, a text file would fail deep inside a
 * migration, and an empty path gives SQLite's anonymous temporary database (writes that vanish at exit). So a
 * path is checked before the first pragma touches it: missing or empty files are new stores; a SQLite file must
 * be empty or already hold Cascade's schema.
 */
import { closeSync, openSync, readSync, statSync } from "node:fs";
import { CascadeError, invalidInput } from "../../errors.js";
import type Database from "better-sqlite3";

type Connection = Database.Database;

const SQLITE_HEADER = "SQLite format 3\0";

/** Before opening: the path names nothing yet, an empty file, or a SQLite file (never a directory or other file). */
export function checkStorePath(path: string): void {
  if (path.trim() === "") throw invalidInput("db", "the store path is empty (give a file name, or leave --db out for the default)");
  if (path === ":memory:") return;
  let size: number;
  try {
    const st = statSync(path);
    if (st.isDirectory()) throw invalidInput("db", `${path} is a directory; give the store's file (e.g. ${path}/memory.db)`);
    size = st.size;
  } catch (err) {
    if (err instanceof CascadeError) throw err;
    return; // nothing there yet: a new store
  }
  if (size === 0) return;
  const head = Buffer.alloc(16);
  const fd = openSync(path, "r");
  try {
    readSync(fd, head, 0, 16, 0);
  } finally {
    closeSync(fd);
  }
  if (head.toString("latin1") !== SQLITE_HEADER) {
    throw invalidInput("db", `${path} is not a SQLite database, so not a Cascade store; pick another --db`);
  }
}

/** After opening, before any pragma or migration: a non-empty database must already be a Cascade store. */
export function checkCascadeSchema(db: Connection, path: string): void {
  const tables = db.prepare("SELECT name FROM sqlite_schema WHERE type = 'table' ORDER BY name").pluck().all() as string[];
  if (tables.length === 0) return; // a new, empty database becomes a store
  const version = db.pragma("user_version", { simple: true }) as number;
  if (version > 0 && tables.includes("memories") && tables.includes("meta")) return;
  const shown = tables.slice(0, 5).join(", ") + (tables.length > 5 ? `, … (${tables.length} tables)` : "");
  throw invalidInput("db", `${path} is a SQLite database of another application (tables ${shown}), not a Cascade store; pick another --db`);
}
