/**
 * @module channels/time
 * The time channel: for a query with a time expression ("last Tuesday", "over the last 3 months"), the summary
 * nodes at the pyramid level that fits the span, whose windows lie mostly inside it — those that fit best
 * first, then the most recent. Without a time expression it finds nothing, so it never changes other queries.
 */
import { SUMMARY_KIND } from "../model/pyramid.js";
import type { Ranked, SearchFilter } from "../model/types.js";
import type { Store } from "../ports/store.js";
import type { Channel } from "./channel.js";
import { MIN_WINDOW_FIT, windowFit } from "../time/windows.js";

/**
 * Summary nodes have no topic, user, agent or metadata of their own (they roll up many memories), so a topic or a
 * scope/metadata condition leaves none, as the store's filter does for summaries in the other channels; a kind
 * filter may exclude them.
 */
function admitsSummaries(f: SearchFilter): boolean {
  if (f.under !== undefined || f.topics !== undefined || (f.where?.length ?? 0) > 0) return false;
  if (f.kinds && f.kinds.length > 0 && !f.kinds.includes(SUMMARY_KIND)) return false;
  return !f.excludeKinds?.includes(SUMMARY_KIND);
}

export function timeChannel(store: Store): Channel {
  return {
    name: "time",
    async run(q): Promise<Ranked[]> {
      const span = q.time?.span;
      const level = q.time?.level;
      if (!span || !level || !admitsSummaries(q.filter)) return [];
      const from = Math.max(span.start, q.filter.since ?? -Infinity);
      const to = Math.min(span.end, q.filter.until ?? Infinity);
      if (!(to > from)) return [];
      const nodes = (await store.pyramidNodes({ level, from, to }))
        .map((n) => ({ n, fit: windowFit(n, { start: from, end: to }) }))
        .filter((x) => x.fit >= MIN_WINDOW_FIT && x.n.start >= (q.filter.since ?? -Infinity) && x.n.start < (q.filter.until ?? Infinity))
        .sort((a, b) => b.fit - a.fit || b.n.start - a.n.start)
        .slice(0, q.depth);
      const chunks = await store.firstChunkIds(nodes.map((x) => x.n.id));
      return nodes.flatMap(({ n, fit }) => (chunks.has(n.id) ? [{ chunkId: chunks.get(n.id)!, memoryId: n.id, score: fit }] : []));
    },
  };
}
