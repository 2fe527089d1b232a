/**
 * @module channels/curated
 * BM25 over what a person wrote about a memory: its title, description and tags. Sparse but precise.
 */
import type { Store } from "../ports/store.js";
import type { Channel } from "./channel.js";

export function curatedChannel(store: Store): Channel {
  return {
    name: "curated",
    run: async (q) => (q.words.length ? store.searchCurated({ words: q.words, depth: q.depth, filter: q.filter }) : []),
  };
}
