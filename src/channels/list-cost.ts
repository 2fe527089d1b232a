/**
 * @module channels/list-cost
 * How many index entries reading a word costs, for the lexical channels' work budgets. A stemming body index files
 * "help", "helped" and "helping" under one key ("innings" under "in", held by a third of the chunks), so a word's
 * list is at least as long as its own document frequency and at least as long as its key's. The store counts
 * content words only: a key that is a stop word ("used" and "using" are filed under "us", "one" under "on") has
 * no count, and its list is taken to be the whole store. At 1,000,000 chunks "innings" cost BM25 400 ms and late
 * interaction a 900,000-entry read before this.
 */
import type { Store } from "../ports/store.js";
import { isStopWord } from "../text/stopwords.js";

/**
 * Each word's index key, and its estimated list length. `known` gives the document frequencies already read
 * (undefined for a word not read); the keys not among them are read in one call. `chunks`: the store's size.
 * `keys`: the words' index keys when the caller has read them already.
 */
export async function listCosts(
  store: Pick<Store, "indexKeys" | "termStats">,
  words: string[],
  known: (term: string) => number | undefined,
  chunks: number,
  keys?: Map<string, string>,
): Promise<{ keyOf: Map<string, string>; cost: (word: string) => number }> {
  const keyOf = keys ?? (await store.indexKeys(words));
  const unread = [...new Set(keyOf.values())].filter((k) => known(k) === undefined && !isStopWord(k));
  const read = unread.length ? (await store.termStats(unread)).df : new Map<string, number>();
  const dfOf = (t: string) => (isStopWord(t) ? chunks : (known(t) ?? read.get(t) ?? 0));
  return { keyOf, cost: (w) => Math.max(dfOf(w), dfOf(keyOf.get(w) ?? w)) };
}
