/**
 * @module backends/postgres/graph-sql
 * Edges and suggestions for the PostgreSQL store, with the semantics of backends/sqlite/graph-sql.ts. The
 * supersedes-cycle check runs inside the writing transaction, after the store's per-namespace write lock was
 * taken (store.ts), so no concurrent write can slip the other half of a cycle past it.
 */
import { ulid } from "ulid";
import { CascadeError, invalidInput, notFound } from "../../errors.js";
import type { Edge, EdgeDraft, EdgeType, Suggestion } from "../../model/graph.js";
import { toEdge, toSuggestion, type EdgeRow, type SuggestionRow } from "../rows.js";
import type { Queryable } from "./connection.js";
import { markDirty } from "./pyramid-sql.js";

/** Edges by memory id; `rowid` is the insertion order a whole-store copy pages by (copy-sql.ts). */
export const EDGE_SELECT = `SELECT e.rowid, e.id, e.type, f.id AS from_id, t.id AS to_id, e.valid_from_ms, e.valid_to_ms, e.recorded_at_ms,
  e.retracted_at_ms, e.provenance, e.confidence, e.reason
  FROM edges e JOIN memories f ON f.namespace = e.namespace AND f.rowid = e.from_rowid
  JOIN memories t ON t.namespace = e.namespace AND t.rowid = e.to_rowid`;

async function rowidOf(q: Queryable, ns: string, id: string, field: string): Promise<number> {
  const [row] = await q.query<{ rowid: number }>("SELECT rowid FROM memories WHERE namespace = $1 AND id = $2", [ns, id]);
  if (!row) throw new CascadeError("NOT_FOUND", `${field}: no memory with id ${JSON.stringify(id)}`, { field });
  return row.rowid;
}

/** Inserts one edge; must run inside a transaction. */
export async function insertEdge(q: Queryable, ns: string, draft: EdgeDraft): Promise<Edge> {
  const from = await rowidOf(q, ns, draft.from, "from");
  const to = await rowidOf(q, ns, draft.to, "to");
  if (from === to) throw invalidInput("to", "a memory cannot relate to itself");
  if (draft.type === "supersedes") {
    // Refuse when `to` already supersedes `from`, directly or through a chain: the new edge would close a cycle.
    const cycle = await q.query(
      `WITH RECURSIVE older (r) AS (
         SELECT $2::bigint UNION
         SELECT e.to_rowid FROM edges e JOIN older ON e.from_rowid = older.r
         WHERE e.namespace = $1 AND e.type = 'supersedes' AND e.retracted_at_ms IS NULL)
       SELECT 1 FROM older WHERE r = $3 LIMIT 1`,
      [ns, to, from],
    );
    if (cycle.length) throw invalidInput("supersedes", `${draft.to} already supersedes ${draft.from} (directly or through a chain): that would be a cycle`);
    const same = await q.query(
      "SELECT 1 FROM edges WHERE namespace = $1 AND type = 'supersedes' AND from_rowid = $2 AND to_rowid = $3 AND retracted_at_ms IS NULL",
      [ns, from, to],
    );
    if (same.length) throw invalidInput("supersedes", `${draft.from} already supersedes ${draft.to}`);
  }
  await markDirty(q, ns, [from, to]);
  const id = `e_${ulid()}`;
  await q.query(
    `INSERT INTO edges (namespace, id, type, from_rowid, to_rowid, valid_from_ms, valid_to_ms, recorded_at_ms, provenance, confidence, reason)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)`,
    [ns, id, draft.type, from, to, draft.validFrom, draft.validTo, draft.recordedAt, draft.provenance, draft.confidence, draft.reason],
  );
  return { ...draft, id, retractedAt: null };
}

async function getEdge(q: Queryable, ns: string, id: string): Promise<Edge> {
  const [row] = await q.query<EdgeRow>(`${EDGE_SELECT} WHERE e.namespace = $1 AND e.id = $2`, [ns, id]);
  if (!row) throw notFound("edge", id);
  return toEdge(row);
}

