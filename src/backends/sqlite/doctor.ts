/**
 * @module backends/sqlite/doctor
 * Checks that the derived indexes agree with the tables they come from, and rebuilds the ones that do not:
 * the body and curated FTS5 indexes, the vocabulary's chunk counts, the stored chunk count, vector sizes,
 * summary nodes, and SQLite's own integrity and foreign-key checks. The tables (memories, chunks, edges) are
 * the source of truth; nothing in them is changed.
 */
import { curatedColumns } from "./memory-sql.js";
import type Database from "better-sqlite3";
import type { Connection } from "./connection.js";

import type { DoctorCheck } from "../../ports/store.js";
import { checkEntityCounts } from "./entities-sql.js";

type Prepare = (sql: string) => Database.Statement;

const ids = (stmt: Prepare, sql: string) => new Set(stmt(sql).pluck().all() as number[]);

/** Counts each word of a chunk's space-separated `terms` once (the way ingest counts terms.df). */
function countTerms(df: Map<string, number>, terms: string): void {
  for (const t of terms.split(" ")) if (t) df.set(t, (df.get(t) ?? 0) + 1);
}

function difference(a: Set<number>, b: Set<number>): number {
  let n = 0;
  for (const x of a) if (!b.has(x)) n++;
  return n;
}

/** Runs every check; with `repair`, rebuilds what failed in one transaction. */
export function runDoctor(db: Connection, stmt: Prepare, dimensions: number | null, repair: boolean): DoctorCheck[] {
  const checks: DoctorCheck[] = [];
  const integrity = db.pragma("integrity_check", { simple: true }) as string;
  checks.push({ name: "sqlite integrity", ok: integrity === "ok", detail: integrity });
  const fk = db.pragma("foreign_key_check") as unknown[];
  checks.push({ name: "foreign keys", ok: fk.length === 0, detail: `${fk.length} rows point at nothing` });

  const chunkIds = ids(stmt, "SELECT id FROM chunks");
  const ftsIds = ids(stmt, "SELECT rowid FROM chunks_fts");
  const missing = difference(chunkIds, ftsIds);
  const extra = difference(ftsIds, chunkIds);
  checks.push({ name: "body index (bm25, late interaction)", ok: missing + extra === 0, detail: `${chunkIds.size} chunks; ${missing} missing from the index, ${extra} indexed but gone` });

  const curatedIds = ids(stmt, "SELECT rowid FROM memories WHERE title IS NOT NULL OR description IS NOT NULL OR tags <> '[]'");
  const curatedFts = ids(stmt, "SELECT rowid FROM curated_fts");
  const cMissing = difference(curatedIds, curatedFts);
  const cExtra = difference(curatedFts, curatedIds);
  checks.push({ name: "curated index (titles, descriptions, tags)", ok: cMissing + cExtra === 0, detail: `${curatedIds.size} memories; ${cMissing} missing, ${cExtra} extra` });

  const df = new Map<string, number>();
  for (const terms of stmt("SELECT terms FROM chunks").pluck().iterate() as Iterable<string>) countTerms(df, terms);
  let wrongDf = 0;
  const known = new Set<string>();
  for (const [term, n] of stmt("SELECT term, df FROM terms").raw().iterate() as Iterable<[string, number]>) {
    known.add(term);
    if ((df.get(term) ?? 0) !== n) wrongDf++;
  }
  const unknown = [...df.keys()].filter((t) => !known.has(t)).length;
  checks.push({ name: "vocabulary counts", ok: wrongDf + unknown === 0, detail: `${df.size} words in use; ${wrongDf} with a wrong count, ${unknown} missing` });

  const counted = Number((stmt("SELECT value FROM meta WHERE key = 'chunk_count'").pluck().get() as string | undefined) ?? 0);
  checks.push({ name: "chunk count", ok: counted === chunkIds.size, detail: `stored ${counted}, actual ${chunkIds.size}` });

  const badVectors = dimensions === null ? 0 : (stmt("SELECT count(*) FROM chunks WHERE length(vector) <> ?").pluck().get(dimensions * 4) as number);
  checks.push({ name: "vector sizes", ok: badVectors === 0, detail: dimensions === null ? "no embedder recorded yet" : `${badVectors} vectors are not ${dimensions}-d (not repairable here: re-add those memories)` });

  const orphanSummaries = stmt("SELECT count(*) FROM memories m WHERE m.kind = 'summary' AND NOT EXISTS (SELECT 1 FROM summary_nodes n WHERE n.memory_rowid = m.rowid)").pluck().get() as number;
  checks.push({ name: "summary nodes", ok: orphanSummaries === 0, detail: `${orphanSummaries} summaries without a node (repair marks their windows dirty for the next pyramid build)` });

  checks.push(checkEntityCounts(stmt, repair));

  // Repair rebuilds every derived structure from the tables, whichever check failed: simple, and a rebuild
  // cannot leave one index agreeing with a table another repair has just changed.
  const repairable = new Set(["body index (bm25, late interaction)", "curated index (titles, descriptions, tags)", "vocabulary counts", "chunk count", "summary nodes"]);
  if (repair && checks.some((c) => !c.ok && repairable.has(c.name))) {
    db.transaction(() => {
      stmt(
        `INSERT OR IGNORE INTO dirty_windows (level, start_ms)
         SELECT json_extract(metadata, '$.level'), at_ms FROM memories
         WHERE kind = 'summary' AND rowid NOT IN (SELECT memory_rowid FROM summary_nodes)`,
      ).run();
      stmt("DELETE FROM memories WHERE kind = 'summary' AND rowid NOT IN (SELECT memory_rowid FROM summary_nodes)").run();
      stmt("INSERT INTO chunks_fts (chunks_fts) VALUES ('delete-all')").run();
      const body = stmt("INSERT INTO chunks_fts (rowid, body) VALUES (?, ?)");
      const df = new Map<string, number>();
      let chunks = 0;
      // read in full first: better-sqlite3 cannot write while a read on the same connection is open
      for (const [id, text, terms] of stmt("SELECT id, indexed_text, terms FROM chunks").raw().all() as [number, string, string][]) {
        body.run(id, text);
        chunks++;
        countTerms(df, terms);
      }
      stmt("INSERT INTO curated_fts (curated_fts) VALUES ('delete-all')").run();
      const curated = stmt("INSERT INTO curated_fts (rowid, title, description, tags) VALUES (?, ?, ?, ?)");
      const rows = stmt(
        "SELECT rowid, coalesce(title, ''), coalesce(description, ''), tags FROM memories WHERE title IS NOT NULL OR description IS NOT NULL OR tags <> '[]'",
      ).raw().all() as [number, string, string, string][];
      for (const [rowid, title, description, tags] of rows) curated.run(rowid, ...curatedColumns(title, description, JSON.parse(tags) as string[]));
      stmt("UPDATE terms SET df = 0").run();
      const upsert = stmt("INSERT INTO terms (term, df) VALUES (?, ?) ON CONFLICT (term) DO UPDATE SET df = excluded.df");
      for (const [term, n] of df) upsert.run(term, n);
      stmt("INSERT INTO meta (key, value) VALUES ('chunk_count', ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value").run(String(chunks));
    })();
    for (const c of checks) if (!c.ok && repairable.has(c.name)) c.repaired = true;
  }
  return checks;
}
