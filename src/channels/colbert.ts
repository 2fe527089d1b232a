/**
 * @module channels/colbert
 * Late interaction (ColBERT's MaxSim): a chunk's score is the sum, over the query's tokens, of the best cosine
 * between that token and any token of the chunk. It retrieves on its own: each query token is expanded to its
 * nearest words in the corpus vocabulary, and the chunks holding those words are the candidates. Because a
 * chunk's best match for a token is, in practice, one of that token's nearest words, scoring from the postings
 * gives MaxSim restricted to the expansions without reading any chunk's vectors.
 *
 * Words the model does not know (identifiers such as ECONNRESET) still match themselves with similarity 1.
 */
import { defaultLateInteraction } from "../config/defaults.js";
import type { Ranked } from "../model/types.js";
import type { TokenVectors } from "../ports/embedder.js";
import type { Store } from "../ports/store.js";
import { VectorMatrix } from "../vectors/matrix.js";
import type { Channel } from "./channel.js";

export type LateInteractionOptions = typeof defaultLateInteraction;

/** The corpus vocabulary with the vectors of the words the model knows; grows as the store does. */
class Vocabulary {
  private lastId = 0;
  readonly idOf = new Map<string, number>();
  readonly vectors: VectorMatrix;

  constructor(private readonly tokens: TokenVectors) {
    this.vectors = new VectorMatrix(tokens.dimensions);
  }

  async refresh(store: Store): Promise<void> {
    for (const { id, term } of await store.termsAfter(this.lastId)) {
      this.idOf.set(term, id);
      const v = this.tokens.termVector(term);
      if (v) this.vectors.add(id, v);
      this.lastId = id;
    }
  }
}

/**
 * Each query token's weight: 1 (plain MaxSim), or its inverse document frequency in the corpus. A static model
 * has no context to learn that a name shared by half the conversation says little; IDF supplies it.
 */
async function queryTokenWeights(store: Store, words: string[], vocabulary: Vocabulary, idf: boolean): Promise<number[]> {
  if (!idf) return words.map(() => 1);
  const ids = words.map((w) => vocabulary.idOf.get(w));
  const { chunks, df } = await store.documentFrequencies(ids.filter((id): id is number => id !== undefined));
  return ids.map((id) => Math.log(1 + chunks / (1 + (id === undefined ? 0 : (df.get(id) ?? 0)))));
}

export function colbertChannel(store: Store, tokens: TokenVectors, options: Partial<LateInteractionOptions> = {}): Channel {
  const opts = { ...defaultLateInteraction, ...options };
  const vocabulary = new Vocabulary(tokens);
  return {
    name: "colbert",
    async run(q) {
      if (q.words.length === 0) return [];
      await vocabulary.refresh(store);
      // For each query token: which corpus terms stand in for it, and how similar each is.
      const expansions = q.words.map((word) => {
        const similar = new Map<number, number>();
        const exact = vocabulary.idOf.get(word);
        if (exact !== undefined) similar.set(exact, 1);
        const v = tokens.termVector(word);
        if (v) {
          for (const n of vocabulary.vectors.nearest(v, opts.expansions)) {
            if (n.similarity >= opts.minSimilarity && !similar.has(n.key)) similar.set(n.key, n.similarity);
          }
        }
        return similar;
      });
      const termIds = [...new Set(expansions.flatMap((e) => [...e.keys()]))];
      const weights = await queryTokenWeights(store, q.words, vocabulary, opts.idfWeighting);
      const postings = await store.postings({ termIds, filter: q.filter });
      const termsOfChunk = new Map<number, { memoryId: string; terms: Set<number> }>();
      for (const p of postings) {
        let entry = termsOfChunk.get(p.chunkId);
        if (!entry) termsOfChunk.set(p.chunkId, (entry = { memoryId: p.memoryId, terms: new Set() }));
        entry.terms.add(p.termId);
      }
      const scored: Ranked[] = [];
      for (const [chunkId, { memoryId, terms }] of termsOfChunk) {
        let score = 0;
        expansions.forEach((similar, i) => {
          let best = 0;
          for (const t of terms) best = Math.max(best, similar.get(t) ?? 0);
          score += weights[i] * best;
        });
        scored.push({ chunkId, memoryId, score });
      }
      scored.sort((a, b) => b.score - a.score || a.chunkId - b.chunkId);
      return scored.slice(0, q.depth);
    },
  };
}
