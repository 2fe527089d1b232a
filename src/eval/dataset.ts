/**
 * @module eval/dataset
 * What every retrieval evaluation reads, whatever the benchmark's file format (eval/readers/*): conversations,
 * each loaded into a fresh store, and the questions asked of it with their evidence — ids of the conversation's
 * items. One evaluator (eval/evaluate.ts) and one cross-validation (eval/cv.ts) score them all.
 */
import type { MemoryInput } from "../model/types.js";

/** One stored item (a turn, a message, a memory) and the benchmark's own id for it. */
export interface EvalItem {
  id: string;
  input: MemoryInput;
}

export interface EvalQuestion {
  question: string;
  /** Ids of the items that answer it; a question without evidence (abstention) is counted, never scored. */
  evidence: string[];
  category: string | number;
  /** When it is asked (ISO 8601); default: the day after the conversation's last item. */
  now?: string;
  /** A knowledge update: the superseded evidence and what replaced it (both also in `evidence`). */
  update?: { original: string[]; updated: string[] };
  /** Gold sessions, when the benchmark also scores at session level (an item's session is its `input.session`). */
  sessions?: string[];
}

export interface EvalConversation {
  name: string;
  turns: EvalItem[];
  questions: EvalQuestion[];
  /** The dataset it came from, when several are evaluated together (`eval mixed`): the unit a fold leaves out. */
  dataset?: string;
}

/**
 * The day after the conversation's last dated item: questions are asked after it, for time expressions
 * (undefined when nothing is dated: the engine's clock then).
 */
export function askedAfter(conv: EvalConversation): string | undefined {
  const times = conv.turns.map((t) => Date.parse(t.input.at ?? "")).filter((t) => !Number.isNaN(t));
  return times.length ? new Date(Math.max(...times) + 86_400_000).toISOString() : undefined;
}

/** The questions that are scored: those with evidence. */
export const scored = (conv: EvalConversation): EvalQuestion[] => conv.questions.filter((q) => q.evidence.length > 0);
