/**
 * @module text/terms
 * Which of the query's words the lexical channels look up. A word held by a large share of a large corpus
 * says almost nothing about relevance (its IDF is near zero) but is the most expensive to read: its posting
 * list is the longest. Such words are left out. A query made only of such words finds nothing lexically (in a
 * store of 100,000 chunks, "of at the" read 60% of the index for no meaningful answer).
 */
import type { TermPruningOptions } from "../config/defaults.js";
import { isStopWord } from "./stopwords.js";

export type TermPruning = TermPruningOptions;

export interface TermStats {
  chunks: number;
  df: Map<string, number>;
}

/** True when a word is too common to be worth reading at this corpus size. */
export function isCommon(df: number, chunks: number, pruning: TermPruning): boolean {
  return df > Math.max(Math.min(pruning.fraction * chunks, pruning.maxChunks), pruning.minChunks);
}

export function selectTerms(words: string[], stats: TermStats, pruning: TermPruning): string[] {
  // Stop words are not counted at ingest (they are never indexed as terms), but in any store large enough
  // to prune they are the commonest words of all.
  const large = stats.chunks > pruning.minChunks;
  return words.filter((w) => !(large && isStopWord(w)) && !isCommon(stats.df.get(w) ?? 0, stats.chunks, pruning));
}

/** Inverse document frequency, smoothed so that unseen words get the largest weight. */
export function idf(df: number, chunks: number): number {
  return Math.log(1 + chunks / (1 + df));
}
