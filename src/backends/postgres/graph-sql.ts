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
  e.retracted_at_ms, e.provenance, e.confidence, e.reason, e.statement
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
    `INSERT INTO edges (namespace, id, type, from_rowid, to_rowid, valid_from_ms, valid_to_ms, recorded_at_ms, provenance, confidence, reason, statement)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)`,
    [ns, id, draft.type, from, to, draft.validFrom, draft.validTo, draft.recordedAt, draft.provenance, draft.confidence, draft.reason, draft.statement ?? null],
  );
  return { ...draft, statement: draft.statement ?? null, id, retractedAt: null };
}

/**
 * Inserts a batch of edges (inside a transaction) in a handful of statements, where inserting them one at a time
 * took six statements an edge: 100,000 edges at 1,000,000 chunks were still being written after 13 minutes. When
 * any of them would be refused (an unknown memory, a self-edge, a supersedes cycle with the stored edges or within
 * the batch, a supersession already stored or listed twice), the batch goes one edge at a time instead, which
 * refuses the first such edge with its own message, as before.
 */
export async function insertEdges(q: Queryable, ns: string, drafts: EdgeDraft[]): Promise<Edge[]> {
  const oneByOne = async () => {
    const out: Edge[] = [];
    for (const d of drafts) out.push(await insertEdge(q, ns, d));
    return out;
  };
  if (drafts.length < 2) return oneByOne();
  const rows = await q.query<{ id: string; rowid: number }>("SELECT id, rowid FROM memories WHERE namespace = $1 AND id = ANY($2::text[])", [
    ns,
    [...new Set(drafts.flatMap((d) => [d.from, d.to]))],
  ]);
  const rowidOfId = new Map(rows.map((r) => [r.id, Number(r.rowid)]));
  const pairs = drafts.map((d) => [rowidOfId.get(d.from), rowidOfId.get(d.to)] as const);
  if (pairs.some(([f, t]) => f === undefined || t === undefined || f === t)) return oneByOne();
  const supersedes = pairs.filter((_, i) => drafts[i].type === "supersedes") as (readonly [number, number])[];
  if (new Set(supersedes.map(([f, t]) => `${f}>${t}`)).size < supersedes.length) return oneByOne();
  if (supersedes.length > 0 && (await refusedSupersessions(q, ns, supersedes))) return oneByOne();
  await markDirty(q, ns, [...new Set(pairs.flatMap(([f, t]) => [f!, t!]))]);
  const ids = drafts.map(() => `e_${ulid()}`);
  await q.query(
    `INSERT INTO edges (namespace, id, type, from_rowid, to_rowid, valid_from_ms, valid_to_ms, recorded_at_ms, provenance, confidence, reason, statement)
     SELECT $1, id, type, f, t, vf, vt, ra, pr, c, re, st
     FROM unnest($2::text[], $3::text[], $4::bigint[], $5::bigint[], $6::bigint[], $7::bigint[], $8::bigint[], $9::text[], $10::float8[], $11::text[], $12::text[])
       WITH ORDINALITY AS x (id, type, f, t, vf, vt, ra, pr, c, re, st, i)
     ORDER BY i`,
    [
      ns, ids, drafts.map((d) => d.type), pairs.map((p) => p[0]), pairs.map((p) => p[1]), drafts.map((d) => d.validFrom), drafts.map((d) => d.validTo),
      drafts.map((d) => d.recordedAt), drafts.map((d) => d.provenance), drafts.map((d) => d.confidence), drafts.map((d) => d.reason),
      drafts.map((d) => d.statement ?? null),
    ],
  );
  return drafts.map((d, i) => ({ ...d, statement: d.statement ?? null, id: ids[i], retractedAt: null }));
}

/**
 * Whether new supersedes edges (from → to, by row id) repeat a stored one or close a cycle. The stored edges
 * are walked once from every memory the new ones touch, giving which of those memories reach which; a cycle must
 * use a new edge (the stored ones have none), so it is a cycle of the new edges and those reaches.
 */
async function refusedSupersessions(q: Queryable, ns: string, edges: (readonly [number, number])[]): Promise<boolean> {
  const repeated = await q.query(
    `SELECT 1 FROM unnest($2::bigint[], $3::bigint[]) AS n (f, t)
       JOIN edges e ON e.namespace = $1 AND e.from_rowid = n.f AND e.type = 'supersedes' AND e.to_rowid = n.t AND e.retracted_at_ms IS NULL
     LIMIT 1`,
    [ns, edges.map((e) => e[0]), edges.map((e) => e[1])],
  );
  if (repeated.length) return true;
  const touched = [...new Set(edges.flat())];
  const reaches = await q.query<{ origin: number; r: number }>(
    `WITH RECURSIVE walk (origin, r) AS (
       SELECT s, s FROM unnest($2::bigint[]) AS s
       UNION
       SELECT w.origin, e.to_rowid FROM walk w JOIN edges e ON e.namespace = $1 AND e.from_rowid = w.r
       WHERE e.type = 'supersedes' AND e.retracted_at_ms IS NULL)
     SELECT origin, r FROM walk WHERE r <> origin AND r = ANY($2::bigint[])`,
    [ns, touched],
  );
  const next = new Map<number, number[]>();
  const link = (f: number, t: number) => (next.get(f) ?? next.set(f, []).get(f)!).push(t);
  for (const [f, t] of edges) link(f, t);
  for (const x of reaches) link(Number(x.origin), Number(x.r));
  return hasCycle(next);
}

/** Whether a directed graph (node → the nodes it points at) has a cycle: depth first, without recursion. */
function hasCycle(next: Map<number, number[]>): boolean {
  const state = new Map<number, "open" | "done">();
  for (const start of next.keys()) {
    if (state.has(start)) continue;
    const stack: [number, number][] = [[start, 0]];
    state.set(start, "open");
    while (stack.length) {
      const top = stack[stack.length - 1];
      const out = next.get(top[0]) ?? [];
      if (top[1] === out.length) {
        state.set(top[0], "done");
        stack.pop();
        continue;
      }
      const n = out[top[1]++];
      if (state.get(n) === "open") return true;
      if (!state.has(n)) {
        state.set(n, "open");
        stack.push([n, 0]);
      }
    }
  }
  return false;
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
