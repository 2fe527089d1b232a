/**
 * @module backends/sqlite/upkeep-sql
 * Store-wide reads for the SQLite store (store.ts): its counts and its files' size, the engine's own meta keys,
 * every memory id in write order. Apart from the facade so it stays one short method a port method.
 */
import { statSync } from "node:fs";
import type Database from "better-sqlite3";
import type { StoreStats } from "../../ports/store.js";

type Prepare = (sql: string) => Database.Statement;

/** An engine meta value (stored under `engine.<key>`), or null. */
export function getMeta(stmt: Prepare, key: string): string | null {
  return (stmt("SELECT value FROM meta WHERE key = ?").pluck().get(`engine.${key}`) as string | undefined) ?? null;
}

export function setMeta(stmt: Prepare, key: string, value: string): void {
  stmt("INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value").run(`engine.${key}`, value);
}

/** Every memory id, in the order written. */
export function memoryIdsInOrder(stmt: Prepare): string[] {
  return stmt("SELECT id FROM memories ORDER BY rowid").pluck().all() as string[];
}

/** Counts, and `bytes`: the store's files on disk (database, write-ahead log, saved vector graph). */
export function stats(stmt: Prepare, path: string): StoreStats {
  const count = (table: string) => (stmt(`SELECT count(*) FROM ${table}`).pluck().get() as number);
  let bytes = 0;
  if (path !== ":memory:") {
    for (const suffix of ["", "-wal", ".hnsw"]) {
      try {
        bytes += statSync(path + suffix).size;
      } catch {
        // no WAL file yet
      }
    }
  }
  const summaries = count("summary_nodes");
  return { memories: count("memories") - summaries, summaries, chunks: count("chunks"), terms: count("terms"), bytes };
}
