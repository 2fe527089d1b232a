/**
 * The SQLite store's `mentioning` reads entities mentioned by few memories in one statement that numbers each one's
 * mentions, and the others (over 256 mentions, or over 4 times the limit; every one for a limit under 4) a statement
 * each (backends/sqlite/entities-sql.ts). Both must give
 * what one statement an entity gave: the memories mentioning it, most recently written first, the first `limit`
 * that pass the filter, entities in the order asked (a repeated one twice, an unknown one nothing).
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import Database from "better-sqlite3";
import { mentioning } from "../src/backends/sqlite/entities-sql.js";
import { filterCondition } from "../src/backends/sqlite/filter-sql.js";
import type { SearchFilter } from "../src/model/types.js";
import { emptyEngine } from "./helpers.js";

const PEOPLE = ["Grace Liu", "Marcus Okafor", "Yuki Tanaka", "Lena Fischer"];

/** The statement an entity that `mentioning` was before. */
function oneByOne(db: Database.Database, entityIds: string[], limit: number, filter: SearchFilter) {
  const cond = filterCondition(filter);
  const q = db.prepare(
    `SELECT m.id AS memoryId, (SELECT c.id FROM chunks c WHERE c.memory_rowid = m.rowid ORDER BY c.ord LIMIT 1) AS chunkId
     FROM mentions x JOIN memories m ON m.rowid = x.memory_rowid
     WHERE x.entity_rowid = (SELECT rowid FROM entities WHERE id = @entity) AND ${cond.sql}
     ORDER BY x.memory_rowid DESC LIMIT @limit`,
  );
  const out: { entityId: string; memoryId: string; chunkId: number }[] = [];
  for (const entityId of entityIds) {
    for (const r of q.all({ ...cond.params, entity: entityId, limit }) as { memoryId: string; chunkId: number | null }[]) {
      if (r.chunkId !== null) out.push({ entityId, memoryId: r.memoryId, chunkId: r.chunkId });
    }
  }
  return out;
}

test("mentioning gives what a statement an entity gave, for entities mentioned by many and by few", async () => {
  const { engine, path } = await emptyEngine();
  // Priya in all 300 (over the 256 read together), each other person in one memory of four
  const memories = Array.from({ length: 300 }, (_, i) => ({
    text: `Priya Raman met ${PEOPLE[i % 4]} in Lisbon about plan ${i}.`,
    at: new Date(Date.UTC(2024, 0, 1 + (i % 28), 9, i % 60)).toISOString(),
    kind: i % 3 ? "turn" : "note",
  }));
  await engine.rememberMany(memories);
  await engine.close();
  const db = new Database(path, { readonly: true });
  try {
    const cache = new Map<string, Database.Statement>();
    const stmt = (sql: string) => cache.get(sql) ?? cache.set(sql, db.prepare(sql)).get(sql)!;
    const ids = db.prepare("SELECT id FROM entities ORDER BY mentioned_by DESC, key").pluck().all() as string[];
    const counts = db.prepare("SELECT mentioned_by FROM entities ORDER BY mentioned_by DESC, key").pluck().all() as number[];
    assert.ok(counts[0] > 256 && counts[counts.length - 1] <= 256, `counts ${counts.join(", ")}`);
    const mid = (db.prepare("SELECT at_ms FROM memories ORDER BY at_ms").pluck().all() as number[])[150];
    const asked = [ids, [...ids].reverse(), [ids[1], ids[0], ids[1], "ent_unknown"], []];
    for (const filter of [{}, { since: mid }, { kinds: ["note"] }] as SearchFilter[]) {
      for (const limit of [1, 5, 300]) {
        for (const entityIds of asked) {
          const want = oneByOne(db, entityIds, limit, filter);
          assert.deepEqual(mentioning(stmt, entityIds, limit, filter), want, `filter ${JSON.stringify(filter)}, limit ${limit}, ${entityIds.length} entities`);
          if (entityIds.length && limit === 5) assert.ok(want.length > 0);
        }
      }
    }
  } finally {
    db.close();
  }
});
