/**
 * One in-process PostgreSQL database that several stores share, as processes share a server: the stores open it
 * without owning it (closing a store leaves it open), and it is closed once `use` is done, whatever happened.
 */
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
