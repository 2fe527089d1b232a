/**
 * @module backends/sqlite/version
 * What this connection can see of the store, as a string that changes whenever it does: PRAGMA data_version
 * moves with other connections' commits, total_changes() with this connection's own writes. Whatever is read
 * and kept between searches (chunk owners, a filter's chunks, the expired chunks) is kept under it.
 */
import type Database from "better-sqlite3";

type Prepare = (sql: string) => Database.Statement;

export function storeVersion(stmt: Prepare): string {
  return stmt("SELECT (SELECT data_version FROM pragma_data_version) || ':' || total_changes()").pluck().get() as string;
}
