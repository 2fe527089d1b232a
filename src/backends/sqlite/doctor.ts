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

/** SQLite's integrity check: its problems, none when the file is sound (a file too damaged to check is one). */
function integrityProblems(db: Connection): string[] {
  try {
    const rows = (db.pragma("integrity_check") as { integrity_check: string }[]).flatMap((r) => r.integrity_check.split("\n"));
    return rows.length === 1 && rows[0] === "ok" ? [] : rows.filter((r) => r.trim() !== "" && !r.startsWith("*** in database"));
  } catch (err) {
    return [(err as Error).message];
  }
}

/**
 * Problems a rebuild from the tables removes: an index that disagrees with its table (REINDEX), an FTS5 index
 * whose blobs are damaged (rebuilt from the chunks and memories). Anything else is in the tables themselves.
 */
const REBUILDABLE = /missing from index|wrong # of entries in index|non-unique entry in index|fts5|malformed inverted index/i;

const INTEGRITY = "sqlite integrity";
const UNREPAIRABLE = "not repairable here: the tables themselves are damaged (restore a backup, or try sqlite3's .recover)";

function integrityCheck(problems: string[]): DoctorCheck {
  const detail = problems.length === 0 ? "ok" : problems.length === 1 ? problems[0] : `${problems[0]} (and ${problems.length - 1} more)`;
  return { name: INTEGRITY, ok: problems.length === 0, detail };
}

/** A check that cannot even run (a damaged page on its way) fails, naming why, instead of stopping the report. */
export function guarded<T extends DoctorCheck | null>(name: string, run: () => T): T | DoctorCheck {
  try {
    return run();
  } catch (err) {
    return { name, ok: false, detail: `could not be checked: ${(err as Error).message}` };
  }
}

/**
 * Runs every check; with `repair`, rebuilds what failed in one transaction (and reindexes), then checks SQLite's
 * integrity again: what a rebuild cannot fix is reported as not repairable.
 */
export function runDoctor(db: Connection, stmt: Prepare, dimensions: number | null, repair: boolean): DoctorCheck[] {
  const problems = integrityProblems(db);
  const checks: DoctorCheck[] = [integrityCheck(problems)];
  checks.push(...derivedChecks(stmt, dimensions, repair));
  const rebuildable = problems.length > 0 && problems.every((p) => REBUILDABLE.test(p));
  if (repair && (rebuildable || checks.some((c) => !c.ok && REPAIRABLE.has(c.name)))) {
    try {
      rebuildDerived(db, stmt);
    } catch (err) {
      const why = ((err as Error).cause ?? err) as Error; // the driver's words, not the store error made of them
      for (const c of checks) if (!c.ok) c.detail += `; the rebuild failed (${why.message})`;
      if (problems.length > 0) checks[0].detail += `: ${UNREPAIRABLE}`;
      return checks;
    }
    for (const c of checks) if (!c.ok && REPAIRABLE.has(c.name)) c.repaired = true;
    if (problems.length > 0) {
      const after = integrityProblems(db);
      if (after.length === 0) checks[0].repaired = true;
      else checks[0].detail = `${integrityCheck(after).detail}; ${UNREPAIRABLE}`;
    }
  } else if (problems.length > 0 && !rebuildable) {
    checks[0].detail += `; ${UNREPAIRABLE}`;
  }
  return checks;
}

