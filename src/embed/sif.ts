/**
 * @module embed/sif
 * The default offline embedder: Smooth Inverse Frequency sentence vectors over static word vectors
 * (Arora, Liang and Ma, "A Simple but Tough-to-Beat Baseline for Sentence Embeddings", ICLR 2017).
 * A sentence is the weighted mean of its word vectors, weight a / (a + p(w)), with p(w) estimated from the
 * word's frequency rank by Zipf's law; then the common component (the first principal direction shared by
 * all sentences) is removed. Everything here is a pure function of the text: no corpus state, so a vector
 * never changes after it is stored.
 */
import type { Embedder, TokenVectors } from "../ports/embedder.js";
import { contentWords, words } from "../text/tokenize.js";
import type { WordVectorTable } from "./glove-cache.js";
import { dot, normalizeInPlace, removeComponentInPlace } from "../vectors/math.js";
import { letIoInEvery, letIoInNow } from "../event-loop.js";

export interface SifOptions {
  a: number;
  removeCommonComponent: boolean;
  componentSampleWords: number;
  dropStopWords: boolean;
}

export const defaultSifOptions: Readonly<SifOptions> = Object.freeze({
  /** Arora et al. found a in [1e-4, 1e-3] best; 1e-3 keeps mid-frequency content words near full weight. */
  a: 1e-3,
  /**
   * Removing the first principal direction (estimated from frequent word vectors) cost 0.03 Recall@10 on LoCoMo
   * (0.416 → 0.389 for the dense channel alone), so it is off by default (see docs/BENCHMARKS.md).
   */
  removeCommonComponent: false,
  /** Words used to estimate the common direction: the most frequent ones dominate every sentence's mean. */
  componentSampleWords: 10_000,
  /** Function words are left out of the mean entirely: +0.013 Recall@10 on LoCoMo over SIF weighting alone. */
  dropStopWords: true,
});


/** Zipf estimate of a word's unigram probability from its frequency rank (0-based). */
function zipfProbability(rank: number, vocabularySize: number): number {
  const harmonic = Math.log(vocabularySize) + 0.5772;
  return 1 / ((rank + 1) * harmonic);
}

/** First principal direction of the SIF-weighted frequent word vectors, by power iteration (deterministic). */
function commonComponent(table: WordVectorTable, weightOf: (rank: number) => number, sample: number): Float32Array {
  const d = table.dimensions;
  const n = Math.min(sample, table.count);
  const rows = new Float32Array(n * d);
  const tmp = new Float32Array(d);
  for (let r = 0; r < n; r++) {
    table.vectorAt(r, tmp);
    // each row weighted by how much it contributes to an average sentence: frequency times SIF weight
    const w = Math.sqrt(zipfProbability(r, table.count)) * weightOf(r);
    for (let i = 0; i < d; i++) rows[r * d + i] = tmp[i] * w;
  }
  let u: Float32Array = new Float32Array(d).fill(1 / Math.sqrt(d));
  for (let iter = 0; iter < 15; iter++) {
    const next = new Float32Array(d);
    for (let r = 0; r < n; r++) {
      const row = rows.subarray(r * d, (r + 1) * d);
      const p = dot(row, u);
      for (let i = 0; i < d; i++) next[i] += p * row[i];
    }
    u = normalizeInPlace(next);
  }
  return u;
}

/** The GloVe table's width: the default vector space's size, known before its vectors are read. */
export const GLOVE_DIMENSIONS = 100;

/** The name of the vector space SIF makes from a table with these options (what a store is stamped with). */
export function sifEmbedderId(options: Partial<SifOptions> = {}): string {
  const opts = { ...defaultSifOptions, ...options };
  return `glove-wink-sg-100d/sif${opts.dropStopWords ? "-content" : ""}${opts.removeCommonComponent ? "-pc1" : ""}`;
}

export class SifEmbedder implements Embedder, TokenVectors {
  readonly id: string;
  readonly dimensions: number;
  private readonly a: number;
  private readonly vocab: number;
  private readonly component: Float32Array | null;
  private readonly dropStopWords: boolean;

  constructor(
    private readonly table: WordVectorTable,
    options: Partial<SifOptions> = {},
  ) {
    const opts = { ...defaultSifOptions, ...options };
    this.dimensions = table.dimensions;
    this.dropStopWords = opts.dropStopWords;
    this.id = sifEmbedderId(opts);
    this.a = opts.a;
    this.vocab = table.count;
    this.component = opts.removeCommonComponent
      ? commonComponent(table, (r) => this.weightOf(r), opts.componentSampleWords)
      : null;
  }

  embedOne(text: string): Float32Array {
    const d = this.dimensions;
    const sum = new Float32Array(d);
    const tmp = new Float32Array(d);
    let known = 0;
    for (const w of (this.dropStopWords ? contentWords(text) : words(text))) {
      const rank = this.table.rankOf.get(w);
      if (rank === undefined) continue;
      this.table.vectorAt(rank, tmp);
      const weight = this.weightOf(rank);
      for (let i = 0; i < d; i++) sum[i] += weight * tmp[i];
      known++;
    }
    if (known === 0) return sum;
    if (this.component) removeComponentInPlace(sum, this.component);
    return normalizeInPlace(sum);
  }

  /**
   * A word's SIF weight, computed when the word is met: a table of all 200,000 cost 0.02–0.03 s of CPU per process.
   * Rounded to 32 bits as that table's Float32Array stored it, so that every vector stays what it was.
   */
  private weightOf(rank: number): number {
    return Math.fround(this.a / (this.a + zipfProbability(rank, this.vocab)));
  }

  async embed(texts: string[]): Promise<Float32Array[]> {
    const out: Float32Array[] = [];
    for (const [i, t] of texts.entries()) {
      // embedding runs on the one thread: a long call lets a write's answer in. A search embeds too (its context's
      // sentences): this pause never waits for searches, or a search would wait for itself; a write's embedding
      // slices (ingest/prepare) wait for them between slices
      await letIoInEvery(i, letIoInNow);
      out.push(this.embedOne(t));
    }
    return out;
  }

  /** The model's words in descending frequency. */
  vocabulary(): readonly string[] {
    return this.table.words;
  }

  termVector(term: string): Float32Array | null {
    const rank = this.table.rankOf.get(term);
    if (rank === undefined) return null;
    return this.table.vectorAt(rank, new Float32Array(this.dimensions));
  }
}
