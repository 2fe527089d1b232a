/**
 * @module backends/sqlite/topics-sql
 * The taxonomy's SQL: topic rows, and re-pathing a subtree. A subtree is the path itself plus the index range
 * ["path.", "path/") — "/" is the character after "." — so "retrieval" never takes in "retrievals.x", and
 * neither reads nor re-pathing ever scans every memory.
 */
import type Database from "better-sqlite3";
import { CascadeError, invalidInput } from "../../errors.js";
import { fromBlob } from "../../vectors/math.js";
import { filterCondition } from "./filter-sql.js";

type Prepare = (sql: string) => Database.Statement;

export interface TopicRow {
  path: string;
  description: string | null;
}

const SUBTREE = (column: string) => `(${column} = @root OR (${column} >= @lo AND ${column} < @hi))`;
const range = (root: string) => ({ root, lo: `${root}.`, hi: `${root}/` });

export function topicRows(stmt: Prepare, under?: string): TopicRow[] {
  if (under === undefined) return stmt("SELECT path, description FROM topics ORDER BY path").all() as TopicRow[];
  return stmt(`SELECT path, description FROM topics WHERE ${SUBTREE("path")} ORDER BY path`).all(range(under)) as TopicRow[];
}

export function upsertTopic(stmt: Prepare, path: string, description: string | null, at: number): void {
  stmt(
    `INSERT INTO topics (path, description, created_at_ms) VALUES (?, ?, ?)
     ON CONFLICT (path) DO UPDATE SET description = coalesce(excluded.description, topics.description)`,
  ).run(path, description, at);
}

export function memoriesUnder(stmt: Prepare, root: string): number {
  return stmt(`SELECT count(*) FROM memories WHERE ${SUBTREE("topic")}`).pluck().get(range(root)) as number;
}

/**
 * Re-paths every memory and topic row at `from` or below it to the same place under `to` (inside the caller's
 * transaction). With `merge`, rows already at the target keep their description.
 */
export function repath(stmt: Prepare, from: string, to: string, merge: boolean): number {
  if (to === from || to.startsWith(`${from}.`)) throw invalidInput("to", `cannot move ${from} into its own subtree (${to})`);
  const params = { ...range(from), to, start: from.length + 1 };
  if (!merge) {
    const taken = memoriesUnder(stmt, to) + (stmt(`SELECT count(*) FROM topics WHERE ${SUBTREE("path")}`).pluck().get(range(to)) as number);
    if (taken > 0) throw invalidInput("to", `${to} already holds memories or topics; merge into it instead`);
  } else {
    // rows that would collide keep the target's description (or take the source's when the target has none)
    stmt(
      `UPDATE topics AS t SET description = coalesce(t.description, s.description)
       FROM topics AS s WHERE ${SUBTREE("s.path")} AND t.path = @to || substr(s.path, @start)`,
    ).run(params);
    stmt(`DELETE FROM topics WHERE ${SUBTREE("path")} AND (@to || substr(path, @start)) IN (SELECT path FROM topics)`).run(params);
  }
  stmt(`UPDATE topics SET path = @to || substr(path, @start) WHERE ${SUBTREE("path")}`).run(params);
  return stmt(`UPDATE memories SET topic = @to || substr(topic, @start) WHERE ${SUBTREE("topic")}`).run(params).changes;
}

export function deleteTopicRows(stmt: Prepare, root: string): number {
  return stmt(`DELETE FROM topics WHERE ${SUBTREE("path")}`).run(range(root)).changes;
}

/** The first-chunk vector of every memory with a topic, grouped by topic (for placement centroids). */
/**
 * First-chunk vectors of the memories people put in a topic. Automatic placements are left out: counted, they
 * pulled a topic's centroid towards what was placed there, so that a run of chat turns placed (wrongly) in
 * ops.config made the next chat turn fit it better (386 of 419 turns ended up there).
 */
export function topicMemberVectors(stmt: Prepare): Iterable<[string, Buffer]> {
  return stmt(
    `SELECT m.topic, c.vector FROM memories m JOIN chunks c ON c.memory_rowid = m.rowid AND c.ord = 0
     WHERE m.topic IS NOT NULL AND m.kind <> 'summary' AND json_extract(m.metadata, '$.placement') IS NULL`,
  ).raw().iterate() as Iterable<[string, Buffer]>;
}

/** Each topic's memory count and the sum of its members' vectors (the taxonomy's centroids are made from them). */
export function topicVectorSums(stmt: Prepare): Map<string, { count: number; sum: Float32Array }> {
  const out = new Map<string, { count: number; sum: Float32Array }>();
  for (const [topic, blob] of topicMemberVectors(stmt)) {
    const v = fromBlob(blob);
    let entry = out.get(topic);
    if (!entry) out.set(topic, (entry = { count: 0, sum: new Float32Array(v.length) }));
    entry.count++;
    for (let i = 0; i < v.length; i++) entry.sum[i] += v[i];
  }
  return out;
}

/** Memories a topic holds, for every topic (under `under` when given), in path order. */
export function topicCounts(stmt: Prepare, under?: string): { path: string; count: number }[] {
  const cond = filterCondition(under === undefined ? {} : { under });
  return stmt(`SELECT m.topic AS path, count(*) AS count FROM memories m WHERE m.topic IS NOT NULL AND ${cond.sql} GROUP BY m.topic ORDER BY m.topic`).all(
    cond.params,
  ) as { path: string; count: number }[];
}

/** A topic's rows deleted, refused while memories still hold it; the rows deleted. */
export function deleteTopic(stmt: Prepare, path: string): number {
  const held = memoriesUnder(stmt, path);
  if (held > 0) throw new CascadeError("INVALID_INPUT", `topic: ${path} still holds ${held} memories (move, merge or forget them first)`, { field: "topic" });
  return deleteTopicRows(stmt, path);
}
