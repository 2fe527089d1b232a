/**
 * @module query/relations
 * The annotate step for typed relations other than supersession, on the head of the candidates:
 * - `contradicts` flags both sides: each hit lists the memories it contradicts or is contradicted by (at the
 *   query's asOf/knownAt), so a reader sees the disagreement; no score changes, neither side is hidden.
 * - `refines` brings the refinement along: when a memory is in the head and a current memory refines it, the
 *   refinement scores at least `REFINEMENT_FLOOR` × the refined memory's score (brought in if no channel found
 *   it and it passes the filters), listed as an adjustment.
 * `derived_from`, `summarizes` and `relates_to` change no score here; the graph channel walks them.
 */
import { edgeCounts } from "../graph/status.js";
import { readReached } from "./reached.js";
import type { GraphTime } from "../model/graph.js";
import type { Store } from "../ports/store.js";
import type { Annotated } from "./supersession.js";

/** A refinement stays just below what it refines: close enough to be read with it, never above it by this rule. */
export const REFINEMENT_FLOOR = 0.9;

export interface Related extends Annotated {
  contradicts: string[];
}

export async function annotateRelations(
  store: Store,
  annotated: Annotated[],
  head: number,
  time: GraphTime,
  admissible: (memoryIds: string[]) => Promise<Set<string>>,
): Promise<Related[]> {
  const out: Related[] = annotated.map((a) => ({ ...a, contradicts: [] }));
  const top = out.slice(0, head);
  if (top.length === 0) return out;
  const byId = new Map(out.map((a) => [a.memoryId, a]));
  const edges = (await store.edgesTouching(top.map((a) => a.memoryId))).filter((e) => (e.type === "contradicts" || e.type === "refines") && edgeCounts(e, time));
  if (edges.length === 0) return out;
  for (const e of edges.filter((x) => x.type === "contradicts")) {
    for (const [self, other] of [[e.from, e.to], [e.to, e.from]]) {
      const a = byId.get(self);
      if (a && !a.contradicts.includes(other)) a.contradicts.push(other);
    }
  }
  // refinements of head memories: from refines to
  const floors = new Map<string, { score: number; of: string }>();
  for (const e of edges.filter((x) => x.type === "refines")) {
    const refined = byId.get(e.to);
    if (!refined || !top.includes(refined)) continue;
    const floor = refined.score * REFINEMENT_FLOOR;
    if ((floors.get(e.from)?.score ?? -1) < floor) floors.set(e.from, { score: floor, of: e.to });
  }
  const missing = [...floors.keys()].filter((id) => !byId.has(id));
  if (missing.length) {
    for (const [id, reached] of await readReached(store, missing, time, admissible)) {
      if (reached.status !== "current") continue;
      const a: Related = { memoryId: id, ranks: {}, sourcesHit: [], rrf: 0, score: 0, adjustments: [], ...reached, contradicts: [] };
      out.push(a);
      byId.set(id, a);
    }
  }
  for (const [id, floor] of floors) {
    const a = byId.get(id);
    if (!a || a.status !== "current" || a.score >= floor.score) continue;
    a.adjustments.push({ reason: `refines ${floor.of}`, delta: floor.score - a.score });
    a.score = floor.score;
  }
  // a stable sort: memories whose scores did not move keep the order supersession gave them
  return out.sort((a, b) => b.score - a.score);
}
