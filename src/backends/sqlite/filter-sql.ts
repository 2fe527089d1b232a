/**
 * @module backends/sqlite/filter-sql
 * Turns a SearchFilter into a SQL condition on the `memories` alias `m` with bound parameters.
 * Values only ever travel as parameters; no user string is spliced into SQL.
 */
import type { SearchFilter } from "../../model/types.js";

export interface SqlCondition {
  sql: string;
  params: Record<string, unknown>;
}

export function filterCondition(filter: SearchFilter): SqlCondition {
  const parts: string[] = [];
  const params: Record<string, unknown> = {};
  if (filter.since !== undefined) {
    parts.push("m.at_ms >= @since");
    params.since = filter.since;
  }
  if (filter.until !== undefined) {
    parts.push("m.at_ms < @until");
    params.until = filter.until;
  }
  // Lists travel as one JSON parameter, so the SQL text (and its cached prepared statement) is the same for any
  // number of entries: one parameter per entry once made a new statement for every distinct length.
  if (filter.kinds && filter.kinds.length > 0) {
    parts.push("m.kind IN (SELECT value FROM json_each(@kinds))");
    params.kinds = JSON.stringify(filter.kinds);
  }
  if (filter.excludeKinds && filter.excludeKinds.length > 0) {
    parts.push("m.kind NOT IN (SELECT value FROM json_each(@xkinds))");
    params.xkinds = JSON.stringify(filter.excludeKinds);
  }
  if (filter.under !== undefined) {
    // A subtree is an index range: the path itself, or anything from "path." up to (not including) "path/",
    // because "/" is the character after "." — so "retrieval" never matches "retrievals.x".
    parts.push("(m.topic = @under OR (m.topic >= @underLo AND m.topic < @underHi))");
    params.under = filter.under;
    params.underLo = `${filter.under}.`;
    params.underHi = `${filter.under}/`;
  }
  if (filter.topics !== undefined) {
    parts.push("m.topic IN (SELECT value FROM json_each(@topics))");
    params.topics = JSON.stringify(filter.topics);
  }
  return { sql: parts.length ? parts.join(" AND ") : "1", params };
}

export function isEmptyFilter(filter: SearchFilter): boolean {
  return filterCondition(filter).sql === "1";
}
