/**
 * @module backends/sqlite/graph-sql
 * The graph's tables (edges, suggestions) for the SQLite store: rows in and out, and the cycle check, which
 * runs inside the writing transaction so that no concurrent write can slip a cycle past it.
 */
import type Database from "better-sqlite3";
import { ulid } from "ulid";
import { CascadeError, invalidInput, notFound } from "../../errors.js";
import type { Edge, EdgeDraft, EdgeType, Suggestion } from "../../model/graph.js";
import { toEdge, toSuggestion, type EdgeRow, type SuggestionRow } from "../rows.js";
import { markDirty } from "./pyramid-sql.js";

type Prepare = (sql: string) => Database.Statement;

/** Edges by memory id; `rowid` is the insertion order a whole-store copy pages by (copy-sql.ts). */
export const EDGE_SELECT = `SELECT e.rowid, e.id, e.type, f.id AS from_id, t.id AS to_id, e.valid_from_ms, e.valid_to_ms, e.recorded_at_ms,
  e.retracted_at_ms, e.provenance, e.confidence, e.reason, e.statement
  FROM edges e JOIN memories f ON f.rowid = e.from_rowid JOIN memories t ON t.rowid = e.to_rowid`;

function rowidOf(stmt: Prepare, id: string, field: string): number {
  const row = stmt("SELECT rowid FROM memories WHERE id = ?").pluck().get(id) as number | undefined;
  if (row === undefined) throw new CascadeError("NOT_FOUND", `${field}: no memory with id ${JSON.stringify(id)}`, { field });
  return row;
}

/** Inserts one edge; must run inside a transaction. */
export function insertEdge(stmt: Prepare, draft: EdgeDraft): Edge {
  const from = rowidOf(stmt, draft.from, "from");
  const to = rowidOf(stmt, draft.to, "to");
  if (from === to) throw invalidInput("to", "a memory cannot relate to itself");
  if (draft.type === "supersedes") {
    // Refuse when `to` already supersedes `from`, directly or through a chain: the new edge would close a cycle.
    const cycle = stmt(
      `WITH RECURSIVE older (r) AS (
         SELECT @to UNION
         SELECT e.to_rowid FROM edges e JOIN older ON e.from_rowid = older.r
         WHERE e.type = 'supersedes' AND e.retracted_at_ms IS NULL)
       SELECT 1 FROM older WHERE r = @from LIMIT 1`,
    ).get({ from, to });
    if (cycle) throw invalidInput("supersedes", `${draft.to} already supersedes ${draft.from} (directly or through a chain): that would be a cycle`);
    const same = stmt(
      "SELECT 1 FROM edges WHERE type = 'supersedes' AND from_rowid = ? AND to_rowid = ? AND retracted_at_ms IS NULL",
    ).get(from, to);
    if (same) throw invalidInput("supersedes", `${draft.from} already supersedes ${draft.to}`);
  }
  markDirty(stmt, [from, to]);
  const id = `e_${ulid()}`;
  stmt(
    `INSERT INTO edges (id, type, from_rowid, to_rowid, valid_from_ms, valid_to_ms, recorded_at_ms, provenance, confidence, reason, statement)
     VALUES (@id, @type, @from, @to, @validFrom, @validTo, @recordedAt, @provenance, @confidence, @reason, @statement)`,
  ).run({ ...draft, statement: draft.statement ?? null, id, from, to });
  return { ...draft, statement: draft.statement ?? null, id, retractedAt: null };
}

export function getEdge(stmt: Prepare, id: string): Edge {
  const row = stmt(`${EDGE_SELECT} WHERE e.id = ?`).get(id) as EdgeRow | undefined;
  if (!row) throw notFound("edge", id);
  return toEdge(row);
}

export function retractEdge(stmt: Prepare, id: string, at: number): Edge {
  const edge = getEdge(stmt, id);
  if (edge.retractedAt !== null) throw invalidInput("id", `edge ${id} was already retracted`);
  stmt("UPDATE edges SET retracted_at_ms = ? WHERE id = ?").run(at, id);
  markDirty(stmt, [rowidOf(stmt, edge.from, "from"), rowidOf(stmt, edge.to, "to")]);
  return { ...edge, retractedAt: at };
}

export function edgesTouching(stmt: Prepare, memoryIds: string[], type?: EdgeType): Edge[] {
  const rows = stmt(
    // two index lookups (out of, into) rather than one OR that would scan every edge
    `${EDGE_SELECT} WHERE e.rowid IN (
       SELECT x.rowid FROM memories m JOIN edges x ON x.from_rowid = m.rowid WHERE m.id IN (SELECT value FROM json_each(@ids))
       UNION
       SELECT x.rowid FROM memories m JOIN edges x ON x.to_rowid = m.rowid WHERE m.id IN (SELECT value FROM json_each(@ids)))
     AND (@type IS NULL OR e.type = @type) ORDER BY e.valid_from_ms, e.recorded_at_ms, e.id`,
  ).all({ ids: JSON.stringify(memoryIds), type: type ?? null }) as EdgeRow[];
  return rows.map(toEdge);
}

/** Suggestions by memory id, with the insertion order and decision time a whole-store copy keeps (copy-sql.ts). */
export const SUGGESTION_SELECT = `SELECT s.rowid, s.decided_at_ms, s.id, f.id AS from_id, t.id AS to_id, s.confidence, s.reason, s.created_at_ms, s.status
  FROM suggestions s JOIN memories f ON f.rowid = s.from_rowid JOIN memories t ON t.rowid = s.to_rowid`;

export function insertSuggestion(stmt: Prepare, s: Omit<Suggestion, "id" | "status">): void {
  stmt(
    `INSERT OR IGNORE INTO suggestions (id, from_rowid, to_rowid, confidence, reason, created_at_ms)
     VALUES (?, (SELECT rowid FROM memories WHERE id = ?), (SELECT rowid FROM memories WHERE id = ?), ?, ?, ?)`,
  ).run(`s_${ulid()}`, s.from, s.to, s.confidence, s.reason, s.createdAt);
}

export function listSuggestions(stmt: Prepare, status?: Suggestion["status"]): Suggestion[] {
  return (stmt(`${SUGGESTION_SELECT} WHERE (@status IS NULL OR s.status = @status) ORDER BY s.created_at_ms, s.id`).all({
    status: status ?? null,
  }) as SuggestionRow[]).map(toSuggestion);
}

export function decideSuggestion(stmt: Prepare, id: string, decision: "accepted" | "rejected", at: number): Suggestion {
  const row = stmt(`${SUGGESTION_SELECT} WHERE s.id = ?`).get(id) as SuggestionRow | undefined;
  if (!row) throw notFound("suggestion", id);
  if (row.status !== "open") throw invalidInput("id", `suggestion ${id} was already ${row.status}`);
  stmt("UPDATE suggestions SET status = ?, decided_at_ms = ? WHERE id = ?").run(decision, at, id);
  return { ...toSuggestion(row), status: decision };
}

/** A suggestion decided and, when accepted with one, its edge written: one transaction's body (store.ts). */
export function decideSuggestionWithEdge(stmt: Prepare, id: string, decision: "accepted" | "rejected", at: number, edge?: EdgeDraft): Suggestion {
  const s = decideSuggestion(stmt, id, decision, at);
  if (edge) insertEdge(stmt, edge);
  return s;
}
