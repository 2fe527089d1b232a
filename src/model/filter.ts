/**
 * @module model/filter
 * Scope and metadata conditions as data (what `--filter` and a JSON `filter` become; see query/where.ts).
 */
export const SCOPE_FIELDS = ["user", "agent", "session", "speaker"] as const;
export type ScopeField = (typeof SCOPE_FIELDS)[number];
export const FIELD_OPS = ["eq", "ne", "in", "gt", "gte", "lt", "lte"] as const;
export type FieldOp = (typeof FIELD_OPS)[number];
export type Scalar = string | number | boolean;

export interface FieldCondition {
  /** A scope field, the memory's tags (a list: it holds a value when one of its tags does), or `metadata` with the path's segments. */
  field: { scope: ScopeField } | { tags: true } | { metadata: string[] };
  op: FieldOp;
  /** A list for `in`, one scalar otherwise. */
  value: Scalar | Scalar[];
}
