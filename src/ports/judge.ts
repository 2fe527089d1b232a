/**
 * @module ports/judge
 * Decides whether a newer memory revises (supersedes) an older one. The default is offline and rule-based
 * (graph/cue-judge); an OpenAI-compatible chat model can stand in (graph/chat-judge).
 */

export interface JudgedMemory {
  text: string;
  at: string;
}

export interface Verdict {
  /** 0..1: how sure the judge is that `newer` replaces (or refines) `older`. */
  confidence: number;
  /** One line a person can check. */
  reason: string;
  /** "refines": the newer memory keeps the older fact and adjusts or adds to it (a delay); default "supersedes". */
  type?: "supersedes" | "refines";
  /** The older memory's sentence whose fact changed, when the rest of it still stands; absent: all of it. */
  statement?: string;
}

export interface RevisionJudge {
  readonly id: string;
  readonly provenance: "heuristic" | "llm";
  judge(older: JudgedMemory, newer: JudgedMemory): Promise<Verdict>;
  /**
   * A cheap test, before any lookup, that a text may revise something at all; false only when the judge would
   * find nothing in it whatever it were compared with. Without it, every new memory is judged.
   */
  mayRevise?(text: string): boolean;
}
