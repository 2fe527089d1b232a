/**
 * @module backends/sqlite/enrichment-sql
 * The enrichment_failures table (ports/enrichment): failed enrichment steps of stored memories, by memory row.
 */
import type Database from "better-sqlite3";
import type { ExtractedEntity } from "../../model/entity.js";
import type { EnrichmentFailure, EnrichmentFailures, EnrichmentStep } from "../../ports/enrichment.js";
import { insertMentions } from "./entities-sql.js";

type Prepare = (sql: string) => Database.Statement;
type Row = { step: string; reason: string; at: number };

/** Records failures of the memory at `memoryRowid` (inside the caller's transaction); a second failure counts one more attempt. */
export function insertFailures(prepare: Prepare, memoryRowid: number, rows: Row[]): void {
  const put = prepare(
    `INSERT INTO enrichment_failures (memory_rowid, step, reason, at_ms, attempts) VALUES (?, ?, ?, ?, 1)
     ON CONFLICT (memory_rowid, step) DO UPDATE SET reason = excluded.reason, at_ms = excluded.at_ms, attempts = attempts + 1`,
  );
  for (const r of rows) put.run(memoryRowid, r.step, r.reason, r.at);
}

export function sqliteEnrichmentFailures(prepare: Prepare, transaction: (fn: () => void) => void): EnrichmentFailures {
  const rowidOf = (id: string) => prepare("SELECT rowid FROM memories WHERE id = ?").pluck().get(id) as number | undefined;
  const clear = (memoryId: string, step: EnrichmentStep) =>
    prepare("DELETE FROM enrichment_failures WHERE memory_rowid = (SELECT rowid FROM memories WHERE id = ?) AND step = ?").run(memoryId, step);
  return {
    record: async (rows) =>
      transaction(() => {
        for (const r of rows) {
          const rowid = rowidOf(r.memoryId);
          if (rowid !== undefined) insertFailures(prepare, rowid, [r]);
        }
      }),
    pending: async (limit) => {
      const counts = prepare("SELECT step, count(*) AS n FROM enrichment_failures GROUP BY step ORDER BY step").all() as { step: EnrichmentStep; n: number }[];
      const first = prepare(
        `SELECT m.id AS memoryId, f.step, f.reason, f.at_ms AS at, f.attempts FROM enrichment_failures f
         JOIN memories m ON m.rowid = f.memory_rowid ORDER BY f.at_ms, m.id LIMIT ?`,
      ).all(limit) as EnrichmentFailure[];
      return { byStep: Object.fromEntries(counts.map((c) => [c.step, c.n])), first };
    },
    clear: async (memoryId, step) => {
      clear(memoryId, step);
    },
    attachEntities: async (memoryId: string, entities: ExtractedEntity[]) =>
      transaction(() => {
        const rowid = rowidOf(memoryId);
        if (rowid === undefined) return;
        const recorded = prepare("SELECT recorded_at FROM memories WHERE rowid = ?").pluck().get(rowid) as string;
        if (entities.length) insertMentions(prepare, rowid, entities, Date.parse(recorded));
        clear(memoryId, "entities");
      }),
  };
}
