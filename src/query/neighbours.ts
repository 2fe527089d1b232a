/**
 * @module query/neighbours
 * Conversational locality, an annotate step after fusion. In a conversation the turns that answer a question sit
 * together: the question a turn answers, the details that follow it. So a candidate with other candidates within
 * `window` turns of it in the same session gains `share` of their scores, listed in `adjustments` like a time
 * boost. Only candidates move: a turn that no channel found with evidence is never brought in, and memories
 * without a session (notes, documents) are untouched. Scores are those fusion gave (after time adjustments),
 * read before any is raised, so the order in which candidates are visited does not matter. A search of one channel
 * (recency aside) is that channel's own ranking and is left as it is.
 *
 * Chosen by leave-one-conversation-out on the six shared LoCoMo conversations (docs/benchmark-notes.md).
 */
import type { Store } from "../ports/store.js";
import { countOf } from "../text/plural.js";
import { compareScored, type Scored } from "./time.js";

export interface NeighbourOptions {
  /** How many turns either side count as next to a candidate (0: off). */
  window: number;
  /** The share of each neighbouring candidate's score a candidate gains (0: off). */
  share: number;
}

/**
 * Two turns either side, 15% of their scores: in the leave-one-conversation-out grid (window 2–3, share 0.1–0.2,
 * depth 50–100) the folds chose window 3 four times and 2 twice; 2 is within 0.2 points of recall of 3 and keeps
 * nDCG and MRR where they were without the step (3 cost 2 points of MRR).
 */
export const defaultNeighbours: Readonly<NeighbourOptions> = Object.freeze({ window: 2, share: 0.15 });

export async function raiseSessionNeighbours(store: Pick<Store, "sessionNeighbours">, scored: Scored[], o: NeighbourOptions): Promise<Scored[]> {
  if (o.window <= 0 || o.share <= 0 || scored.length < 2) return scored;
  const next = await store.sessionNeighbours(scored.map((s) => s.memoryId), o.window);
  if (next.size < 2) return scored;
  const base = new Map(scored.map((s) => [s.memoryId, s.score]));
  let raised = false;
  for (const s of scored) {
    const around = next.get(s.memoryId);
    const own = base.get(s.memoryId)!;
    if (!around || own <= 0) continue;
    let sum = 0;
    let near = 0;
    for (const id of [...around.before, ...around.after]) {
      const score = base.get(id);
      if (score === undefined) continue; // not a candidate: it lends nothing and is not brought in
      sum += score;
      near++;
    }
    if (near === 0) continue;
    // as a factor (unrounded), so that score = rrf × the factors still holds when a later step demotes it
    const factor = (own + o.share * sum) / own;
    s.score = own * factor;
    s.adjustments.push({ reason: `${countOf(near, "other hit")} within ${countOf(o.window, "turn")} of it in session ${JSON.stringify(around.session)}`, factor });
    raised = true;
  }
  return raised ? scored.sort(compareScored) : scored;
}
