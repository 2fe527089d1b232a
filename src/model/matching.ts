/**
 * @module model/matching
 * How one memory is tested against a filter's conditions (model/filter.ts): the in-memory twin of each backend's
 * SQL, and the metadata paths and texts the backends index so that their SQL matches as this does. Here, below the
 * backends and the query, so that both import it without climbing a layer.
 */
import type { FieldCondition, FieldOp, Scalar } from "./filter.js";
import { sameScope } from "./scope.js";
import type { Memory, SearchFilter } from "./types.js";

/** A metadata key's segment as a filter can name it (`--filter metadata.ticket.id=…`). */
export const SEGMENT = /^[A-Za-z_][A-Za-z0-9_-]*$/;

/** A metadata path as stored and compared: segments joined by dots. */
export const pathKey = (segments: readonly string[]) => segments.join(".");

/**
 * The scalar values of a metadata object by dotted path, an array's elements under the array's own path: what a
 * backend indexes and what conditions are tested against. Keys that could not be named in a filter are skipped.
 */
export function metadataFields(metadata: Record<string, unknown>): [string, Scalar][] {
  const out: [string, Scalar][] = [];
  const stack: [unknown, string][] = Object.entries(metadata).map(([k, v]) => [v, k]);
  while (stack.length > 0) {
    const [value, path] = stack.pop()!;
    if (!path.split(".").every((s) => SEGMENT.test(s))) continue;
    if (typeof value === "string" || typeof value === "boolean" || (typeof value === "number" && Number.isFinite(value))) out.push([path, value]);
    else if (Array.isArray(value)) for (const v of value) stack.push([v, path]);
    else if (typeof value === "object" && value !== null) for (const [k, v] of Object.entries(value)) stack.push([v, `${path}.${k}`]);
  }
  return out;
}

/** The text a value is matched by for eq/in: strings as they are, numbers in decimal, booleans as words. */
export const matchText = (v: Scalar) => (typeof v === "string" ? v : String(v));

function compare(a: Scalar, b: Scalar): number | null {
  if (typeof a === "number" && typeof b === "number") return a - b;
  if (typeof a === "string" && typeof b === "string") return a < b ? -1 : a > b ? 1 : 0;
  return null;
}

function holdsFor(values: Scalar[], op: FieldOp, want: Scalar | Scalar[]): boolean {
  const texts = new Set(values.map(matchText));
  switch (op) {
    case "eq":
      return texts.has(matchText(want as Scalar));
    case "ne":
      return !texts.has(matchText(want as Scalar));
    case "in":
      return (want as Scalar[]).some((w) => texts.has(matchText(w)));
    default: {
      const sign = { gt: (c: number) => c > 0, gte: (c: number) => c >= 0, lt: (c: number) => c < 0, lte: (c: number) => c <= 0 }[op];
      return values.some((v) => {
        const c = compare(v, want as Scalar);
        return c !== null && sign(c);
      });
    }
  }
}

/** Whether a memory meets one condition (the in-memory twin of each backend's SQL). */
export function conditionHolds(m: Memory, c: FieldCondition): boolean {
  if ("scope" in c.field) {
    const v = m[c.field.scope];
    return holdsFor(v === null ? [] : [v], c.op, c.value);
  }
  if ("tags" in c.field) return holdsFor(m.tags, c.op, c.value);
  const path = pathKey(c.field.metadata);
  return holdsFor(
    metadataFields(m.metadata).filter(([p]) => p === path).map(([, v]) => v),
    c.op,
    c.value,
  );
}

/** Whether a memory passes a search filter: the in-memory twin of the backends' filtered queries. */
export function memoryPassesFilter(m: Memory, f: SearchFilter): boolean {
  const at = Date.parse(m.at);
  if (f.since !== undefined && at < f.since) return false;
  if (f.until !== undefined && at >= f.until) return false;
  if (f.kinds && f.kinds.length > 0 && !f.kinds.includes(m.kind)) return false;
  if (f.excludeKinds?.includes(m.kind)) return false;
  if (f.under !== undefined && !(m.topic === f.under || m.topic?.startsWith(`${f.under}.`))) return false;
  if (f.topics !== undefined && (m.topic === null || !f.topics.includes(m.topic))) return false;
  if (f.recordedBy !== undefined && Date.parse(m.recordedAt) > f.recordedBy) return false;
  if (f.where && !f.where.every((c) => conditionHolds(m, c))) return false;
  if (f.scope && !sameScope(m, f.scope)) return false;
  if (f.liveAt !== undefined && m.expires !== null && Date.parse(m.expires) <= f.liveAt) return false;
  if (f.expiredBy !== undefined && (m.expires === null || Date.parse(m.expires) > f.expiredBy)) return false;
  return true;
}
