/**
 * @module backends/postgres/reembed-sql
 * Re-embedding beside the live vectors (ports/store StoreReembed) in PostgreSQL, with the semantics of
 * backends/sqlite/reembed-sql.ts: the new vectors wait in `reembed_vectors` (every namespace's, as `real[]`, which
 * the vector column takes by its assignment cast), created by the first `start` and dropped by the switch that
 * leaves it empty; the target is a meta row of the namespace. The caller runs `start`, `save` and `switchOver`
 * inside a transaction holding the namespace's write lock.
 */
import type { ReembedChunk, ReembedTarget, StoreReembed } from "../../ports/store.js";
import type { Queryable } from "./connection.js";
import { toVectorText } from "./vector-sql.js";

const TARGET_KEY = "reembed.target";
/** The spec the store reopens with (embed/spec EMBEDDER_SPEC_META, under the engine's meta prefix). */
const SPEC_KEY = "engine.embedder.spec";

const TABLE = `CREATE TABLE IF NOT EXISTS reembed_vectors (
  namespace    text NOT NULL,
  chunk_id     bigint NOT NULL,
  indexed_text text NOT NULL,
  vector       real[] NOT NULL,
  PRIMARY KEY (namespace, chunk_id)
)`;

const MISSING = `FROM chunks c LEFT JOIN reembed_vectors p ON p.namespace = c.namespace AND p.chunk_id = c.id AND p.indexed_text = c.indexed_text
  WHERE c.namespace = $1 AND p.chunk_id IS NULL`;

async function hasTable(q: Queryable): Promise<boolean> {
  const [row] = await q.query<{ t: string | null }>("SELECT to_regclass('reembed_vectors')::text AS t");
  return row.t !== null;
}

async function target(q: Queryable, ns: string): Promise<ReembedTarget | null> {
  const [row] = await q.query<{ value: string }>("SELECT value FROM meta WHERE namespace = $1 AND key = $2", [ns, TARGET_KEY]);
  return row ? (JSON.parse(row.value) as ReembedTarget) : null;
}

const sameTarget = (a: ReembedTarget, b: ReembedTarget) => a.stamp.id === b.stamp.id && a.stamp.dimensions === b.stamp.dimensions && a.spec === b.spec;

async function setMeta(q: Queryable, ns: string, key: string, value: string): Promise<void> {
  await q.query("INSERT INTO meta (namespace, key, value) VALUES ($1, $2, $3) ON CONFLICT (namespace, key) DO UPDATE SET value = excluded.value", [ns, key, value]);
}

async function chunkTotal(q: Queryable, ns: string): Promise<number> {
  const [row] = await q.query<{ n: string }>("SELECT count(*) AS n FROM chunks WHERE namespace = $1", [ns]);
  return Number(row.n);
}

export async function start(tx: Queryable, ns: string, next: ReembedTarget): Promise<{ kept: number }> {
  const had = await target(tx, ns);
  await tx.query(TABLE);
  if (!had || !sameTarget(had, next)) {
    await tx.query("DELETE FROM reembed_vectors WHERE namespace = $1", [ns]);
    await setMeta(tx, ns, TARGET_KEY, JSON.stringify(next));
    return { kept: 0 };
  }
  const [row] = await tx.query<{ n: string }>("SELECT count(*) AS n FROM reembed_vectors WHERE namespace = $1", [ns]);
  return { kept: Number(row.n) };
}

export async function progress(q: Queryable, ns: string): Promise<{ target: ReembedTarget | null; done: number; total: number }> {
  const total = await chunkTotal(q, ns);
  const t = await target(q, ns);
  if (!t || !(await hasTable(q))) return { target: t, done: 0, total };
  const [row] = await q.query<{ n: string }>(`SELECT count(*) AS n ${MISSING}`, [ns]);
  return { target: t, done: total - Number(row.n), total };
}

