/**
 * @module backends/postgres/enrichment-sql
 * The enrichment_failures table (ports/enrichment) on PostgreSQL, as the SQLite store's enrichment-sql.
 */
import type { ExtractedEntity } from "../../model/entity.js";
import type { EnrichmentFailure, EnrichmentFailures, EnrichmentStep } from "../../ports/enrichment.js";
import type { Queryable } from "./connection.js";
import { insertMentionsMany } from "./entities-sql.js";

/** Records failures of memories by row (inside the caller's transaction); a second failure counts one more attempt. */
export async function insertFailures(q: Queryable, ns: string, rows: { rowid: number; step: string; reason: string; at: number }[]): Promise<void> {
  if (rows.length === 0) return;
  await q.query(
    `INSERT INTO enrichment_failures (namespace, memory_rowid, step, reason, at_ms, attempts)
     SELECT $1, rowid, step, reason, at_ms, 1 FROM unnest($2::bigint[], $3::text[], $4::text[], $5::bigint[]) AS t (rowid, step, reason, at_ms)
     ON CONFLICT (namespace, memory_rowid, step) DO UPDATE
       SET reason = excluded.reason, at_ms = excluded.at_ms, attempts = enrichment_failures.attempts + 1`,
    [ns, rows.map((r) => r.rowid), rows.map((r) => r.step), rows.map((r) => r.reason), rows.map((r) => r.at)],
  );
}

async function clear(q: Queryable, ns: string, memoryId: string, step: EnrichmentStep): Promise<void> {
  await q.query(
    "DELETE FROM enrichment_failures f USING memories m WHERE f.namespace = $1 AND m.namespace = $1 AND m.rowid = f.memory_rowid AND m.id = $2 AND f.step = $3",
    [ns, memoryId, step],
  );
}

export function postgresEnrichmentFailures(db: Queryable, ns: string, write: <T>(fn: (tx: Queryable) => Promise<T>) => Promise<T>): EnrichmentFailures {
  return {
    record: (rows) =>
      write(async (tx) => {
        const found = await tx.query<{ rowid: number; id: string }>("SELECT rowid::int AS rowid, id FROM memories WHERE namespace = $1 AND id = ANY($2::text[])", [ns, rows.map((r) => r.memoryId)]);
        const rowidOf = new Map(found.map((r) => [r.id, r.rowid]));
        await insertFailures(tx, ns, rows.filter((r) => rowidOf.has(r.memoryId)).map((r) => ({ ...r, rowid: rowidOf.get(r.memoryId)! })));
      }),
    pending: async (limit) => {
      const counts = await db.query<{ step: EnrichmentStep; n: number }>("SELECT step, count(*)::int AS n FROM enrichment_failures WHERE namespace = $1 GROUP BY step ORDER BY step", [ns]);
      const first = await db.query<EnrichmentFailure>(
        `SELECT m.id AS "memoryId", f.step, f.reason, f.at_ms::float8 AS at, f.attempts FROM enrichment_failures f
         JOIN memories m ON m.namespace = f.namespace AND m.rowid = f.memory_rowid
         WHERE f.namespace = $1 ORDER BY f.at_ms, m.id LIMIT $2`,
        [ns, limit],
      );
      return { byStep: Object.fromEntries(counts.map((c) => [c.step, c.n])), first };
    },
    clear: (memoryId, step) => write((tx) => clear(tx, ns, memoryId, step)),
    attachEntities: (memoryId: string, entities: ExtractedEntity[]) =>
      write(async (tx) => {
        const [m] = await tx.query<{ rowid: number; recorded: number; user_id: string | null; agent_id: string | null }>(
          "SELECT rowid::int AS rowid, recorded_at_ms AS recorded, user_id, agent_id FROM memories WHERE namespace = $1 AND id = $2",
          [ns, memoryId],
        );
        if (!m) return;
        if (entities.length) await insertMentionsMany(tx, ns, [{ rowid: m.rowid, entities, now: m.recorded, user: m.user_id, agent: m.agent_id }]);
        await clear(tx, ns, memoryId, "entities");
      }),
  };
}
