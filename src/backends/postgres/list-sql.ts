/**
 * @module backends/postgres/list-sql
 * Memories in event-time order, a page at a time, cut by keyset (the last row's time and id) as in the SQLite
 * store, so a deep page costs what the first does and a memory added meanwhile never shifts the next page.
 * Ids compare byte-wise (the column is COLLATE "C"), as SQLite compares them.
 */
import type { ListQuery } from "../../ports/store.js";
import type { Queryable } from "./connection.js";
import { filterCondition } from "./filter-sql.js";
import { Params } from "./params.js";

/** Row ids of one page of memories (limit + 1 rows, so the caller knows whether another page follows). */
export async function listMemoryRowids(q: Queryable, ns: string, query: ListQuery): Promise<number[]> {
  const p = new Params(ns);
  const parts = [filterCondition(query.filter, p)];
  if (query.speakers && query.speakers.length > 0) parts.push(`m.speaker = ANY(${p.add(query.speakers)}::text[])`);
  const desc = query.order === "desc";
  if (query.after) {
    const cmp = desc ? "<" : ">";
    const at = p.add(query.after.at);
    parts.push(`(m.at_ms ${cmp} ${at} OR (m.at_ms = ${at} AND m.id ${cmp} ${p.add(query.after.id)}))`);
  }
  const dir = desc ? "DESC" : "ASC";
  const rows = await q.query<{ rowid: number }>(
    `SELECT m.rowid FROM memories m WHERE m.namespace = $1 AND ${parts.join(" AND ")} ORDER BY m.at_ms ${dir}, m.id ${dir} LIMIT ${p.add(query.limit + 1)}`,
    p.values,
  );
  return rows.map((r) => r.rowid);
}
