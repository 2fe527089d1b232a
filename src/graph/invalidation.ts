/**
 * @module graph/invalidation
 * What a supersession takes down with it, and no more. When memory X is superseded at time s, what was known
 * only through X stops being current at any asOf ≥ s: X's `mentions` (its entity links) and the relations X
 * asserted (edges out of X). A relation another current memory also asserts (same type, same target) stays
 * current, and so does an entity any current memory still mentions. Nothing is deleted: at an asOf before s
 * everything reads as it was.
 */
import type { Edge, GraphTime } from "../model/graph.js";
import { edgeCounts } from "./status.js";

/** When each memory stopped being current (the earliest counting `supersedes` edge into it), if it did by t. */
export function supersededAt(memoryIds: string[], edges: Edge[], t: GraphTime): Map<string, number> {
  const out = new Map<string, number>();
  const wanted = new Set(memoryIds);
  for (const e of edges) {
    if (e.type !== "supersedes" || !wanted.has(e.to) || !edgeCounts(e, t)) continue;
    const prev = out.get(e.to);
    if (prev === undefined || e.validFrom < prev) out.set(e.to, e.validFrom);
  }
  return out;
}

/** A mention is current while its memory is; it ends when the memory was superseded. */
export function mentionValidity(memoryId: string, superseded: Map<string, number>): { validTo: number | null; current: boolean } {
  const s = superseded.get(memoryId);
  return s === undefined ? { validTo: null, current: true } : { validTo: s, current: false };
}

/**
 * A relation asserted by a memory is current when it counts at t and its asserting memory (`from`) is current,
 * or when another current memory asserts the same relation (same type and target).
 */
export function relationCurrent(e: Edge, all: Edge[], superseded: Map<string, number>, t: GraphTime): boolean {
  if (!edgeCounts(e, t)) return false;
  if (e.type === "supersedes" || !superseded.has(e.from)) return true;
  return all.some((o) => o.id !== e.id && o.type === e.type && o.to === e.to && !superseded.has(o.from) && edgeCounts(o, t));
}

/** An entity is current when at least one current memory mentions it. */
export function entityCurrent(mentionedBy: string[], superseded: Map<string, number>): boolean {
  return mentionedBy.some((m) => !superseded.has(m));
}
