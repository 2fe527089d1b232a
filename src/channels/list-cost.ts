/**
 * @module channels/list-cost
 * How many index entries reading a word costs, for the lexical channels' work budgets. A stemming body index files
 * "help", "helped" and "helping" under one key ("innings" under "in", held by a third of the chunks), so a word's
 * list is at least as long as its own document frequency and at least as long as its key's.
 */
import type { Store } from "../ports/store.js";

/**
 * Each word's index key, and its estimated list length. `known` gives the document frequencies already read
 * (undefined for a word not read); the keys not among them are read in one call.
 */
export async function listCosts(
  store: Pick<Store, "indexKeys" | "termStats">,
  words: string[],
  known: (term: string) => number | undefined,
): Promise<{ keyOf: Map<string, string>; cost: (word: string) => number }> {
  const keyOf = await store.indexKeys(words);
  const unread = [...new Set(keyOf.values())].filter((k) => known(k) === undefined);
  const read = unread.length ? (await store.termStats(unread)).df : new Map<string, number>();
  const dfOf = (t: string) => known(t) ?? read.get(t) ?? 0;
  return { keyOf, cost: (w) => Math.max(dfOf(w), dfOf(keyOf.get(w) ?? w)) };
}
