/**
 * @module model/pyramid
 * The summary pyramid's domain types. A node is stored as a memory of kind `summary`; these are its parts.
 */
import type { WindowLevel } from "../time/windows.js";

/** One sentence of a summary, with the memories it came from (a turn, or several for an abstractive summary). */
export interface SummarySentence {
  text: string;
  speaker: string | null;
  /** Event time of the newest source (ISO). */
  at: string;
  /** Ids of the raw memories the sentence was taken or written from. */
  sources: string[];
  /** In a turn node: the chunk (ordinal) of the source memory the sentence starts in. */
  chunk?: number;
  /** Ids of the memories whose statements this sentence revised within the window (the later state of them). */
  revises?: string[];
}

/**
 * A summary sentence as a reader is shown it: whether what it quotes still holds at the time asked. Summaries are
 * written once for everyone; the status is read, never stored, so a later `supersedes` edge marks the sentences of
 * every summary that quoted the old memory without rewriting them.
 */
export interface ShownSentence extends SummarySentence {
  status: "current" | "superseded";
  /** The memories that replaced one of its sources (none of them a source of the sentence itself). */
  superseded_by: string[];
}

/**
 * A node's level: a calendar window (day, week, month), or `turn` — the summary of one memory longer than a chunk
 * (a meeting transcript, a long design note), whose window is that memory's instant.
 */
export type NodeLevel = "turn" | WindowLevel;
export const NODE_LEVELS: readonly NodeLevel[] = ["turn", "day", "week", "month"];
/** What a node's children are, for people: a turn or day node summarises memories, a week days, a month weeks. */
export const CHILD_NOUN: Readonly<Record<NodeLevel, string>> = { turn: "memory", day: "memory", week: "day", month: "week" };

/** A summary node as listed by `pyramid show`. */
export interface PyramidNode {
  id: string;
  level: NodeLevel;
  start: number;
  end: number;
  text: string;
  children: number;
  /** Whose node it is: a user's (`user` set), an agent's (`agent` set), or the whole namespace's (both null). */
  user: string | null;
  agent: string | null;
}

/** One summary in a search result's `context`. */
export interface ContextEntry {
  id: string;
  level: NodeLevel;
  window: { start: string; end: string };
  /** The excerpt's sentences, one a line; a superseded one ends with `[superseded by …]`. */
  text: string;
  /** The excerpt's sentences with their sources and status. */
  sentences: ShownSentence[];
  /** The raw memories the summary's sentences were taken from. */
  sources: string[];
  /** The hits (ids) whose window this summary covers, best first. */
  hits: string[];
  /** Only when its window was written to since it was computed (its refresh has not ended): see Hit.stale. */
  stale?: true;
}

export const SUMMARY_KIND = "summary";

/** Summary nodes have ids of their own kind (`p_day_2026-06-16`, `p_turn_m_…`); memories' are `m_…`. */
export const isSummaryId = (id: string): boolean => id.startsWith("p_");
