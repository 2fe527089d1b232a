/**
 * @module backends/sqlite/filter-sql
 * Turns a SearchFilter into a SQL condition on the `memories` alias `m` with bound parameters.
 * Values only ever travel as parameters; no user string is spliced into SQL.
 */
import type { FieldCondition, Scalar } from "../../model/filter.js";
import type { SearchFilter } from "../../model/types.js";
import { matchText, pathKey } from "../../model/matching.js";

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
  if (filter.recordedBy !== undefined) {
    // recorded_at is ISO text with or without milliseconds, so it is compared as a time, not as a string
    parts.push("unixepoch(m.recorded_at, 'subsec') * 1000 <= @recordedBy + 0.5");
    params.recordedBy = filter.recordedBy;
  }
  if (filter.expiredBy !== undefined) {
    parts.push("m.expires_at_ms <= @expiredBy");
    params.expiredBy = filter.expiredBy;
  }
  if (filter.liveAt !== undefined) {
    parts.push("(m.expires_at_ms IS NULL OR m.expires_at_ms > @liveAt)");
    params.liveAt = filter.liveAt;
  }
  filter.where?.forEach((c, i) => parts.push(conditionSql(c, `w${i}`, params)));
  if (filter.scope !== undefined) {
    // an absent user or agent matches only an absent one; `=` (not `IS`) lets the partial indexes on the columns serve
    const { user, agent } = filter.scope;
    parts.push(user === null ? "m.user_id IS NULL" : "m.user_id = @scopeUser", agent === null ? "m.agent_id IS NULL" : "m.agent_id = @scopeAgent");
    if (user !== null) params.scopeUser = user;
    if (agent !== null) params.scopeAgent = agent;
  }
  return { sql: parts.length ? parts.join(" AND ") : "1", params };
}

const SCOPE_COLUMNS = { user: "m.user_id", agent: "m.agent_id", session: "m.session", speaker: "m.speaker" } as const;
const RANGE_SQL = { gt: ">", gte: ">=", lt: "<", lte: "<=" } as const;

/**
 * One scope, tag or metadata condition (meaning in query/where.ts). Metadata goes through memory_fields' indexes: a
 * subquery per condition, values as parameters, lists as one JSON parameter.
 */
function conditionSql(c: FieldCondition, name: string, params: Record<string, unknown>): string {
  const texts = (c.op === "in" ? (c.value as Scalar[]) : [c.value as Scalar]).map(matchText);
  if ("scope" in c.field) {
    const col = SCOPE_COLUMNS[c.field.scope];
    if (c.op === "eq" || c.op === "ne" || c.op === "in") {
      params[name] = JSON.stringify(texts);
      const has = `${col} IN (SELECT value FROM json_each(@${name}))`;
      return c.op === "ne" ? `(${col} IS NULL OR NOT ${has})` : has;
    }
    if (typeof c.value !== "string") return "0"; // a scope holds text: a number range matches nothing
    params[name] = c.value;
    return `${col} ${RANGE_SQL[c.op]} @${name}`;
  }
  if ("tags" in c.field) {
    // tags are a JSON list on the memory: it holds a value when one of its tags does (as a metadata array)
    const tag = `SELECT 1 FROM json_each(m.tags) t WHERE t.value`;
    if (c.op === "eq" || c.op === "ne" || c.op === "in") {
      params[name] = JSON.stringify(texts);
      const has = `EXISTS (${tag} IN (SELECT value FROM json_each(@${name})))`;
      return c.op === "ne" ? `NOT ${has}` : has;
    }
    if (typeof c.value !== "string") return "0"; // tags are text: a number range matches nothing
    params[name] = c.value;
    return `EXISTS (${tag} ${RANGE_SQL[c.op]} @${name})`;
  }
  params[`${name}p`] = pathKey(c.field.metadata);
  if (c.op === "eq" || c.op === "ne" || c.op === "in") {
    params[name] = JSON.stringify(texts);
    const has = `m.rowid IN (SELECT memory_rowid FROM memory_fields WHERE path = @${name}p AND text_value IN (SELECT value FROM json_each(@${name})))`;
    return c.op === "ne" ? `NOT ${has}` : has;
  }
  params[name] = c.value;
  const column = typeof c.value === "number" ? "num_value" : "text_value";
  const kind = typeof c.value === "number" ? "" : " AND type = 'string'";
  return `m.rowid IN (SELECT memory_rowid FROM memory_fields WHERE path = @${name}p AND ${column} ${RANGE_SQL[c.op]} @${name}${kind})`;
}

export function isEmptyFilter(filter: SearchFilter): boolean {
  return filterCondition(filter).sql === "1";
}
