/**
 * @module query/time
 * The annotate step for time expressions (in "boost" mode): a candidate inside the query's window has its score
 * multiplied by `inWindow`, and a summary node at the level that fits the span by `levelMatch` as well, each
 * listed in `adjustments`. Nothing outside the window is removed: "restrict" mode filters instead.
 */
import type { TimeAdjustments } from "../config/defaults.js";
import type { Fused } from "../fuse/rrf.js";
import type { Adjustment } from "../model/types.js";
import type { Store } from "../ports/store.js";
import { formatInstant } from "../time/iso.js";
import type { ParsedTime } from "../time/expressions.js";
import { MIN_WINDOW_FIT, windowFit } from "../time/windows.js";

export interface Scored extends Fused {
  score: number;
  adjustments: Adjustment[];
}

/** Highest score first; ties by best single rank, then id. */
export function compareScored(a: Scored, b: Scored): number {
  if (b.score !== a.score) return b.score - a.score;
  const bestA = Math.min(Infinity, ...Object.values(a.ranks));
  const bestB = Math.min(Infinity, ...Object.values(b.ranks));
  if (bestA !== bestB) return bestA - bestB;
  return a.memoryId < b.memoryId ? -1 : a.memoryId > b.memoryId ? 1 : 0;
}

export async function adjustForTime(
  store: Store,
  scored: Scored[],
  time: ParsedTime,
  factors: TimeAdjustments,
): Promise<Scored[]> {
  const { span, level } = time;
  if ((!span && !level) || scored.length === 0) return scored;
  const ids = scored.map((s) => s.memoryId);
  const at = await store.eventTimes(ids);
  const nodes = new Map((await store.pyramidNodes({ ids })).map((n) => [n.id, n]));
  const window = span ? `"${span.phrase}" (${formatInstant(span.start)} to ${formatInstant(span.end)})` : "";
  for (const s of scored) {
    const node = nodes.get(s.memoryId);
    const t = at.get(s.memoryId);
    const inside = span !== null && (node ? windowFit(node, span) >= MIN_WINDOW_FIT : t !== undefined && t >= span.start && t < span.end);
    if (inside && factors.inWindow !== 1) {
      s.score *= factors.inWindow;
      s.adjustments.push({ reason: `in time window ${window}`, factor: factors.inWindow });
    }
    if (node && node.level === level && (!span || inside) && factors.levelMatch !== 1) {
      s.score *= factors.levelMatch;
      s.adjustments.push({ reason: `${node.level} summary: the level that fits the question's span`, factor: factors.levelMatch });
    }
  }
  return scored.sort(compareScored);
}
