/**
 * @module channels/dense-query
 * The dense channel's query vector, weighted by this store. SIF weights a word by its frequency in the
 * embedder's training corpus, which is the right prior for stored vectors (they must not change as the store
 * grows), but a question is best represented by the words that are rare HERE: in a chat between Caroline and
 * Melanie, "Caroline" says little and "adoption" a lot. The query is short and made at query time, so it can
 * use the store's document frequencies: each distinct content word's unit vector, weighted by its IDF in the
 * store, summed and normalised. On LoCoMo this took dense alone from Recall@10 0.416 to 0.471 (docs).
 */
import type { TokenVectors } from "../ports/embedder.js";
import { distinctContentWords } from "../text/tokenize.js";
import { idf, type TermStats } from "../text/terms.js";
import { normalizeInPlace } from "../vectors/math.js";

/** The IDF-weighted mean of the query's known words' vectors (the zero vector when it knows none). */
export function idfQueryVector(text: string, stats: TermStats, tokens: TokenVectors): Float32Array {
  const sum = new Float32Array(tokens.dimensions);
  let known = 0;
  for (const w of distinctContentWords(text)) {
    const v = tokens.termVector(w);
    if (!v) continue;
    const weight = idf(stats.df.get(w) ?? 0, stats.chunks);
    for (let i = 0; i < sum.length; i++) sum[i] += weight * v[i];
    known++;
  }
  return known === 0 ? sum : normalizeInPlace(sum);
}
