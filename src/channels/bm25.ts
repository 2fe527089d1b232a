/**
 * @module channels/bm25
 * BM25 over chunk bodies through FTS5 (porter stemming, unicode61). The MATCH expression is built by
 * text/fts-query, so no user string reaches FTS5 syntax.
 */
import type { Store } from "../ports/store.js";
import type { Channel } from "./channel.js";

export function bm25Channel(store: Store): Channel {
  return {
    name: "bm25",
    run: async (q) => (q.match ? store.searchBody({ match: q.match, depth: q.depth, filter: q.filter }) : []),
  };
}
