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

/** A store on a PostgreSQL server; `poolSize` connections at most (4 by default). */
export async function openPostgresUrl(url: string, options: PostgresStoreOptions & { poolSize?: number } = {}): Promise<PostgresStore> {
  return PostgresStore.open(poolDatabase(url, { max: options.poolSize }), options);
}

/** A store on PGlite in this process: a fresh in-memory database unless `dataDir` names one; closed with the store. */
export async function openPglite(options: PostgresStoreOptions & { dataDir?: string } = {}): Promise<PostgresStore> {
  const db = newPglite(options.dataDir);
  return PostgresStore.open(pgliteDatabase(db, { owned: true, label: options.dataDir ? `pglite:${options.dataDir}` : "pglite (in memory)" }), options);
}

/**
 * Opens the store at a PostgreSQL location: a `postgres://` or `postgresql://` URL, or `pglite:memory` /
 * `pglite:<data dir>`. A namespace other than the default travels in the fragment
 * (`postgres://host/db#namespace=team-a`, written by api/namespaces), never to the server: it is the value of
 * the namespace column this store reads and writes.
 */
export async function openPostgresLocation(location: string): Promise<PostgresStore> {
  const hash = location.indexOf("#");
  const base = hash < 0 ? location : location.slice(0, hash);
  const namespace = hash < 0 ? undefined : (new URLSearchParams(location.slice(hash + 1)).get("namespace") ?? undefined);
  if (/^pglite:/i.test(base)) {
    const dir = base.slice("pglite:".length);
    return openPglite({ namespace, dataDir: dir === "" || dir === "memory" ? undefined : dir });
  }
  return openPostgresUrl(base, { namespace });
}
