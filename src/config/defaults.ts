/**
 * @module config/defaults
 * Every tunable number in one place, each with the reason for its value. `resolveSearchOptions`
 * merges a caller's partial options over these once, never mutating either object.
 */
import { STEP_NAMES, type ChannelName, type StepName } from "../model/types.js";

export const defaultWeights: Readonly<Record<ChannelName, number>> = Object.freeze({
  bm25: 1.0, // exact words and identifiers (error codes, names) are the strongest single signal
  dense: 1.0, // paraphrases that share no word with the query
  curated: 0.8, // human-written titles and tags are precise but sparse; slightly below the body channels
  recency: 0.5, // a tie-breaker among relevant candidates, never a reason on its own
  colbert: 1.0, // token-level matching catches what one sentence vector averages away
  time: 1.0, // summary nodes whose window matches the query's time expression; silent without one
  graph: 0.5, // spreading activation from the others' best hits; chosen by leave-one-conversation-out (channels/graph.ts)
});

/** How a time expression in the query acts on the candidates. */
export type TimeMode = "boost" | "restrict" | "off";
export const TIME_MODES: readonly TimeMode[] = ["boost", "restrict", "off"];

export interface TimeAdjustments {
  inWindow: number;
  levelMatch: number;
}

export const defaultTimeAdjustments: Readonly<TimeAdjustments> = Object.freeze({
  /** Score factor for a candidate inside the query's time window (a summary: at least half inside). */
  inWindow: 1.5,
  /** Further factor for a summary at the pyramid level that fits the span (a day node for "last Tuesday"). */
  levelMatch: 1.5,
});

export const defaultSearchOptions = Object.freeze({
  k: 10,
  /** The RRF constant from Cormack et al. (2009); large enough that rank 1 does not dominate. */
  rrfK: 60,
  /**
   * How deep each channel ranks; several times k so that fusion has overlap to work with. Chosen by
   * leave-one-conversation-out: 75 with the session-neighbour step (50 / 75 / 100), then 100 with the speaker
   * step (75 / 100, every fold): deeper lists give both steps more candidates to raise.
   */
  depth: 100,
  /**
   * Recency re-ranks only the memories that some channel placed in its top `recencyPool`:
   * over deeper candidate sets it promoted fresh but weakly related memories (see docs/BENCHMARKS.md).
   */
  recencyPool: 10,
  channels: ["bm25", "dense", "curated", "recency", "colbert", "time", "graph"] as readonly ChannelName[],
  weights: defaultWeights,
  /** A time expression boosts what falls in its window (see query/time.ts); restrict filters instead. */
  time: "boost" as TimeMode,
  /** On: it changes only questions that ask for a summary, an order or every mention (query/coverage.ts). */
  coverage: true,
  /** Channel weights adapt to how much the channels agree on the query (fuse/agreement.ts). */
  agreement: false,
  /** Every read-time step runs (model/types.ts STEP_NAMES). */
  steps: Object.freeze(Object.fromEntries(STEP_NAMES.map((s) => [s, true]))) as Readonly<Record<StepName, boolean>>,
});

export const defaultChunking = Object.freeze({
  /** Upper bound of a chunk in characters (~150 words): short enough that one vector stays specific. */
  maxChars: 900,
  /** Sentences repeated at the start of the next chunk, so that a fact cut at a boundary is still whole once. */
  overlapSentences: 1,
});

export interface LateInteractionOptions {
  /**
   * Relevance floor: the share of the query a chunk must account for (its score over the score of a chunk
   * holding every query token). 0 turns the floor off.
   */
  minCoverage: number;
  expansions: number;
  minSimilarity: number;
  idfWeighting: boolean;
  /** Most index entries (postings) one query may read; rarest words first, the rest skipped and reported. */
  maxPostings: number;
}

/** The BM25 channel's work budget. */
export interface Bm25Options {
  /**
   * Most postings (chunks holding a query word, estimated from the words' document frequencies) one query may
   * have ranked; rarest words first, the rest skipped and reported in `channels.bm25.budget`.
   */
  maxPostings: number;
}

/**
 * FTS5 scores every chunk that holds any query word before it keeps the best: a query's cost is the sum of its
 * words' lists. Pruning leaves out words held by more than 5,000 chunks, but at 1,000,000 chunks a question of
 * six words each just under that reads ~30,000 (bm25 p99 65–86 ms against a p50 of 11). The commonest words carry
 * the least weight, so a budget cuts the least informative reading. At 100,000 chunks the bench's questions sum to
 * 745 postings at the median and 6,158 at the 99th percentile: this budget never bites there, nor in LoCoMo's
 * stores (~600 chunks).
 */
export const defaultBm25: Readonly<Bm25Options> = Object.freeze({ maxPostings: 12_000 });

