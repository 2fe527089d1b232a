/**
 * @module backends/sqlite/copy-mark-sql
 * The copy mark of a SQLite store (ports/copy, api/copy-mark.ts), read on every open: apart from copy-sql.ts so
 * that opening a store to read it does not load the copy's readers and writers (store-parts.ts).
 */
import type Database from "better-sqlite3";
import { COPY_MARK } from "../copy-rows.js";

type Prepare = (sql: string) => Database.Statement;

/** The copy mark (ports/copy), or null. */
export function copyMark(stmt: Prepare): string | null {
  return (stmt("SELECT value FROM meta WHERE key = ?").pluck().get(COPY_MARK) as string | undefined) ?? null;
}

/** Sets the copy mark, or removes it (null); inside the caller's transaction when there is one. */
export function setCopyMark(stmt: Prepare, mark: string | null): void {
  if (mark === null) stmt("DELETE FROM meta WHERE key = ?").run(COPY_MARK);
  else stmt("INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value").run(COPY_MARK, mark);
}
