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
import type { Annotated } from "./supersession.js";

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

/**
 * The ranked hits by memory id, with those of `ids` no channel found brought in (at score 0, to be raised by the
 * step that asked for them) when they may be shown; `ranked` gains them in place.
 */
export async function bringIn(
  store: Store,
  ranked: Annotated[],
  ids: string[],
  time: GraphTime,
  admissible: (memoryIds: string[]) => Promise<Set<string>>,
): Promise<Map<string, Annotated>> {
  const byId = new Map(ranked.map((a) => [a.memoryId, a]));
  const missing = ids.filter((id) => !byId.has(id));
  if (missing.length === 0) return byId;
  for (const [id, reached] of await readReached(store, missing, time, admissible)) {
    const a: Annotated = { memoryId: id, ranks: {}, sourcesHit: [], rrf: 0, ...reached, score: 0, adjustments: [] };
    byId.set(id, a);
    ranked.push(a);
  }
  return byId;
}
