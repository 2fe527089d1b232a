/**
 * @module graph/status
 * Supersession status at a point in both times. An edge counts at (asOf, knownAt) when it holds in the world at
 * asOf (validFrom ≤ asOf < validTo) and Cascade knew it at knownAt (recorded by then, not yet retracted).
 * A memory is superseded when some counting `supersedes` edge points into it.
 */
import type { Edge, GraphTime } from "../model/graph.js";
import type { Store } from "../ports/store.js";

export function edgeCounts(e: Edge, t: GraphTime): boolean {
  return (
    e.validFrom <= t.asOf &&
    (e.validTo === null || e.validTo > t.asOf) &&
    e.recordedAt <= t.knownAt &&
    (e.retractedAt === null || e.retractedAt > t.knownAt)
  );
}

export interface Supersession {
  status: "current" | "superseded";
  /** Memories that directly supersede this one (newest first). */
  supersededBy: string[];
  /** Memories this one directly supersedes. */
  supersedes: string[];
}

/** Status of each memory from the `supersedes` edges touching them. */
export function supersessionOf(memoryIds: string[], edges: Edge[], t: GraphTime): Map<string, Supersession> {
  const out = new Map<string, Supersession>(memoryIds.map((id) => [id, { status: "current", supersededBy: [], supersedes: [] }]));
  const counting = edges.filter((e) => e.type === "supersedes" && edgeCounts(e, t)).sort((a, b) => b.validFrom - a.validFrom);
  for (const e of counting) {
    const older = out.get(e.to);
    if (older && !older.supersededBy.includes(e.from)) {
      older.supersededBy.push(e.from);
      older.status = "superseded";
    }
    const newer = out.get(e.from);
    if (newer && !newer.supersedes.includes(e.to)) newer.supersedes.push(e.to);
  }
  return out;
}

/**
 * The memory that currently stands for `id` at t: follow "superseded by" edges (the newest at each step) until a
 * memory that nothing supersedes. Returns null when `id` itself is current.
 */
export async function currentSuccessor(store: Store, id: string, t: GraphTime): Promise<string | null> {
  let at = id;
  const seen = new Set([id]);
  for (;;) {
    const into = (await store.edgesTouching([at], "supersedes"))
      .filter((e) => e.to === at && edgeCounts(e, t))
      .sort((a, b) => b.validFrom - a.validFrom || b.recordedAt - a.recordedAt);
    if (into.length === 0 || seen.has(into[0].from)) return at === id ? null : at;
    at = into[0].from;
    seen.add(at);
  }
}