/** The dense channel: how the query vector is made, and when the channel has no evidence. */
export interface DenseOptions {
  /**
   * "idf": with a word-vector embedder (the default GloVe/SIF one), the query's vector is the mean of its
   * words' vectors weighted by their IDF in this store, so that the words that pick out a memory here steer it
   * (stored vectors keep the store-independent SIF weights). "embedder": the embedder's own vector.
   */
  queryWeighting: "idf" | "embedder";
  /**
   * A vector channel always has a nearest neighbour, so without a floor it returns its whole depth for any
   * query, and recency then orders a pool that is most of a small store.
   * Dense: a chunk is evidence when its similarity to the query stands `denseZ` standard deviations above the
   * query's mean similarity to the store's chunks (its null distribution: most stored texts are unrelated to
   * any one query). Relative to the store, so it holds for any embedder's scale; null turns the floor off.
   */
  denseZ: number | null;
  /**
   * Dense evidence that stands alone: a memory that only the dense channel found (recency aside) is returned
   * only when its similarity stands this many standard deviations out. Below it, dense similarity can support
   * what another channel found but brings nothing in by itself (the way recency never does). The best of ~500
   * unrelated texts is expected about 3 standard deviations out (the maximum of 500 normal draws), so a match
   * that stands less far out is as likely chance as meaning. null: every dense hit stands alone.
   */
  aloneZ: number | null;
}

export interface TermPruningOptions {
  fraction: number;
  minChunks: number;
  maxChunks: number;
}

export const defaultLateInteraction: Readonly<LateInteractionOptions> = Object.freeze({
  /**
   * A fifth of the question: one word of a five-word question matched exactly, or a near-synonym of one of three.
   * Chosen by leave-one-conversation-out among 0, 0.2, 0.3 and 0.4 (0.2 won every fold that picked a coverage
   * setting); 0.3 cost the open-domain category 2 points on LoCoMo. In the demo store 0.2 still lets "kafka
   * consumer lag" return four notes that share only "latency" with it (docs/benchmark-notes.md).
   */
  minCoverage: 0.2,
  /**
   * Nearest corpus words looked up per query token (the token itself included when the corpus has it). On LoCoMo,
   * late interaction alone scored Recall@10 0.605 with 8, 0.642 with 4, 0.650 with 3, 0.653 with 2 and 0.630 with 1
   * (early build); 3 keeps room for a synonym (puppy → dog) beside the word itself. Leave-one-conversation-out
   * (leave-one-conversation-out) chose 2 in all six folds for late interaction alone (cross-validated 0.703 against 0.689), but with
   * 2 the fused open-domain category fell 0.368 → 0.348 (the rule: no category may lose more than a point), so 3 stays.
   */
  expansions: 3,
  /** Words less similar than this to a query token are not worth a posting-list read. */
  minSimilarity: 0.55,
  /** Weight each query token by its IDF in the corpus (see channels/colbert). */
  idfWeighting: true,
  /**
   * The channel's cost is the postings it reads (and scores per chunk). At 1,000,000 chunks the median question
   * reads ~40,000, but a stemming index files every form of a word under one list, and two of 200 bench questions
   * read 364,000 and 498,000 entries (late interaction's p99 153 ms against a p50 of 8 ms). Rarest words first
   * carry the most weight, so a budget cuts the least informative reading; LoCoMo's stores (~600 chunks) never
   * come near it (docs/BENCHMARKS.md).
   */
  maxPostings: 60_000,
});

export const defaultDense: Readonly<DenseOptions> = Object.freeze({
  queryWeighting: "idf",
  denseZ: 1,
  aloneZ: 3,
});

export const defaultTermPruning: Readonly<TermPruningOptions> = Object.freeze({
  /** Words held by more than this share of the chunks are left out of lexical lookups... */
  fraction: 0.05,
  /** ...once they are also held by more than this many chunks: small stores never prune (speed is no issue). */
  minChunks: 2000,
  /**
   * ...and words held by more than this many chunks are left out however large the store: at 1,000,000 chunks 5%
   * is 50,000, and reading lists that long put the fused p95 at 236 ms (89 ms at 10,000; 5,000 took a further
   * ~3 ms off the median of bm25 and of late interaction each, docs/BENCHMARKS.md). Up to 100,000 chunks 5% is
   * the lower bound, so nothing changes there (LoCoMo's stores never prune at all: minChunks).
   */
  maxChunks: 5_000,
});

export const defaultLimits = Object.freeze({
  /** Largest text accepted for one memory. Longer input is a document to split before adding. */
  maxTextChars: 1_000_000,
  maxTitleChars: 1_000,
  maxDescriptionChars: 10_000,
  maxTags: 64,
  /** Largest query accepted; anything longer is not a question. */
  maxQueryChars: 10_000,
  maxK: 1_000,
});

export type SearchOptions = {
  k: number;
  rrfK: number;
  depth: number;
  recencyPool: number;
  channels: readonly ChannelName[];
  weights: Readonly<Record<ChannelName, number>>;
  time: TimeMode;
  /** A question asking for many moments gets one hit per moment first (query/coverage.ts). */
  coverage: boolean;
  /** A channel whose top memories the others do not share on this query counts less (fuse/agreement.ts). */
  agreement: boolean;
  /** Which read-time steps run after fusion (query/search.ts); `coverage: false` also switches coverage off. */
  steps: Readonly<Record<StepName, boolean>>;
};
