/**
 * @module ports/summarizer
 * What the summary pyramid asks of a summariser: the candidate sentences of one window (each with its
 * sources), and a length bound; back come the sentences of the summary, each still naming its sources.
 * The offline default is extractive (pyramid/extractive.ts); pyramid/chat-summarizer.ts asks a chat model.
 */
import type { SummarySentence } from "../model/pyramid.js";
import type { Window } from "../time/windows.js";

export interface SummaryLimits {
  maxSentences: number;
  maxChars: number;
}

export interface SummaryRequest {
  window: Window;
  /** The window's title for people, e.g. "Tuesday 16 June 2026". */
  title: string;
  /** Candidates in time order: a day's turns split into sentences, or the sentences of the child summaries. */
  sentences: SummarySentence[];
  limits: SummaryLimits;
}

export interface Summarizer {
  /** Names the summariser; recorded on every node it wrote. */
  readonly id: string;
  summarize(request: SummaryRequest): Promise<SummarySentence[]>;
}
