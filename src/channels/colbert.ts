/**
 * @module channels/colbert
 * Late interaction (ColBERT's MaxSim): a chunk's score is the sum, over the query's tokens, of the best cosine
 * between that token and any token of the chunk, each token weighted by its IDF. It retrieves on its own: each
 * query token is expanded to its nearest words in the corpus vocabulary, and the chunks holding those words
 * (read from the body's FTS5 index, so word forms that share a stem match too) are the candidates. Because a
 * chunk's best match for a token is, in practice, one of that token's nearest words, scoring from these lists
 * gives MaxSim restricted to the expansions without reading any chunk's vectors.
 *
 * Words the model does not know (identifiers such as ECONNRESET) still match themselves with similarity 1.
 */
import { defaultLateInteraction, type LateInteractionOptions } from "../config/defaults.js";
import type { Ranked } from "../model/types.js";
import type { TokenVectors } from "../ports/embedder.js";
import type { Store } from "../ports/store.js";
import { isStopWord } from "../text/stopwords.js";
import { idf, isCommon } from "../text/terms.js";
import { VectorMatrix, type Neighbour } from "../vectors/matrix.js";
import { listCosts } from "./list-cost.js";
import type { Channel, ChannelQuery } from "./channel.js";

export type { LateInteractionOptions };

/** Query words whose nearest corpus words are remembered (a few hundred KB). */
const REMEMBERED_WORDS = 10_000;
/** Most similar first; equal similarities by term id, so a search in two steps orders them as one search would. */
const bySimilarity = (a: Neighbour, b: Neighbour) => b.similarity - a.similarity || a.key - b.key;

/** The corpus vocabulary with the vectors of the words the model knows; grows as the store does. */
class Vocabulary {
  private lastId = 0;
  private readonly terms = new Map<number, string>();
  private readonly known = new Set<string>();
  private readonly remembered = new Map<string, { rows: number; neighbours: Neighbour[] }>();
  /** Vectors of the words the model knows, keyed by term id. */
  readonly vectors: VectorMatrix;

  constructor(private readonly tokens: TokenVectors) {
    this.vectors = new VectorMatrix(tokens.dimensions);
  }

  /**
   * The `k` corpus words nearest to a query word, most similar first. Remembered per word (queries repeat
   * their words): the matrix only grows, so a remembered answer is brought up to date by searching just the rows
   * added since, and equals a search of the whole matrix. This search was ~1.6 ms of a 12 ms query at 100,000
   * chunks (one scan of the vocabulary per query word).
   */
  nearestWords(word: string, vector: Float32Array, k: number): Neighbour[] {
    const rows = this.vectors.count;
    const known = this.remembered.get(word);
    let neighbours: Neighbour[];
    if (known && known.rows === rows) neighbours = known.neighbours;
    else {
      const added = this.vectors.nearest(vector, k, known?.rows ?? 0);
      neighbours = [...(known?.neighbours ?? []), ...added].sort(bySimilarity).slice(0, k);
    }
    this.remembered.delete(word); // re-inserted last: the Map's order is least recently used first
    this.remembered.set(word, { rows, neighbours });
    if (this.remembered.size > REMEMBERED_WORDS) this.remembered.delete(this.remembered.keys().next().value!);
    return neighbours;
  }

  async refresh(store: Store): Promise<void> {
    for (const { id, term } of await store.termsAfter(this.lastId)) {
      this.terms.set(id, term);
      this.known.add(term);
      const v = this.tokens.termVector(term);
      if (v) this.vectors.add(id, v);
      this.lastId = id;
    }
  }

  has(term: string): boolean {
    return this.known.has(term);
  }

  termOf(id: number): string {
    return this.terms.get(id)!;
  }
}