export async function todo(q: Queryable, ns: string, after: number, limit: number): Promise<ReembedChunk[]> {
  if (!(await hasTable(q))) return [];
  const rows = await q.query<{ id: string; start: number; end: number; indexed_text: string; text: string }>(
    `SELECT c.id, c.start, c."end", c.indexed_text, m.text FROM chunks c JOIN memories m ON m.namespace = c.namespace AND m.rowid = c.memory_rowid
     LEFT JOIN reembed_vectors p ON p.namespace = c.namespace AND p.chunk_id = c.id AND p.indexed_text = c.indexed_text
     WHERE c.namespace = $1 AND p.chunk_id IS NULL AND c.id > $2 ORDER BY c.id LIMIT $3`,
    [ns, after, limit],
  );
  // sliced in UTF-16 units as the chunker cut it (SQL's substr counts characters)
  return rows.map((r) => ({ chunkId: Number(r.id), text: r.text.slice(r.start, r.end), indexedText: r.indexed_text }));
}

export async function save(tx: Queryable, ns: string, rows: { chunkId: number; indexedText: string; vector: Float32Array }[]): Promise<void> {
  if (rows.length === 0 || !(await hasTable(tx))) return;
  await tx.query(
    `INSERT INTO reembed_vectors (namespace, chunk_id, indexed_text, vector)
     SELECT $1, t.id, t.body, ('{' || t.vec || '}')::real[] FROM unnest($2::bigint[], $3::text[], string_to_array($4, ';')) AS t (id, body, vec)
     ON CONFLICT (namespace, chunk_id) DO UPDATE SET indexed_text = excluded.indexed_text, vector = excluded.vector`,
    [ns, rows.map((r) => r.chunkId), rows.map((r) => r.indexedText), rows.map((r) => toVectorText(r.vector).slice(1, -1)).join(";")],
  );
}

export async function switchOver(tx: Queryable, ns: string): Promise<number> {
  const t = await target(tx, ns);
  if (!t || !(await hasTable(tx))) return chunkTotal(tx, ns);
  const [row] = await tx.query<{ n: string }>(`SELECT count(*) AS n ${MISSING}`, [ns]);
  if (Number(row.n) > 0) return Number(row.n);
  await tx.query("UPDATE chunks c SET vector = p.vector FROM reembed_vectors p WHERE p.namespace = c.namespace AND p.chunk_id = c.id AND c.namespace = $1", [ns]);
  await setMeta(tx, ns, "embedder", JSON.stringify(t.stamp));
  if (t.spec === null) await tx.query("DELETE FROM meta WHERE namespace = $1 AND key = $2", [ns, SPEC_KEY]);
  else await setMeta(tx, ns, SPEC_KEY, t.spec);
  await tx.query("DELETE FROM meta WHERE namespace = $1 AND key = $2", [ns, TARGET_KEY]);
  await tx.query("DELETE FROM reembed_vectors WHERE namespace = $1", [ns]);
  // the table goes with the last namespace's re-embedding, so a store that finished has the schema it always had
  const [left] = await tx.query("SELECT 1 FROM reembed_vectors LIMIT 1");
  if (!left) await tx.query("DROP TABLE reembed_vectors");
  return 0;
}

/**
 * The re-embedding port over one namespace, as the store (store.ts) hands it out: `write` runs a transaction under
 * the namespace's write lock; `switched` is told when every vector has changed, so the store forgets what it
 * derived from the old ones.
 */
export function postgresStoreReembed(db: Queryable, ns: string, write: <T>(fn: (tx: Queryable) => Promise<T>) => Promise<T>, switched: () => void): StoreReembed {
  return {
    start: (target) => write((tx) => start(tx, ns, target)),
    progress: () => progress(db, ns),
    todo: (after, limit) => todo(db, ns, after, limit),
    save: (rows) => write((tx) => save(tx, ns, rows)),
    switchOver: async () => {
      const missing = await write((tx) => switchOver(tx, ns));
      if (missing === 0) switched();
      return missing;
    },
  };
}
