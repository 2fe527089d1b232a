/**
 * @module channels/time
 * The time channel, for a query with a time expression ("last Tuesday", "over the last 3 months"): first the
 * summary nodes at the pyramid level that fits the span, whose windows lie mostly inside it (best fit first, then
 * the most recent), then the memories that happened inside the span, newest first. Without a time expression it
 * finds nothing, so it never changes other queries.
 *
 * The memories are what a question about a time asks for. By default summaries go to `context`, not to the hits
 * (query/context.ts), and are dropped from every list: a channel of summary nodes alone then handed fusion nothing,
 * and the window's memories counted only if a word channel happened to find them — for "what happened last
 * Tuesday", none did, and the answer came from other days.
 */
import { SUMMARY_KIND } from "../model/pyramid.js";
import type { Ranked, SearchFilter } from "../model/types.js";
import type { Store } from "../ports/store.js";
import type { Channel, ChannelQuery } from "./channel.js";
import { WHOLE } from "../pyramid/scopes.js";
import { MIN_WINDOW_FIT, windowFit } from "../time/windows.js";

/**
 * Summary nodes have no topic or metadata of their own (they roll up many memories), so a topic or a scope/metadata
 * condition leaves none here (a user's own nodes come to a filtered search as `context`), and an unfiltered one
 * ranks the whole namespace's nodes only; a kind filter may exclude them.
 */
function admitsSummaries(f: SearchFilter): boolean {
  if (f.under !== undefined || f.topics !== undefined || (f.where?.length ?? 0) > 0) return false;
  if (f.kinds && f.kinds.length > 0 && !f.kinds.includes(SUMMARY_KIND)) return false;
  return !f.excludeKinds?.includes(SUMMARY_KIND);
}

type Span = { start: number; end: number };

async function summaryNodes(store: Store, q: ChannelQuery, span: Span): Promise<Ranked[]> {
  const level = q.time?.level;
  if (!level || !admitsSummaries(q.filter)) return [];
  const nodes = (await store.pyramidNodes({ level, from: span.start, to: span.end, scope: WHOLE }))
    .map((n) => ({ n, fit: windowFit(n, span) }))
    .filter((x) => x.fit >= MIN_WINDOW_FIT && x.n.start >= (q.filter.since ?? -Infinity) && x.n.start < (q.filter.until ?? Infinity))
    .sort((a, b) => b.fit - a.fit || b.n.start - a.n.start)
    .slice(0, q.depth);
  const chunks = await store.firstChunkIds(nodes.map((x) => x.n.id));
  return nodes.flatMap(({ n, fit }) => (chunks.has(n.id) ? [{ chunkId: chunks.get(n.id)!, memoryId: n.id, score: fit }] : []));
}

/** The memories (never summaries: those are the nodes above) whose event time lies in the span, newest first. */
async function memoriesInside(store: Store, q: ChannelQuery, span: Span): Promise<Ranked[]> {
  const excludeKinds = [...new Set([...(q.filter.excludeKinds ?? []), SUMMARY_KIND])];
  const filter = { ...q.filter, since: span.start, until: span.end, excludeKinds };
  const { memories } = await store.listMemories({ filter, limit: q.depth, order: "desc" });
  const chunks = await store.firstChunkIds(memories.map((m) => m.id));
  return memories.flatMap((m) => (chunks.has(m.id) ? [{ chunkId: chunks.get(m.id)!, memoryId: m.id, score: 1 }] : []));
}

export function timeChannel(store: Store): Channel {
  return {
    name: "time",
    async run(q): Promise<Ranked[]> {
      const span = q.time?.span;
      if (!span) return [];
      const inside = { start: Math.max(span.start, q.filter.since ?? -Infinity), end: Math.min(span.end, q.filter.until ?? Infinity) };
      if (!(inside.end > inside.start)) return [];
      const [nodes, memories] = await Promise.all([summaryNodes(store, q, inside), memoriesInside(store, q, inside)]);
      return [...nodes, ...memories].slice(0, q.depth);
    },
  };
}
