/**
 * @module query/evidence
 * Which candidates have evidence. Recency and weak dense similarity are orderings, not evidence: recency ranks
 * only memories another channel found with evidence (never a weak dense hit), and a memory whose only support
 * is weak dense similarity (plus recency) is not returned. So a query that matches nothing returns nothing, and
 * "newest first" can never become the answer to a question. Ranks are untouched: a memory left out
 * here still held its place in the channel's list, so every `ranks` value stays its position there.
 */
import type { Fused } from "../fuse/rrf.js";
import type { ChannelName, Ranked } from "../model/types.js";

/** Channels whose list is an ordering of other channels' candidates, not evidence of its own. */
const ORDERING_ONLY: ReadonlySet<ChannelName> = new Set(["recency"]);

/**
 * When the dense channel is the only source of evidence asked for (`--channels dense`, or with recency), its
 * weak hits are all there is to rank and are kept: the caller asked for nearest neighbours.
 */
function denseAlone(lists: Partial<Record<ChannelName, Ranked[]>>): boolean {
  return (Object.keys(lists) as ChannelName[]).every((c) => c === "dense" || ORDERING_ONLY.has(c));
}

/** The lists recency may draw candidates from: weak entries left out. */
export function evidenceLists(lists: Partial<Record<ChannelName, Ranked[]>>): Partial<Record<ChannelName, Ranked[]>> {
  if (denseAlone(lists)) return lists;
  const out: Partial<Record<ChannelName, Ranked[]>> = {};
  for (const [name, list] of Object.entries(lists) as [ChannelName, Ranked[]][]) out[name] = list.filter((r) => !r.weak);
  return out;
}

/** Fused results with at least one piece of evidence that stands alone. */
export function withEvidence<T extends Fused>(fused: T[], lists: Partial<Record<ChannelName, Ranked[]>>): T[] {
  if (denseAlone(lists)) return fused;
  const strong = new Set<string>();
  for (const [name, list] of Object.entries(lists) as [ChannelName, Ranked[]][]) {
    if (ORDERING_ONLY.has(name)) continue;
    for (const r of list) if (!r.weak) strong.add(r.memoryId);
  }
  return fused.filter((f) => strong.has(f.memoryId));
}
