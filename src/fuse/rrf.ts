/**
 * @module fuse/rrf
 * Weighted Reciprocal Rank Fusion (Cormack, Clarke and Büttcher, SIGIR 2009), as one pure function.
 * Each channel's chunk list is first collapsed to memories (a memory's rank is that of its best chunk), then
 * a memory's score is the sum over the channels that found it of weight / (k + rank), ranks 1-based. Raw
 * channel scores never enter. The per-channel ranks kept on each result ARE the explanation: `rrf` is
 * recomputed from them by the same function, so score and trace cannot drift apart.
 */
import type { ChannelName, Ranked } from "../model/types.js";
import { CHANNEL_NAMES } from "../model/types.js";

export interface Fused {
  memoryId: string;
  /** The chunk that earned the largest contribution: the one to show. */
  chunkId: number;
  ranks: Partial<Record<ChannelName, number>>;
  /** Channels that found the memory, in canonical channel order; exactly the keys of `ranks`. */
  sourcesHit: ChannelName[];
  rrf: number;
}

/** The RRF score of one result from its ranks: sum of weight[c] / (k + rank[c]). */
export function rrfScore(
  ranks: Partial<Record<ChannelName, number>>,
  weights: Readonly<Partial<Record<ChannelName, number>>>,
  k: number,
): number {
  let sum = 0;
  for (const c of CHANNEL_NAMES) {
    const r = ranks[c];
    if (r !== undefined) sum += (weights[c] ?? 0) / (k + r);
  }
  return sum;
}

/**
 * Each channel's chunk list is read as memories, best chunk first, with 1-based ranks. Memories the channel scored
 * exactly alike share the better rank ("1, 2, 2, 4"): a channel that cannot tell two memories apart must not
 * decide between them by storage order, so that recency (or another channel) can. The loop allocates only the
 * results (this runs on every search, over some hundreds of candidates).
 */
export function fuse(
  lists: Partial<Record<ChannelName, Ranked[]>>,
  weights: Readonly<Partial<Record<ChannelName, number>>>,
  k: number,
): Fused[] {
  const byMemory = new Map<string, Fused>();
  const best = new Map<Fused, number>(); // the largest single contribution so far: its chunk is the one shown
  const seen = new Set<string>();
  for (const channel of CHANNEL_NAMES) {
    const list = lists[channel];
    if (!list) continue;
    const weight = weights[channel] ?? 0;
    seen.clear();
    let previousScore = NaN;
    let previousRank = 0;
    for (const r of list) {
      if (seen.has(r.memoryId)) continue;
      seen.add(r.memoryId);
      const rank = r.score === previousScore ? previousRank : seen.size;
      previousScore = r.score;
      previousRank = rank;
      let entry = byMemory.get(r.memoryId);
      if (!entry) byMemory.set(r.memoryId, (entry = { memoryId: r.memoryId, chunkId: r.chunkId, ranks: {}, sourcesHit: [], rrf: 0 }));
      entry.ranks[channel] = rank;
      entry.sourcesHit.push(channel);
      const contribution = weight / (k + rank);
      if (contribution > (best.get(entry) ?? -1)) {
        best.set(entry, contribution);
        entry.chunkId = r.chunkId;
      }
    }
  }
  const fused = [...byMemory.values()];
  for (const f of fused) f.rrf = rrfScore(f.ranks, weights, k);
  return fused.sort(compareFused);
}

/** Highest RRF first; ties by best single rank, then by memory id, so equal inputs give equal orders. */
function compareFused(a: Fused, b: Fused): number {
  if (b.rrf !== a.rrf) return b.rrf - a.rrf;
  const bestA = Math.min(...Object.values(a.ranks));
  const bestB = Math.min(...Object.values(b.ranks));
  if (bestA !== bestB) return bestA - bestB;
  return a.memoryId < b.memoryId ? -1 : a.memoryId > b.memoryId ? 1 : 0;
}
