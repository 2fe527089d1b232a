/**
 * @module channels/recency
 * Newest first, but only among memories that another channel found for this query (within its top `pool`).
 * A query-independent recency list would push the same newest memories into every answer; ranking only
 * candidates means a fresh but unrelated memory can never enter the results through recency alone.
 */
import type { ChannelName, Ranked } from "../model/types.js";

/** The memories recency may rank: each channel's first `pool` distinct memories, with the chunk that found them. */
export function recencyCandidates(lists: Partial<Record<ChannelName, Ranked[]>>, pool: number): Map<string, Ranked> {
  const candidates = new Map<string, Ranked>();
  for (const list of Object.values(lists)) {
    const seen = new Set<string>();
    for (const r of list) {
      if (seen.size >= pool) break;
      seen.add(r.memoryId);
      if (!candidates.has(r.memoryId)) candidates.set(r.memoryId, r);
    }
  }
  return candidates;
}

/** Ranks the candidates by event time, newest first; ties by memory id so the order is deterministic. */
export function rankByRecency(candidates: Map<string, Ranked>, eventTimes: Map<string, number>): Ranked[] {
  return [...candidates.values()]
    .map((r) => ({ chunkId: r.chunkId, memoryId: r.memoryId, score: eventTimes.get(r.memoryId) ?? -Infinity }))
    .sort((a, b) => b.score - a.score || (a.memoryId < b.memoryId ? -1 : a.memoryId > b.memoryId ? 1 : 0));
}
