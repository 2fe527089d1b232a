/**
 * @module backends/postgres/pyramid-sql
 * The summary pyramid's tables for the PostgreSQL store (semantics of backends/sqlite/pyramid-sql.ts): dirty
 * calendar windows, which memories feed a window, and the nodes with their children. Summary memories go
 * through the ordinary memory write, so every index holds them. Windows are cut in JS (time/windows), the one
 * calendar both backends share, and written in one statement.
 */
import type { NodeLevel, PyramidNode } from "../../model/pyramid.js";
import type { NodeQuery } from "../../ports/store.js";
import { windowsOf, type WindowLevel } from "../../time/windows.js";
import type { Queryable } from "./connection.js";
import { Params } from "./params.js";

export async function pyramidZone(q: Queryable, ns: string): Promise<string> {
  const [row] = await q.query<{ value: string }>("SELECT value FROM meta WHERE namespace = $1 AND key = 'pyramid_zone'", [ns]);
  return row?.value ?? "UTC";
}

async function markWindows(q: Queryable, ns: string, times: number[]): Promise<void> {
  if (times.length === 0) return;
  const zone = await pyramidZone(q, ns);
  const windows = new Map<string, { level: WindowLevel; start: number }>();
  for (const at of times) for (const w of windowsOf(at, zone)) windows.set(`${w.level}:${w.start}`, w);
  await q.query(
    `INSERT INTO dirty_windows (namespace, level, start_ms) SELECT $1, l, s FROM unnest($2::text[], $3::bigint[]) AS w (l, s)
     ON CONFLICT DO NOTHING`,
    [ns, [...windows.values()].map((w) => w.level), [...windows.values()].map((w) => w.start)],
  );
}

/**
 * Marks the day, week and month windows of these memories dirty (inside the caller's transaction). Summary
 * memories are skipped: writing a node must not dirty the windows it was just computed for.
 */
export async function markDirty(q: Queryable, ns: string, memoryRowids: number[]): Promise<void> {
  const rows = await q.query<{ at_ms: number }>("SELECT at_ms FROM memories WHERE namespace = $1 AND rowid = ANY($2::bigint[]) AND kind <> 'summary'", [
    ns,
    memoryRowids,
  ]);
  await markWindows(q, ns, rows.map((r) => r.at_ms));
}

/** Every window of every raw memory, dirty: after a change of time zone the whole pyramid is recomputed. */
export async function markAllDirty(q: Queryable, ns: string): Promise<void> {
  const rows = await q.query<{ at_ms: number }>("SELECT DISTINCT at_ms FROM memories WHERE namespace = $1 AND kind <> 'summary'", [ns]);
  await markWindows(q, ns, rows.map((r) => r.at_ms));
}

export async function dirtyWindows(q: Queryable, ns: string): Promise<{ level: WindowLevel; start: number }[]> {
  return q.query<{ level: WindowLevel; start: number }>(
    `SELECT level, start_ms AS start FROM dirty_windows WHERE namespace = $1
     ORDER BY CASE level WHEN 'day' THEN 0 WHEN 'week' THEN 1 ELSE 2 END, start_ms`,
    [ns],
  );
}

export async function clearDirtyWindows(q: Queryable, ns: string, windows: { level: WindowLevel; start: number }[]): Promise<void> {
  if (windows.length === 0) return;
  await q.query(
    `DELETE FROM dirty_windows d USING unnest($2::text[], $3::bigint[]) AS w (l, s)
     WHERE d.namespace = $1 AND d.level = w.l AND d.start_ms = w.s`,
    [ns, windows.map((w) => w.level), windows.map((w) => w.start)],
  );
}

/** Row ids of the memories that feed a window: turns for a day, day nodes for a week, overlapping weeks for a month. */
export async function windowInputRowids(q: Queryable, ns: string, level: WindowLevel, start: number, end: number): Promise<number[]> {
  if (level === "day") {
    const rows = await q.query<{ rowid: number }>(
      "SELECT rowid FROM memories WHERE namespace = $1 AND at_ms >= $2 AND at_ms < $3 AND kind <> 'summary' ORDER BY at_ms, rowid",
      [ns, start, end],
    );
    return rows.map((r) => r.rowid);
  }
  const below = level === "week" ? "day" : "week";
  const rows = await q.query<{ rowid: number }>(
    "SELECT memory_rowid AS rowid FROM summary_nodes WHERE namespace = $1 AND level = $2 AND start_ms < $3 AND end_ms > $4 ORDER BY start_ms",
    [ns, below, end, start],
  );
  return rows.map((r) => r.rowid);
}

/** The turn-level summaries of a memory (a turn node's one child is its memory): they go with it. */
export async function turnNodesOf(q: Queryable, ns: string, memoryRowid: number): Promise<number[]> {
  const rows = await q.query<{ rowid: number }>(
    `SELECT c.parent_rowid AS rowid FROM summary_children c JOIN summary_nodes n ON n.namespace = c.namespace AND n.memory_rowid = c.parent_rowid
     WHERE c.namespace = $1 AND c.child_rowid = $2 AND n.level = 'turn'`,
    [ns, memoryRowid],
  );
  return rows.map((r) => r.rowid);
}

/**
 * The rows of these memories when every one still exists (else null), locked (FOR SHARE) until the transaction
 * ends: a concurrent forget of one of them waits for the summary's commit, then marks its windows dirty again.
 */
