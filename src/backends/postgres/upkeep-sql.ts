/**
 * @module backends/postgres/upkeep-sql
 * Namespace-wide reads and upkeep for the PostgreSQL store (store.ts): its counts and the tables' size, the
 * engine's own meta keys, the vacuum after deletes. Apart from the facade so it stays one line a port method.
 */
import type { StoreStats } from "../../ports/store.js";
import type { Database, Queryable } from "./connection.js";
import { TABLES } from "./schema.js";

/** Vocabulary words no chunk uses any more, dropped; their count. */
export async function dropUnusedTerms(tx: Queryable, ns: string): Promise<number> {
  return (await tx.query("DELETE FROM terms WHERE namespace = $1 AND df <= 0 RETURNING id", [ns])).length;
}

/** Asks the server to VACUUM the tables a purge frees rows in (outside any transaction). */
export async function vacuumAfterPurge(db: Database): Promise<void> {
  for (const table of ["terms", "postings", "curated_postings", "chunks", "memories"]) await db.maintenance(`VACUUM ${table}`);
}

/** An engine meta value (stored under `engine.<key>`), or null. */
export async function getMeta(db: Queryable, ns: string, key: string): Promise<string | null> {
  const [row] = await db.query<{ value: string }>("SELECT value FROM meta WHERE namespace = $1 AND key = $2", [ns, `engine.${key}`]);
  return row?.value ?? null;
}

export async function setMeta(db: Queryable, ns: string, key: string, value: string): Promise<void> {
  await db.query(
    "INSERT INTO meta (namespace, key, value) VALUES ($1, $2, $3) ON CONFLICT (namespace, key) DO UPDATE SET value = excluded.value",
    [ns, `engine.${key}`, value],
  );
}

/** Counts for the namespace; `bytes` is the size of the store's tables on the server, all namespaces together. */
export async function stats(db: Queryable, ns: string): Promise<StoreStats> {
  const [row] = await db.query<{ memories: number; summaries: number; chunks: number; terms: number; bytes: number }>(
    `SELECT (SELECT count(*) FROM memories WHERE namespace = $1)::int AS memories,
            (SELECT count(*) FROM summary_nodes WHERE namespace = $1)::int AS summaries,
            (SELECT count(*) FROM chunks WHERE namespace = $1)::int AS chunks,
            (SELECT count(*) FROM terms WHERE namespace = $1)::int AS terms,
            (SELECT coalesce(sum(pg_total_relation_size(t::regclass)), 0) FROM unnest($2::text[]) AS t)::float8 AS bytes`,
    [ns, [...TABLES]],
  );
  return { memories: row.memories - row.summaries, summaries: row.summaries, chunks: row.chunks, terms: row.terms, bytes: row.bytes };
}

/** Every memory id of the namespace, in the order written. */
export async function memoryIdsInOrder(db: Queryable, ns: string): Promise<string[]> {
  return (await db.query<{ id: string }>("SELECT id FROM memories WHERE namespace = $1 ORDER BY rowid", [ns])).map((r) => r.id);
}