export function colbertChannel(store: Store, tokens: TokenVectors, options: Partial<LateInteractionOptions> = {}): Channel {
  const opts = { ...defaultLateInteraction, ...options };
  const vocabulary = new Vocabulary(tokens);
  return {
    name: "colbert",
    async run(q) {
      if (q.words.length === 0) return [];
      await vocabulary.refresh(store);
      // For each query token: which corpus words stand in for it, and how similar each is.
      const expansions = q.words.map((word) => expand(word, vocabulary, tokens, opts));
      const expansionTerms = [...new Set(expansions.flatMap((e) => [...e.keys()]))];
      // Expansions common enough to be near-stop-words are not read, as for the query's own words. Their index keys'
      // counts (the lists' costs, below) come in the same read: one round trip, not two, on a networked store.
      const keys = await store.indexKeys(expansionTerms);
      const unknown = [...new Set([...expansionTerms, ...keys.values()])].filter((t) => !q.stats.df.has(t) && !isStopWord(t));
      const expansionStats = await store.termStats(unknown);
      const dfOf = (t: string) => q.stats.df.get(t) ?? expansionStats.df.get(t) ?? 0;
      const readable = new Set(expansionTerms.filter((t) => q.words.includes(t) || !isCommon(dfOf(t), q.stats.chunks, q.pruning)));
      // A stemming body index files "help", "helped" and "helping" under one key, so they share one list: read
      // it once, and let each query token take the best similarity among the variants.
      const { keyOf, cost: costOf } = await listCosts(store, [...readable], (t) => q.stats.df.get(t) ?? expansionStats.df.get(t), q.stats.chunks, keys);
      const representative = new Map<string, string>();
      const stemSimilarities = expansions.map((similar) => {
        const byStem = new Map<string, number>();
        for (const [term, similarity] of similar) {
          if (!readable.has(term)) continue;
          const stem = keyOf.get(term) ?? term;
          if (!representative.has(stem)) representative.set(stem, term);
          byStem.set(stem, Math.max(byStem.get(stem) ?? 0, similarity));
        }
        return byStem;
      });
      const lists = await readWithinBudget(store, [...representative.values()], costOf, opts.maxPostings, q);
      const weights = q.words.map((w) => (opts.idfWeighting ? idf(q.stats.df.get(w) ?? 0, q.stats.chunks) : 1));
      const scores = maxSim(stemSimilarities, (stem) => lists.get(representative.get(stem)!) ?? [], weights);
      // Relevance floor: a chunk must account for a share of the question. A perfect chunk holds every query
      // token (score = the sum of the weights); one that only holds a near-synonym of a minor word explains
      // almost none of it and is no evidence, however few other candidates there are.
      const floor = opts.minCoverage * weights.reduce((a, b) => a + b, 0);
      const top = bestAbove(scores, floor, q.depth);
      const owners = await store.memoryIdsOfChunks(top.map((t) => t.chunkId));
      // a chunk deleted meanwhile (by another process) has no owner: it is not a candidate any more
      return top.filter((t) => owners.has(t.chunkId)).map((t): Ranked => ({ chunkId: t.chunkId, memoryId: owners.get(t.chunkId)!, score: t.score }));
    },
  };
}

/**
 * The index lists of these words, cheapest first, while they fit in `budget` entries; the words left over are
 * reported as skipped. `costOf` estimates a list's length (the larger of the word's and its index key's document
 * frequency: a stemming index files "innings" under "in"); the entries actually read count too, as estimates can be
 * short (a list found longer than what is left of the budget is dropped unscored). The cheapest lists are the rarest words, which carry the most IDF weight, so what a budget leaves out is
 * the least informative reading. At 1,000,000 chunks two bench questions read 364,000 and 498,000 entries this way.
 */
export async function readWithinBudget(
  store: Pick<Store, "chunksWithTerms">,
  terms: string[],
  costOf: (t: string) => number,
  budget: number,
  q: Pick<ChannelQuery, "filter" | "report">,
): Promise<Map<string, number[]>> {
  const ordered = [...terms].sort((a, b) => costOf(a) - costOf(b) || (a < b ? -1 : 1));
  const lists = new Map<string, number[]>();
  let fetched = new Map<string, number[]>();
  let used = 0;
  for (const [i, term] of ordered.entries()) {
    if (used + costOf(term) > budget) {
      q.report?.({ limit: budget, used, skipped: ordered.slice(i) });
      break;
    }
    if (!fetched.has(term)) {
      // the lists that fit if each is as long as estimated, in one call: a store that reads on another thread
      // (or server) answers them together instead of one round trip a word
      const batch: string[] = [];
      let room = budget - used;
      for (const t of ordered.slice(i)) {
        if (costOf(t) > room) break;
        batch.push(t);
        room -= costOf(t);
      }
      fetched = await store.chunksWithTerms({ terms: batch, filter: q.filter });
    }
    const list = fetched.get(term) ?? [];
    if (used + list.length > budget) {
      // longer than estimated: reading it cost an index scan, but scoring it would cost far more
      q.report?.({ limit: budget, used, skipped: ordered.slice(i) });
      break;
    }
    lists.set(term, list);
    used += list.length;
  }
  return lists;
}

/**
 * Scratch space kept between queries (a channel scores one query at a time: maxSim never awaits): a search
 * touches thousands of chunks, and fresh maps and arrays for each cost ~1 MB of garbage a query at 100,000 chunks.
 * `slotOf[chunkId]` is the chunk's slot + 1 (0: not seen), reset after each query for the chunks it touched.
 */
