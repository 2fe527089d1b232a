/**
 * @module backends/sqlite/list-sql
 * Memories in event-time order, one page at a time, for browsing (the inspector's timeline, `cascade list`).
 * Pages are cut by keyset (the last row's time and id), not OFFSET, so a page deep into 100,000 memories costs
 * as much as the first, and a memory added meanwhile never shifts what the next page holds. Values only travel
 * as bound parameters.
 */
import type { ListPosition, ListQuery } from "../../ports/store.js";
import { filterCondition } from "./filter-sql.js";

type Prepare = (sql: string) => { all(...params: unknown[]): unknown[] };

/** Ids of one page of memories (limit + 1 rows, so the caller knows whether another page follows). */
export function listMemoryIds(prepare: Prepare, query: ListQuery): { id: string; at: number }[] {
  const cond = filterCondition(query.filter);
  const parts = [cond.sql];
  const params: Record<string, unknown> = { ...cond.params, limit: query.limit + 1 };
  if (query.speakers && query.speakers.length > 0) {
    parts.push(`m.speaker IN (${query.speakers.map((_, i) => `@speaker${i}`).join(", ")})`);
    query.speakers.forEach((s, i) => (params[`speaker${i}`] = s));
  }
  const desc = query.order === "desc";
  if (query.after) {
    const cmp = desc ? "<" : ">";
    parts.push(`(m.at_ms ${cmp} @afterAt OR (m.at_ms = @afterAt AND m.id ${cmp} @afterId))`);
    params.afterAt = query.after.at;
    params.afterId = query.after.id;
  }
  const dir = desc ? "DESC" : "ASC";
  const sql = `SELECT m.id AS id, m.at_ms AS at FROM memories m WHERE ${parts.join(" AND ")} ORDER BY m.at_ms ${dir}, m.id ${dir} LIMIT @limit`;
  return prepare(sql).all(params) as ListPosition[];
}
