/**
 * @module query/filter
 * The search filter on memories the query holds only by id: fetched, then tested in memory (model/filter.ts).
 */
import { memoryPassesFilter } from "../model/matching.js";
import type { SearchFilter } from "../model/types.js";
import type { Store } from "../ports/store.js";

export { memoryPassesFilter };

/** The memories (of those given) that exist and pass the filter. */
export async function memoriesPassing(store: Store, ids: Iterable<string>, f: SearchFilter): Promise<Set<string>> {
  const found = await store.getMemories([...ids]);
  return new Set([...found].filter(([, m]) => memoryPassesFilter(m, f)).map(([id]) => id));
}
