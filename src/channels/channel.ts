/**
 * @module channels/channel
 * A retrieval channel is a pure step: a parsed query in, a ranked list of chunks out. Channels never see each
 * other's scores; fusion sees only their ranks.
 */
import type { ChannelName, Ranked, SearchFilter } from "../model/types.js";
import type { TermPruning, TermStats } from "../text/terms.js";
import type { ParsedTime } from "../time/expressions.js";

/** Everything a channel may read about the query, computed once by the search pipeline. */
import type { EntityInfo } from "../model/entity.js";

export interface ChannelQuery {
  text: string;
  /** The distinct words to look up, lowercased: content words, near-stop-words of this corpus left out. */
  words: string[];
  /** Document frequencies of `words` and the number of chunks. */
  stats: TermStats;
  /** The query's sentence vector (zero when no word is known to the embedder). */
  vector: Float32Array;
  filter: SearchFilter;
  /** The query's time expression, when time parsing is on. */
  time: ParsedTime | null;
  depth: number;
  pruning: TermPruning;
  /** The stored entities the query names, read once per search (the graph channel and the speaker step use them). */
  entities: EntityInfo[];
  /** Tells the search what cut this channel's work short (reported in `channels.<name>.budget`). */
  report?: (budget: BudgetReport) => void;
}

/** A channel whose work budget bit: how much it was allowed, how much it did, and what it left unread. */
export interface BudgetReport {
  limit: number;
  used: number;
  skipped: string[];
}

export interface Channel {
  readonly name: Exclude<ChannelName, "recency" | "graph">;
  run(query: ChannelQuery): Promise<Ranked[]>;
}
