/**
 * @module channels/dense
 * Nearest chunks to the query's sentence vector (cosine over unit vectors, exact search), down to a relevance
 * floor. A vector search always has neighbours, even for "zzzzqqq nonsense"; the floor keeps only chunks whose
 * similarity stands out from the query's null distribution (its similarity to the store's chunks, most of which
 * are unrelated to it): mean + z standard deviations. GloVe/SIF vectors share a large common direction (random
 * LoCoMo turns have cosine ≈ 0.8 with each other), so a fixed cosine threshold would mean nothing across stores
 * or embedders; a threshold in standard deviations of the store's own distribution does. Hits between the
 * floor and the stand-alone threshold are marked weak: they support, never introduce (query/evidence.ts).
 */
import { isUnsupported } from "../errors.js";
import type { DenseOptions } from "../config/defaults.js";
import type { TokenVectors } from "../ports/embedder.js";
import type { Store } from "../ports/store.js";
import { isZero } from "../vectors/math.js";
import type { Channel } from "./channel.js";
import { idfQueryVector } from "./dense-query.js";

/**
 * `tokens`: the embedder's own word vectors when it is a word-vector embedder (then the query can be weighted
 * by the store, see dense-query); null for any other embedder.
 */
export function denseChannel(store: Store, options: DenseOptions, tokens: TokenVectors | null = null): Channel {
  const floorZ = options.denseZ;
  const aloneZ = options.aloneZ;
  return {
    name: "dense",
    async run(q) {
      const vector = tokens && options.queryWeighting === "idf" ? idfQueryVector(q.text, q.stats, tokens) : q.vector;
      if (isZero(vector)) return [];
      const list = await store.nearestChunks({ vector, depth: q.depth, filter: q.filter, alongside: true });
      if ((floorZ === null && aloneZ === null) || list.length === 0) return list;
      const sample = await store.similarityNull(vector).catch((err) => {
        if (isUnsupported(err)) return null;
        throw err;
      });
      if (sample === null) return list;
      const { mean, sd, rows } = sample;
      // with fewer than a handful of stored chunks there is no distribution to stand out from
      if (rows < 5) return list;
      const floor = floorZ === null ? -Infinity : mean + floorZ * sd;
      const alone = aloneZ === null ? -Infinity : mean + aloneZ * sd;
      return list.filter((r) => r.score >= floor).map((r) => (r.score >= alone ? r : { ...r, weak: true }));
    },
  };
}
