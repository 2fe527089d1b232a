/**
 * @module channels/bm25
 * BM25 over chunk bodies: the store ranks the chunks holding the query's words (SQLite: FTS5 with porter
 * stemming, its MATCH expression built inside the backend, so no user string reaches FTS5 syntax). The words are
 * taken rarest first while their lists fit the channel's budget (config/defaults.ts defaultBm25); the rest are
 * reported as skipped.
 */
import { defaultBm25, type Bm25Options } from "../config/defaults.js";
import type { Store } from "../ports/store.js";
import type { Channel, ChannelQuery } from "./channel.js";

export function bm25Channel(store: Store, options: Bm25Options = defaultBm25): Channel {
  return {
    name: "bm25",
    async run(q) {
      if (!q.words.length) return [];
      const words = await wordsWithinBudget(store, q, options.maxPostings);
      return store.searchBody({ words, depth: q.depth, filter: q.filter });
    },
  };
}

/**
 * The query's words, cheapest list first, while the lists fit in `budget`; always the cheapest one. A word's list
 * is at least its own document frequency and at least its index key's (a stemming index files "helped" under
 * "help"), as late interaction estimates it.
 */
export async function wordsWithinBudget(store: Pick<Store, "indexKeys" | "termStats">, q: Pick<ChannelQuery, "words" | "stats" | "report">, budget: number): Promise<string[]> {
  const df = (w: string) => q.stats.df.get(w) ?? 0;
  // words whose own lists sum to half the budget are read without looking up their keys (those would have to be
  // far longer than the words themselves for the budget to bite)
  if (q.words.length === 1 || q.words.reduce((a, w) => a + df(w), 0) * 2 <= budget) return q.words;
  const keyOf = await store.indexKeys(q.words);
  const keys = [...new Set(keyOf.values())].filter((k) => !q.stats.df.has(k));
  const keyDf = keys.length ? (await store.termStats(keys)).df : new Map<string, number>();
  const cost = (w: string) => {
    const key = keyOf.get(w) ?? w;
    return Math.max(df(w), q.stats.df.get(key) ?? keyDf.get(key) ?? 0);
  };
  const ordered = [...q.words].sort((a, b) => cost(a) - cost(b) || (a < b ? -1 : 1));
  let used = 0;
  for (const [i, word] of ordered.entries()) {
    if (i > 0 && used + cost(word) > budget) {
      q.report?.({ limit: budget, used, skipped: ordered.slice(i) });
      return ordered.slice(0, i);
    }
    used += cost(word);
  }
  return q.words;
}