/** The checks of what is derived from the tables, each run on its own so that one failing to read stops none. */
function derivedChecks(stmt: Prepare, dimensions: number | null, repair: boolean): DoctorCheck[] {
  const checks: DoctorCheck[] = [];
  checks.push(guarded("foreign keys", () => {
    const fk = stmt("PRAGMA foreign_key_check").all();
    return { name: "foreign keys", ok: fk.length === 0, detail: `${fk.length} rows point at nothing` };
  }));

  let chunkIds: Set<number> | undefined;
  const chunks = () => (chunkIds ??= ids(stmt, "SELECT id FROM chunks"));
  checks.push(guarded(BODY, () => {
    const ftsIds = ids(stmt, "SELECT rowid FROM chunks_fts");
    const missing = difference(chunks(), ftsIds);
    const extra = difference(ftsIds, chunks());
    return { name: BODY, ok: missing + extra === 0, detail: `${chunks().size} chunks; ${missing} missing from the index, ${extra} indexed but gone` };
  }));

  checks.push(guarded(CURATED, () => {
    const curatedIds = ids(stmt, "SELECT rowid FROM memories WHERE title IS NOT NULL OR description IS NOT NULL OR tags <> '[]'");
    const curatedFts = ids(stmt, "SELECT rowid FROM curated_fts");
    const cMissing = difference(curatedIds, curatedFts);
    const cExtra = difference(curatedFts, curatedIds);
    return { name: CURATED, ok: cMissing + cExtra === 0, detail: `${curatedIds.size} memories; ${cMissing} missing, ${cExtra} extra` };
  }));

  checks.push(guarded(VOCABULARY, () => {
    const df = new Map<string, number>();
    for (const terms of stmt("SELECT terms FROM chunks").pluck().iterate() as Iterable<string>) countTerms(df, terms);
    let wrongDf = 0;
    const known = new Set<string>();
    for (const [term, n] of stmt("SELECT term, df FROM terms").raw().iterate() as Iterable<[string, number]>) {
      known.add(term);
      if ((df.get(term) ?? 0) !== n) wrongDf++;
    }
    const unknown = [...df.keys()].filter((t) => !known.has(t)).length;
    return { name: VOCABULARY, ok: wrongDf + unknown === 0, detail: `${df.size} words in use; ${wrongDf} with a wrong count, ${unknown} missing` };
  }));

  checks.push(guarded(CHUNK_COUNT, () => {
    const counted = Number((stmt("SELECT value FROM meta WHERE key = 'chunk_count'").pluck().get() as string | undefined) ?? 0);
    return { name: CHUNK_COUNT, ok: counted === chunks().size, detail: `stored ${counted}, actual ${chunks().size}` };
  }));

  checks.push(guarded("vector sizes", () => {
    // a damaged page can leave a NULL or a text where the blob was: length() of NULL is NULL, which <> never counted
    const badVectors = dimensions === null ? 0 : (stmt("SELECT count(*) FROM chunks WHERE vector IS NULL OR typeof(vector) <> 'blob' OR length(vector) <> ?").pluck().get(dimensions * 4) as number);
    return { name: "vector sizes", ok: badVectors === 0, detail: dimensions === null ? "no embedder recorded yet" : `${badVectors} vectors are not ${dimensions}-d (not repairable here: re-add those memories)` };
  }));

  checks.push(guarded(SUMMARIES, () => {
    const orphanSummaries = stmt("SELECT count(*) FROM memories m WHERE m.kind = 'summary' AND NOT EXISTS (SELECT 1 FROM summary_nodes n WHERE n.memory_rowid = m.rowid)").pluck().get() as number;
    return { name: SUMMARIES, ok: orphanSummaries === 0, detail: `${orphanSummaries} summaries without a node (repair marks their windows dirty for the next pyramid build)` };
  }));

  checks.push(guarded("entity mention counts", () => checkEntityCounts(stmt, repair)));
  return checks;
}

const BODY = "body index (bm25, late interaction)";
const CURATED = "curated index (titles, descriptions, tags)";
const VOCABULARY = "vocabulary counts";
const CHUNK_COUNT = "chunk count";
const SUMMARIES = "summary nodes";
/** What a repair rebuilds from the tables. */
const REPAIRABLE = new Set([BODY, CURATED, VOCABULARY, CHUNK_COUNT, SUMMARIES]);

/**
 * Rebuilds every derived structure from the tables, whichever check failed: simple, and a rebuild cannot leave
 * one index agreeing with a table another repair has just changed. Then REINDEX: SQLite's own indexes, rebuilt
 * from their tables, in the same transaction.
 */
function rebuildDerived(db: Connection, stmt: Prepare): void {
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
    db.exec("REINDEX");
  })();
}
