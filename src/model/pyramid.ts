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
}

/** A summary node as listed by `pyramid show`. */
export interface PyramidNode {
  id: string;
  level: WindowLevel;
  start: number;
  end: number;
  text: string;
  children: number;
}

export const SUMMARY_KIND = "summary";
