/**
 * @module backends/sqlite/import-keys-sql
 * Import keys (see ingest/dedupe.ts): one per imported memory, unique, so that a re-run import finds what it
 * already stored with one index lookup per line.
 */
import type Database from "better-sqlite3";

type Prepare = (sql: string) => Database.Statement;

/** The memories already holding any of these keys: key → memory id. */
export function idsByImportKey(stmt: Prepare, keys: string[]): Map<string, string> {
  if (keys.length === 0) return new Map();
  const rows = stmt("SELECT import_key, id FROM memories WHERE import_key IN (SELECT value FROM json_each(?))")
    .raw()
    .all(JSON.stringify(keys)) as [string, string][];
  return new Map(rows);
}

/** Records a new memory's key (inside the writing transaction). */
export function setImportKey(stmt: Prepare, rowid: number, key: string): void {
  stmt("UPDATE memories SET import_key = ? WHERE rowid = ?").run(key, rowid);
}
