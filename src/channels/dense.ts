/**
 * @module channels/dense
 * Nearest chunks to the query's sentence vector (cosine over unit vectors, exact search).
 */
import type { Store } from "../ports/store.js";
import { isZero } from "../vectors/math.js";
import type { Channel } from "./channel.js";

export function denseChannel(store: Store): Channel {
  return {
    name: "dense",
    run: async (q) => (isZero(q.vector) ? [] : store.nearestChunks({ vector: q.vector, depth: q.depth, filter: q.filter })),
  };
}
