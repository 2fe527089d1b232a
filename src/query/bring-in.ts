/**
 * @module query/bring-in
 * A step that raises memories no channel found (a revised statement's successor, a standing instruction) brings them
 * into the ranking first, read as query/reached reads them.
 */
import type { GraphTime } from "../model/graph.js";
import type { Store } from "../ports/store.js";
import { readReached } from "./reached.js";
import type { Annotated } from "./supersession.js";

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
