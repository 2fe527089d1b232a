/**
 * @module backends/postgres/topics-sql
 * The taxonomy on ltree (semantics of backends/sqlite/topics-sql.ts): a subtree is `path <@ root` (the root
 * itself and everything below it, never "roots.x"), answered by the GiST indexes; re-pathing swaps the root
 * prefix with `to || subpath(path, nlevel(from))`. Paths are parameters cast to ltree, never SQL text.
 */
import { invalidInput } from "../../errors.js";
import type { Queryable } from "./connection.js";

export interface TopicRow {
  path: string;
  description: string | null;
}

/** `column` re-pathed from the subtree at $2 to the same place under $3. */
const REPATH = (column: string) => `(CASE WHEN ${column} = $2::ltree THEN $3::ltree ELSE $3::ltree || subpath(${column}, nlevel($2::ltree)) END)`;

export async function topicRows(q: Queryable, ns: string, under?: string): Promise<TopicRow[]> {
  return q.query<TopicRow>(
    // two texts rather than "$2 IS NULL OR …": a prepared statement's generic plan of that could not use the index
    `SELECT path::text AS path, description FROM topics WHERE namespace = $1 ${under === undefined ? "" : "AND path <@ $2::ltree"} ORDER BY path::text COLLATE "C"`,
    under === undefined ? [ns] : [ns, under],
  );
}

export async function upsertTopic(q: Queryable, ns: string, path: string, description: string | null, at: number): Promise<void> {
  await q.query(
    `INSERT INTO topics (namespace, path, description, created_at_ms) VALUES ($1, $2::ltree, $3, $4)
     ON CONFLICT (namespace, path) DO UPDATE SET description = coalesce(excluded.description, topics.description)`,
    [ns, path, description, at],
  );
}

export async function memoriesUnder(q: Queryable, ns: string, root: string): Promise<number> {
  const [row] = await q.query<{ n: number }>("SELECT count(*)::int AS n FROM memories WHERE namespace = $1 AND topic <@ $2::ltree", [ns, root]);
  return row.n;
}

/**
 * Re-paths every memory and topic row at `from` or below it to the same place under `to` (inside the caller's
 * transaction). With `merge`, rows already at the target keep their description.
 */
export async function repath(q: Queryable, ns: string, from: string, to: string, merge: boolean): Promise<number> {
  if (to === from || to.startsWith(`${from}.`)) throw invalidInput("to", `cannot move ${from} into its own subtree (${to})`);
  const params = [ns, from, to];
  if (!merge) {
    const [row] = await q.query<{ n: number }>(
      "SELECT ((SELECT count(*) FROM memories WHERE namespace = $1 AND topic <@ $2::ltree) + (SELECT count(*) FROM topics WHERE namespace = $1 AND path <@ $2::ltree))::int AS n",
      [ns, to],
    );
    if (row.n > 0) throw invalidInput("to", `${to} already holds memories or topics; merge into it instead`);
  } else {
    // rows that would collide keep the target's description (or take the source's when the target has none)
    await q.query(
      `UPDATE topics AS t SET description = coalesce(t.description, s.description)
       FROM topics AS s WHERE s.namespace = $1 AND s.path <@ $2::ltree AND t.namespace = $1 AND t.path = ${REPATH("s.path")}`,
      params,
    );
    await q.query(
      `DELETE FROM topics AS s WHERE s.namespace = $1 AND s.path <@ $2::ltree
         AND EXISTS (SELECT 1 FROM topics t WHERE t.namespace = $1 AND t.path = ${REPATH("s.path")})`,
      params,
    );
  }
  await q.query(`UPDATE topics SET path = ${REPATH("path")} WHERE namespace = $1 AND path <@ $2::ltree`, params);
  const moved = await q.query(`UPDATE memories SET topic = ${REPATH("topic")} WHERE namespace = $1 AND topic <@ $2::ltree RETURNING rowid`, params);
  return moved.length;
}

export async function deleteTopicRows(q: Queryable, ns: string, root: string): Promise<number> {
  return (await q.query("DELETE FROM topics WHERE namespace = $1 AND path <@ $2::ltree RETURNING path", [ns, root])).length;
}

/** How many memories sit directly at each topic path (at `under` or below it, when given). */
export async function topicCounts(q: Queryable, ns: string, under?: string): Promise<{ path: string; count: number }[]> {
  return q.query<{ path: string; count: number }>(
    `SELECT topic::text AS path, count(*)::int AS count FROM memories
     WHERE namespace = $1 AND topic IS NOT NULL ${under === undefined ? "" : "AND topic <@ $2::ltree"}
     GROUP BY topic ORDER BY topic::text COLLATE "C"`,
    under === undefined ? [ns] : [ns, under],
  );
}
