/**
 * @module backends/postgres/open
 * The ways to get a PostgresStore: a server by `postgres://` URL (a `pg` pool), or PGlite in this process
 * (in memory, or a data directory) with the two extensions the schema needs, pgvector and ltree.
 */
import { PGlite } from "@electric-sql/pglite";
import { ltree } from "@electric-sql/pglite/contrib/ltree";
import { vector } from "@electric-sql/pglite-pgvector";
import { pgliteDatabase, poolDatabase } from "./connection.js";
import { PostgresStore, type PostgresStoreOptions } from "./store.js";

/** A PGlite instance with pgvector and ltree loaded (in memory without `dataDir`). */
export function newPglite(dataDir?: string): PGlite {
  return new PGlite({ dataDir, extensions: { vector, ltree } });
}

/** A store on a PostgreSQL server. */
export async function openPostgresUrl(url: string, options: PostgresStoreOptions = {}): Promise<PostgresStore> {
  return PostgresStore.open(poolDatabase(url), options);
}

/** A store on PGlite in this process: a fresh in-memory database unless `dataDir` names one; closed with the store. */
export async function openPglite(options: PostgresStoreOptions & { dataDir?: string } = {}): Promise<PostgresStore> {
  const db = newPglite(options.dataDir);
  return PostgresStore.open(pgliteDatabase(db, { owned: true, label: options.dataDir ? `pglite:${options.dataDir}` : "pglite (in memory)" }), options);
}
