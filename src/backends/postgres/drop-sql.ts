/**
 * @module backends/postgres/drop-sql
 * Removes a namespace from the database: every row of it in every table, and its HNSW indexes. Used by scratch
 * stores (a bench's or an evaluation's throwaway namespace on a server), so a run leaves nothing behind.
 */
import type { Database } from "./connection.js";
import { hnswIndexPrefix } from "./hnsw-sql.js";
import { TABLES } from "./schema.js";

/** The tables in an order that deletes the rows pointing at a row before that row (the foreign keys cascade anyway, but then row by row). */
const CHILDREN_FIRST = [
  "postings", "curated_postings", "enrichment_failures", "memory_fields", "memory_revisions", "mention_forms", "mentions", "entity_aliases", "summary_children", "summary_nodes",
  "edges", "suggestions", "chunks", "dirty_windows", "topics", "entities", "terms", "memories", "meta",
] as const;

/**
 * Every table of the store with a foreign key: a deleted memory's or entity's keys look each up once per deleted row, even once
 * the rows are gone. Each lookup is planned from the table's statistics, and where they had not seen this
 * namespace at its size (summary_children filled by a pyramid built after the last refresh), the planner took
 * summary_children's child index for a parent lookup and read the whole namespace per memory: a 100,000-chunk
 * scratch namespace was still being dropped after 9 minutes, against 7 s once analyzed. Read from the catalog, so
 * a table given a key later is analyzed too.
 */
const LOOKED_UP = `SELECT DISTINCT conrelid::regclass::text AS name FROM pg_constraint
  WHERE contype = 'f' AND connamespace = current_schema()::regnamespace AND conrelid::regclass::text = ANY($1::text[])`;

/**
 * Deletes everything namespace `ns` holds. Its HNSW indexes go first (a DROP takes a moment, deleting their rows
 * first would only mark graph nodes dead), and the looked-up tables are analyzed. Then one transaction under the
 * namespace's write lock and without the statement timeout: a namespace of 100,000 chunks has millions of postings.
 */
export async function dropNamespace(db: Database, ns: string): Promise<void> {
  const indexes = await db.query<{ ddl: string }>(
    "SELECT format('DROP INDEX IF EXISTS %I', indexname) AS ddl FROM pg_indexes WHERE tablename = 'chunks' AND starts_with(indexname, $1::text)",
    [hnswIndexPrefix(ns)],
  );
  for (const { ddl } of indexes) await db.query(ddl);
  for (const { name } of await db.query<{ name: string }>(LOOKED_UP, [[...TABLES]])) await db.maintenance(`ANALYZE ${name}`);
  await db.transaction(async (tx) => {
    await tx.query("SET LOCAL statement_timeout = 0");
    await tx.query("SELECT pg_advisory_xact_lock(hashtextextended($1, 0))", [`cascade:${ns}`]);
    for (const table of CHILDREN_FIRST) await tx.query(`DELETE FROM ${table} WHERE namespace = $1`, [ns]);
  });
}
