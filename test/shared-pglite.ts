/**
 * One in-process PostgreSQL database that several stores share, as processes share a server: the stores open it
 * without owning it (closing a store leaves it open), and it is closed once `use` is done, whatever happened.
 */
import type { PGlite } from "@electric-sql/pglite";
import { pgliteDatabase, type Database } from "../src/backends/postgres/connection.js";
import { newPglite } from "../src/backends/postgres/open.js";

export async function withSharedPglite<T>(use: (db: Database) => Promise<T>, label?: string): Promise<T> {
  const pglite = newPglite();
  try {
    return await use(pgliteDatabase(pglite, { owned: false, label }));
  } finally {
    await pglite.close();
  }
}

/**
 * One in-process PostgreSQL database for a file's tests, each test in a schema of its own: its tables, migrations
 * and statistics are its own (the store names its tables unqualified and reads the catalogue by current_schema()),
 * as if the database were new, for the CPU of one PGlite start (1-2 s) instead of one per test. The extensions go
 * to the public schema once, where every test's search path finds them. `use` runs one test's body; `close` ends
 * the database (an `after` hook of the file).
 */
export function pgliteSchemaPerTest(): { use<T>(body: (db: Database) => Promise<T>): Promise<T>; close(): Promise<void> } {
  let started: Promise<PGlite> | null = null;
  let schemas = 0;
  const start = async () => {
    const pglite = newPglite();
    await pglite.exec("CREATE EXTENSION IF NOT EXISTS vector; CREATE EXTENSION IF NOT EXISTS ltree");
    return pglite;
  };
  return {
    async use(body) {
      const pglite = await (started ??= start());
      const schema = `test_${++schemas}`;
      await pglite.exec(`CREATE SCHEMA ${schema}; SET search_path TO ${schema}, public`);
      try {
        return await body(pgliteDatabase(pglite, { owned: false }));
      } finally {
        await pglite.exec("SET search_path TO public");
      }
    },
    async close() {
      if (started) await (await started).close();
    },
  };
}