export async function lockAll(q: Queryable, ns: string, ids: string[]): Promise<Map<string, number> | null> {
  const wanted = [...new Set(ids)];
  if (wanted.length === 0) return new Map();
  const found = await q.query<{ id: string; rowid: number }>("SELECT id, rowid FROM memories WHERE namespace = $1 AND id = ANY($2::text[]) FOR SHARE", [ns, wanted]);
  return found.length === wanted.length ? new Map(found.map((r) => [r.id, r.rowid])) : null;
}

/** The row of the summary node with this memory id (a window has a node per scope, and turn nodes may share an instant). */
export async function nodeRowidById(q: Queryable, ns: string, id: string): Promise<number | undefined> {
  const [row] = await q.query<{ rowid: number }>(
    "SELECT n.memory_rowid AS rowid FROM summary_nodes n JOIN memories m ON m.namespace = n.namespace AND m.rowid = n.memory_rowid WHERE n.namespace = $1 AND m.id = $2",
    [ns, id],
  );
  return row?.rowid;
}

/** Raw memories with more than one chunk and no turn node: the turn level's backlog in a store from before it. */
export async function memoriesWithoutTurnNode(q: Queryable, ns: string): Promise<string[]> {
  const rows = await q.query<{ id: string }>(
    `SELECT m.id FROM memories m
     WHERE m.namespace = $1 AND m.kind <> 'summary'
       AND (SELECT count(*) FROM chunks c WHERE c.namespace = $1 AND c.memory_rowid = m.rowid) > 1
       AND NOT EXISTS (SELECT 1 FROM summary_children sc JOIN summary_nodes n ON n.namespace = sc.namespace AND n.memory_rowid = sc.parent_rowid
                       WHERE sc.namespace = $1 AND sc.child_rowid = m.rowid AND n.level = 'turn')
     ORDER BY m.at_ms, m.rowid`,
    [ns],
  );
  return rows.map((r) => r.id);
}

export async function insertNode(q: Queryable, ns: string, rowid: number, level: NodeLevel, start: number, end: number, childRowids: number[]): Promise<void> {
  await q.query("INSERT INTO summary_nodes (namespace, memory_rowid, level, start_ms, end_ms) VALUES ($1, $2, $3, $4, $5)", [ns, rowid, level, start, end]);
  if (childRowids.length === 0) return;
  await q.query("INSERT INTO summary_children (namespace, parent_rowid, child_rowid) SELECT $1, $2, c FROM unnest($3::bigint[]) AS c", [ns, rowid, childRowids]);
}

export async function listNodes(q: Queryable, ns: string, query: NodeQuery): Promise<PyramidNode[]> {
  // only the conditions asked for: statements are prepared (connection.ts), and a generic plan of one catch-all
  // text ("$5 IS NULL OR m.id = ANY($5)") read every node of the namespace, 42 ms a search at 100,000 chunks
  const p = new Params(ns);
  const conditions = ["n.namespace = $1"];
  if (query.level !== undefined) conditions.push(`n.level = ${p.add(query.level)}`);
  if (query.to !== undefined) conditions.push(`n.start_ms < ${p.add(query.to)}`);
  if (query.from !== undefined) conditions.push(`n.end_ms > ${p.add(query.from)}`);
  if (query.ids !== undefined) conditions.push(`m.id = ANY(${p.add(query.ids)}::text[])`);
  if (query.containing !== undefined) {
    conditions.push(`EXISTS (SELECT 1 FROM unnest(${p.add(query.containing)}::float8[]) AS t (v) WHERE n.start_ms <= t.v AND n.end_ms > t.v AND n.level <> 'turn')`);
  }
  if (query.scope !== undefined) {
    const { user, agent } = query.scope;
    const same = (column: string, v: string | null) => (v === null ? `${column} IS NULL` : `${column} = ${p.add(v)}`);
    conditions.push(`(n.level = 'turn' OR (${same("m.user_id", user)} AND ${same("m.agent_id", agent)}))`);
  }
  return q.query<PyramidNode>(
    `SELECT m.id, n.level, n.start_ms AS start, n.end_ms AS "end", m.text, m.user_id AS "user", m.agent_id AS agent,
            (SELECT count(*) FROM summary_children c WHERE c.namespace = $1 AND c.parent_rowid = n.memory_rowid)::int AS children
     FROM summary_nodes n JOIN memories m ON m.namespace = n.namespace AND m.rowid = n.memory_rowid
     WHERE ${conditions.join(" AND ")}
     ORDER BY CASE n.level WHEN 'turn' THEN 0 WHEN 'day' THEN 1 WHEN 'week' THEN 2 ELSE 3 END, n.start_ms`,
    p.values,
  );
}

export async function childIds(q: Queryable, ns: string, parentId: string): Promise<string[]> {
  const rows = await q.query<{ id: string }>(
    `SELECT m.id FROM summary_children c
       JOIN memories p ON p.namespace = c.namespace AND p.rowid = c.parent_rowid
       JOIN memories m ON m.namespace = c.namespace AND m.rowid = c.child_rowid
     WHERE c.namespace = $1 AND p.id = $2 ORDER BY m.at_ms, m.rowid`,
    [ns, parentId],
  );
  return rows.map((r) => r.id);
}
