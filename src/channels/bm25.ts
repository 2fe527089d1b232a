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
import { listCosts } from "./list-cost.js";
import { isStopWord } from "../text/stopwords.js";

export function bm25Channel(store: Store, options: Bm25Options = defaultBm25): Channel {
  return {
    name: "bm25",
    async run(q) {
      if (!q.words.length) return [];
      const words = await wordsWithinBudget(store, q, options.maxPostings);
      if (!words.length) return [];
      return store.searchBody({ words, depth: q.depth, filter: q.filter });
    },
  };
}

/** The cheapest word is read over the budget, but not over this many times it (a word filed under a stop word). */
export const CHEAPEST_CEILING = 10;

/**
 * The query's words, cheapest list first (channels/list-cost.ts), while the lists fit in `budget`; always the
 * cheapest one, unless its list is over CHEAPEST_CEILING budgets ("innings", which FTS5 files under "in": ranking
 * a third of a 1,000,000-chunk store took 400 ms, and the ranking by "in" says nothing about innings).
 */
export async function wordsWithinBudget(store: Pick<Store, "indexKeys" | "termStats">, q: Pick<ChannelQuery, "words" | "stats" | "report">, budget: number): Promise<string[]> {
  // words whose own lists sum to half the budget are read without reading their keys' counts (those would have to
  // be far longer than the words themselves for the budget to bite), unless a key is a stop word, which has none
  const keys = await store.indexKeys(q.words);
  const underStopWord = q.words.some((w) => isStopWord(keys.get(w) ?? w));
  if (!underStopWord && q.words.reduce((a, w) => a + (q.stats.df.get(w) ?? 0), 0) * 2 <= budget) return q.words;
  const { cost } = await listCosts(store, q.words, (t) => q.stats.df.get(t), q.stats.chunks, keys);
  const ordered = [...q.words].sort((a, b) => cost(a) - cost(b) || (a < b ? -1 : 1));
  let used = 0;
  for (const [i, word] of ordered.entries()) {
    if (i > 0 ? used + cost(word) > budget : cost(word) > CHEAPEST_CEILING * budget) {
      q.report?.({ limit: budget, used, skipped: ordered.slice(i) });
      return ordered.slice(0, i);
    }
    used += cost(word);
  }
  return q.words;
}
