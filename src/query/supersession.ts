/**
 * @module query/supersession
 * The annotate step of search: every fused candidate gets its supersession status at (asOf, knownAt). A
 * superseded memory is demoted (its score multiplied by `demotion`), and the memory that currently stands for
 * it is raised to at least the stale one's undemoted score (brought in when no channel found it), so a stale
 * memory is never the answer in place of its successor. Both moves are listed as adjustments:
 *   score = rrf × (product of factors) + (sum of deltas).
 */
import { currentSuccessors, supersessionOf, type Supersession } from "../graph/status.js";
import { readReached } from "./reached.js";
import type { GraphTime } from "../model/graph.js";
import type { Store } from "../ports/store.js";
import { compareScored, type Scored } from "./time.js";

export interface Annotated extends Scored, Supersession {}

export interface SupersessionPolicy {
  /** Factor applied to a superseded memory's score (1 = no demotion; it is still marked). */
  demotion: number;
  /** Drop superseded memories from the results. */
  currentOnly: boolean;
}

export async function annotateSupersession(
  store: Store,
  scored: Scored[],
  time: GraphTime,
  policy: SupersessionPolicy,
  /** Whether a memory no channel found may be shown (it must pass the query's filters). */
  admissible: (memoryIds: string[]) => Promise<Set<string>>,
): Promise<Annotated[]> {
  const ids = scored.map((f) => f.memoryId);
  const edges = await store.edgesTouching(ids, "supersedes");
  const status = supersessionOf(ids, edges, time);
  const out = new Map<string, Annotated>(scored.map((f) => [f.memoryId, { ...f, ...status.get(f.memoryId)! }]));

  // Each current successor must score at least as high as the best stale memory it stands for.
  const floors = new Map<string, { score: number; stale: string }>();
  const stale = [...out.values()].filter((a) => a.status === "superseded");
  const successors = stale.length ? await currentSuccessors(store, stale.map((a) => a.memoryId), time, edges) : new Map<string, string>();
  for (const a of stale) {
    const undemoted = a.score;
    if (policy.demotion !== 1) {
      a.score *= policy.demotion;
      a.adjustments.push({ reason: `superseded by ${a.supersededBy.join(", ")}`, factor: policy.demotion });
    }
    const successor = successors.get(a.memoryId);
    if (successor && (floors.get(successor)?.score ?? -1) < undemoted) floors.set(successor, { score: undemoted, stale: a.memoryId });
  }

  const missing = [...floors.keys()].filter((id) => !out.has(id));
  if (missing.length > 0) {
    for (const [id, reached] of await readReached(store, missing, time, admissible)) {
      out.set(id, { memoryId: id, ranks: {}, sourcesHit: [], rrf: 0, ...reached, score: 0, adjustments: [] });
    }
  }
  for (const [id, floor] of floors) {
    const a = out.get(id);
    if (!a || a.score >= floor.score) continue;
    const delta = floor.score - a.score;
    a.adjustments.push({ reason: `current successor of ${floor.stale}`, delta });
    a.score += delta;
  }

  const results = [...out.values()].filter((a) => !(policy.currentOnly && a.status === "superseded"));
  return results.sort(compareAnnotated);
}

/** Highest score first; on a tie the current memory first, then the best single rank, then the id. */
function compareAnnotated(a: Annotated, b: Annotated): number {
  if (b.score !== a.score) return b.score - a.score;
  if (a.status !== b.status) return a.status === "current" ? -1 : 1;
  return compareScored(a, b);
}