export async function retractEdge(q: Queryable, ns: string, id: string, at: number): Promise<Edge> {
  const edge = await getEdge(q, ns, id);
  if (edge.retractedAt !== null) throw invalidInput("id", `edge ${id} was already retracted`);
  await q.query("UPDATE edges SET retracted_at_ms = $3 WHERE namespace = $1 AND id = $2", [ns, id, at]);
  await markDirty(q, ns, [await rowidOf(q, ns, edge.from, "from"), await rowidOf(q, ns, edge.to, "to")]);
  return { ...edge, retractedAt: at };
}

export async function edgesTouching(q: Queryable, ns: string, memoryIds: string[], type?: EdgeType): Promise<Edge[]> {
  const rows = await q.query<EdgeRow>(
    // two index lookups (out of, into) rather than one OR that would scan every edge
    `${EDGE_SELECT} WHERE e.namespace = $1 AND e.rowid IN (
       SELECT x.rowid FROM memories m JOIN edges x ON x.namespace = m.namespace AND x.from_rowid = m.rowid WHERE m.namespace = $1 AND m.id = ANY($2::text[])
       UNION
       SELECT x.rowid FROM memories m JOIN edges x ON x.namespace = m.namespace AND x.to_rowid = m.rowid WHERE m.namespace = $1 AND m.id = ANY($2::text[]))
     AND ($3::text IS NULL OR e.type = $3) ORDER BY e.valid_from_ms, e.recorded_at_ms, e.id`,
    [ns, memoryIds, type ?? null],
  );
  return rows.map(toEdge);
}

/** Suggestions by memory id, with the insertion order and decision time a whole-store copy keeps (copy-sql.ts). */
export const SUGGESTION_SELECT = `SELECT s.rowid, s.decided_at_ms, s.id, f.id AS from_id, t.id AS to_id, s.confidence, s.reason, s.created_at_ms, s.status
  FROM suggestions s JOIN memories f ON f.namespace = s.namespace AND f.rowid = s.from_rowid
  JOIN memories t ON t.namespace = s.namespace AND t.rowid = s.to_rowid`;

/** Records a suggestion; a pair already suggested keeps its first record (and a pair naming an unknown memory is skipped, as SQLite's INSERT OR IGNORE does). */
export async function insertSuggestion(q: Queryable, ns: string, s: Omit<Suggestion, "id" | "status">): Promise<void> {
  await q.query(
    `INSERT INTO suggestions (namespace, id, from_rowid, to_rowid, confidence, reason, created_at_ms)
     SELECT $1, $2, f.rowid, t.rowid, $5, $6, $7 FROM memories f, memories t
     WHERE f.namespace = $1 AND f.id = $3 AND t.namespace = $1 AND t.id = $4
     ON CONFLICT DO NOTHING`,
    [ns, `s_${ulid()}`, s.from, s.to, s.confidence, s.reason, s.createdAt],
  );
}

export async function listSuggestions(q: Queryable, ns: string, status?: Suggestion["status"]): Promise<Suggestion[]> {
  const rows = await q.query<SuggestionRow>(`${SUGGESTION_SELECT} WHERE s.namespace = $1 AND ($2::text IS NULL OR s.status = $2) ORDER BY s.created_at_ms, s.id`, [
    ns,
    status ?? null,
  ]);
  return rows.map(toSuggestion);
}

export async function decideSuggestion(q: Queryable, ns: string, id: string, decision: "accepted" | "rejected", at: number): Promise<Suggestion> {
  const [row] = await q.query<SuggestionRow>(`${SUGGESTION_SELECT} WHERE s.namespace = $1 AND s.id = $2`, [ns, id]);
  if (!row) throw notFound("suggestion", id);
  if (row.status !== "open") throw invalidInput("id", `suggestion ${id} was already ${row.status}`);
  await q.query("UPDATE suggestions SET status = $3, decided_at_ms = $4 WHERE namespace = $1 AND id = $2", [ns, id, decision, at]);
  return { ...toSuggestion(row), status: decision };
}