const scratch = { slotOf: new Int32Array(1024), chunkOf: new Int32Array(1024), best: new Float32Array(1024), score: new Float64Array(1024) };
/** Chunk ids above this are scored through a Map rather than an array indexed by id (bounds the scratch memory). */
const MAX_INDEXED_CHUNK_ID = 32_000_000;

/** The candidates' scores: `chunkOf[slot]` and `score[slot]` for slots 0 … count − 1 (views of the scratch). */
interface SlotScores {
  count: number;
  chunkOf: Int32Array;
  score: Float64Array;
}

const grownTo = <T extends Int32Array | Float32Array | Float64Array>(a: T, size: number): T => {
  if (size <= a.length) return a;
  const next = new (a.constructor as new (n: number) => T)(Math.max(size, a.length * 2));
  next.set(a);
  return next;
};

/**
 * Each candidate chunk's late-interaction score: the sum over query tokens of the token's weight times the best
 * similarity of any of its stand-ins the chunk holds. Its own function, and the sort outside it: V8 compiled these
 * hot loops on the fly (on-stack replacement) together with the code after them, which had not run yet, and threw
 * that code away at the sort on every query: ~2 ms of recompilation per query at 100,000 chunks.
 */
function maxSim(stemSimilarities: Map<string, number>[], chunksOf: (stem: string) => readonly number[], weights: number[]): SlotScores {
  // best[slot * n + i]: the best similarity between query token i and any word of the chunk in `slot`
  const n = weights.length;
  let maxId = 0;
  for (const byStem of stemSimilarities) for (const stem of byStem.keys()) for (const id of chunksOf(stem)) if (id > maxId) maxId = id;
  const byMap = maxId > MAX_INDEXED_CHUNK_ID ? new Map<number, number>() : null;
  if (!byMap) scratch.slotOf = grownTo(scratch.slotOf, maxId + 1);
  const slotOf = scratch.slotOf;
  let count = 0;
  stemSimilarities.forEach((byStem, i) => {
    for (const [stem, similarity] of byStem) {
      for (const chunkId of chunksOf(stem)) {
        let slot = byMap ? (byMap.get(chunkId) ?? -1) : slotOf[chunkId] - 1;
        if (slot < 0) {
          slot = count++;
          if (byMap) byMap.set(chunkId, slot);
          else slotOf[chunkId] = slot + 1;
          if (count > scratch.chunkOf.length) scratch.chunkOf = grownTo(scratch.chunkOf, count);
          if (count * n > scratch.best.length) scratch.best = grownTo(scratch.best, count * n);
          scratch.chunkOf[slot] = chunkId;
          scratch.best.fill(0, slot * n, slot * n + n);
        }
        if (similarity > scratch.best[slot * n + i]) scratch.best[slot * n + i] = similarity;
      }
    }
  });
  scratch.score = grownTo(scratch.score, count);
  const { chunkOf, best, score } = scratch;
  for (let slot = 0; slot < count; slot++) {
    let sum = 0;
    for (let i = 0; i < n; i++) sum += weights[i] * best[slot * n + i];
    score[slot] = sum;
    if (!byMap) slotOf[chunkOf[slot]] = 0; // left clean for the next query
  }
  return { count, chunkOf, score };
}

/** The `depth` best-scoring chunks at or above `floor`, highest first, ties by chunk id. */
function bestAbove(s: SlotScores, floor: number, depth: number): { chunkId: number; score: number }[] {
  const kept: number[] = [];
  for (let slot = 0; slot < s.count; slot++) if (s.score[slot] >= floor) kept.push(slot);
  kept.sort((a, b) => s.score[b] - s.score[a] || s.chunkOf[a] - s.chunkOf[b]);
  return kept.slice(0, depth).map((slot) => ({ chunkId: s.chunkOf[slot], score: s.score[slot] }));
}

/** The corpus words that stand in for one query token, with their cosine to it (the token itself scores 1). */
function expand(word: string, vocabulary: Vocabulary, tokens: TokenVectors, opts: LateInteractionOptions): Map<string, number> {
  const similar = new Map<string, number>();
  if (vocabulary.has(word)) similar.set(word, 1);
  const v = tokens.termVector(word);
  if (v) {
    for (const n of vocabulary.nearestWords(word, v, opts.expansions)) {
      const term = vocabulary.termOf(n.key);
      // stop words sit close to many words in GloVe space ("help" → "to") and hold most chunks: never expand to one
      if (n.similarity >= opts.minSimilarity && !similar.has(term) && !isStopWord(term)) similar.set(term, n.similarity);
    }
  }
  return similar;
}
