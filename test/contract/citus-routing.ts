/**
 * Would every statement the PostgreSQL store issues route to one shard if its tables were distributed by
 * `namespace` (Citus, docs/SCALING.md stage 3)? A statement routes to one shard when every row it reads or
 * writes in a Cascade table is pinned to one namespace: each scan of such a table carries `namespace = <the
 * store's namespace>` (PostgreSQL carries an equality through the join keys, so `m.namespace = c.namespace AND
 * c.namespace = $1` pins both scans), and each insert writes the store's namespace.
 *
 * PostgreSQL's own planner does the reading: each logged statement is EXPLAINed (VERBOSE, JSON) with the
 * parameters it was run with, and the plan is walked. Statements are logged from the store contract's run on
 * PGlite (test/contract/postgres.test.ts), so they are exactly what the store sends.
 */
import type { Database } from "../../src/backends/postgres/connection.js";
import { TABLES } from "../../src/backends/postgres/schema.js";

export interface Logged {
  sql: string;
  params: unknown[];
  /** The namespace of the store that issued it. */
  namespace: string;
}

/** A Database that records what it is asked while `on()` says so (not the migrations run on open). */
export function loggingDatabase(db: Database, into: Map<string, Logged>, namespace: string, on: () => boolean): Database {
  const record = (sql: string, params: unknown[] = []) => {
    if (on() && !into.has(sql)) into.set(sql, { sql, params, namespace });
  };
  return {
    ...db,
    label: db.label,
    async query(sql, params) {
      record(sql, params);
      return db.query(sql, params);
    },
    async transaction(fn) {
      return db.transaction((tx) =>
        fn({
          async query(sql, params) {
            record(sql, params);
            return tx.query(sql, params);
          },
        }),
      );
    },
    async exec(sql) {
      record(sql);
      return db.exec(sql);
    },
    async maintenance(sql) {
      record(sql);
      return db.maintenance(sql);
    },
  };
}

/**
 * Statements that touch no row of a namespace (transaction control, settings, locks, statistics, catalogs, and the
 * re-embedding's side table made and dropped at run time: DDL, which Citus propagates to every node).
 */
const NOT_ROUTED = /^\s*(BEGIN|COMMIT|ROLLBACK|SET|ANALYZE|VACUUM|SELECT pg_advisory_xact_lock|SELECT reltuples|SELECT format_type|SELECT extversion|SELECT 1 FROM pg_indexes|SELECT to_regclass|CREATE TABLE IF NOT EXISTS reembed_vectors|DROP TABLE reembed_vectors)\b/i;

const CASCADE_TABLES = new Set<string>(TABLES);

interface PlanNode {
  "Node Type": string;
  "Relation Name"?: string;
  Operation?: string;
  Plans?: PlanNode[];
  [key: string]: unknown;
}

/** Why the statement would not route to the namespace's shard, or null when it would. */
export async function routingProblem(db: Database, s: Logged): Promise<string | null> {
  if (NOT_ROUTED.test(s.sql)) return null;
  const [row] = await db.query<{ "QUERY PLAN": unknown }>(`EXPLAIN (VERBOSE, FORMAT JSON) ${s.sql}`, s.params);
  const raw = row["QUERY PLAN"];
  const plan = (typeof raw === "string" ? JSON.parse(raw) : raw) as { Plan: PlanNode }[];
  const literal = `namespace = '${s.namespace.replace(/'/g, "''")}'::text`;
  const problems: string[] = [];
  const walk = (node: PlanNode) => {
    const table = node["Relation Name"];
    if (table && CASCADE_TABLES.has(table)) {
      if (node["Node Type"] === "ModifyTable") {
        // an insert's rows: the namespace column is the first of each table, written from the store's own value
        if (node.Operation === "Insert" && !insertsNamespace(node)) problems.push(`an insert into ${table} whose namespace is not the store's`);
      } else {
        const conditions = ["Index Cond", "Filter", "Recheck Cond"].map((k) => String(node[k] ?? "")).join(" ");
        if (!conditions.includes(literal)) problems.push(`a ${node["Node Type"]} of ${table} not pinned to one namespace`);
      }
    }
    node.Plans?.forEach(walk);
  };
  // the namespace literal an insert writes shows as the first output column of the node feeding it
  const insertsNamespace = (node: PlanNode) => {
    const first = (node.Plans?.[0]?.Output as string[] | undefined)?.[0] ?? "";
    return first === `'${s.namespace.replace(/'/g, "''")}'::text` || first === "$1";
  };
  for (const p of plan) walk(p.Plan);
  return problems.length ? problems.join("; ") : null;
}
