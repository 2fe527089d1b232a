/**
 * @module query/cue
 * A conversational cue: an agent that passes the recent dialogue to search ("Bart: I'm going to perform a magic
 * trick at the party!\nAssistant: ...\nBart: what should I wear?") asks with a whole conversation, not a question.
 * Two things change with that shape:
 * - The vector channels blur. The dense channel's question vector is the mean of every word of the dialogue, and
 *   late interaction's floor (a fifth of the question's words) asks little of a chunk: on MADial's cues dense alone
 *   finds 0.135 of the evidence and late interaction 0.069, against BM25's 0.406, and their votes carried weakly
 *   related memories above BM25's first (fused 0.342). So for a cue both weigh `CUE_VECTOR_FACTOR` of their weight.
 * - The people who talk in it are whom it is about (query/speakers.ts raises the notes that name them).
 */
import type { ChannelName } from "../model/types.js";

/**
 * Chosen by leave-one-language-out on MADial over {1, 0.5, 0.25, 0} (with the about-step on): the Chinese fold chose 0
 * (English then 0.537), the English fold 0.25 (Chinese then 0.364); in-sample 0.25 gives 0.456 against 0.412 at 1.
 * A question of one line (LoCoMo, BEAM) is not a cue and is untouched.
 */
export const CUE_VECTOR_FACTOR = 0.25;

/**
 * The people who talk in a conversational cue: a question of several lines, at least two of them opening with a
 * speaker's label ("Bart: ..."). None for a question of one line.
 */
export function cueSpeakers(question: string): string[] {
  const lines = question.split("\n");
  if (lines.length < 2) return [];
  const labels = lines.map((line) => /^\s*([^\s:：][^:：]{0,30}?)\s*[:：]\s*\S/u.exec(line)?.[1]).filter((l): l is string => l !== undefined);
  return labels.length >= 2 ? [...new Set(labels)] : [];
}

/** The channel weights a cue is searched with: the vector channels' scaled down, the others as given. */
export function cueWeights(weights: Readonly<Record<ChannelName, number>>): Record<ChannelName, number> {
  return { ...weights, dense: weights.dense * CUE_VECTOR_FACTOR, colbert: weights.colbert * CUE_VECTOR_FACTOR };
}
