/**
 * @module query/reached
 * Memories the annotate steps bring in although no channel found them (a stale hit's current successor, a
 * refinement of a head memory): those that may be shown (they pass the search's filter and still have a chunk),
 * with their chunk and supersession status. The three reads are independent and run side by side: on a networked
 * store that is one round trip's wait instead of three.
 */
import { supersessionOf, type Supersession } from "../graph/status.js";
import type { GraphTime } from "../model/graph.js";
import type { Store } from "../ports/store.js";

export async function readReached(
  store: Store,
  ids: string[],
  time: GraphTime,
  admissible: (memoryIds: string[]) => Promise<Set<string>>,
): Promise<Map<string, { chunkId: number } & Supersession>> {
  const [allowed, chunks, edges] = await Promise.all([admissible(ids), store.firstChunkIds(ids), store.edgesTouching(ids, "supersedes")]);
  const status = supersessionOf(ids, edges, time);
  const out = new Map<string, { chunkId: number } & Supersession>();
  for (const id of ids) if (allowed.has(id) && chunks.has(id)) out.set(id, { chunkId: chunks.get(id)!, ...status.get(id)! });
  return out;
}
