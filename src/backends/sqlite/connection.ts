/**
 * @module backends/sqlite/connection
 * How Cascade opens SQLite: every pragma in one place, each with its reason.
 */
import Database from "better-sqlite3";
import { mkdirSync } from "node:fs";
import { dirname } from "node:path";

export type Connection = Database.Database;

export function openConnection(path: string, options: { readonly?: boolean } = {}): Connection {
  if (path !== ":memory:" && !options.readonly) mkdirSync(dirname(path), { recursive: true });
  const db = new Database(path, { readonly: options.readonly ?? false, fileMustExist: options.readonly ?? false });
  // Readers never block the writer and vice versa; a CLI search can run while `cascade serve` writes.
  db.pragma("journal_mode = WAL");
  // In WAL mode NORMAL is durable across application crashes and only risks the last commit on power loss.
  db.pragma("synchronous = NORMAL");
  // Chunks and postings cascade from their memory; without this a forget would leave orphans.
  db.pragma("foreign_keys = ON");
  // Another process holding the write lock (an import in progress) is waited for, not failed on.
  db.pragma("busy_timeout = 5000");
  // Sorting and temporary b-trees for fused queries stay off the disk.
  db.pragma("temp_store = MEMORY");
  // 64 MB page cache: the FTS5 and posting indexes of 100,000 chunks fit.
  db.pragma("cache_size = -65536");
  return db;
}
