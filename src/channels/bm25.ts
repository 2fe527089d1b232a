/**
 * @module channels/bm25
 * BM25 over chunk bodies: the store ranks the chunks holding the query's words (SQLite: FTS5 with porter
 * stemming, its MATCH expression built inside the backend, so no user string reaches FTS5 syntax).
 */
import type { Store } from "../ports/store.js";
import type { Channel } from "./channel.js";

export function bm25Channel(store: Store): Channel {
  return {
    name: "bm25",
    run: async (q) => (q.words.length ? store.searchBody({ words: q.words, depth: q.depth, filter: q.filter }) : []),
  };
}
