/**
 * @module model/types
 * Domain types only: what a memory, a chunk, a ranked list and a hit are. No behaviour.
 */
import type { ContextEntry } from "./pyramid.js";

import type { ExtractedEntity } from "./entity.js";
import type { FieldCondition } from "./filter.js";
import type { Scope } from "./scope.js";

export type ChannelName = "bm25" | "dense" | "curated" | "recency" | "colbert" | "time" | "graph";
export const CHANNEL_NAMES: readonly ChannelName[] = ["bm25", "dense", "curated", "recency", "colbert", "time", "graph"];

/** What each channel ranks, in one line: `cascade search --help`, the README's table and docs say it in these words. */
export const CHANNEL_SUMMARIES: Readonly<Record<ChannelName, string>> = {
  bm25: "chunk bodies by BM25 (full-text index)",
  dense: "chunk vectors by similarity to the question (offline GloVe, or an OpenAI-compatible or ONNX embedder)",
  curated: "titles, descriptions and tags by BM25",
  recency: "newest first, among the memories the other channels found",
  colbert: "late interaction: each question word against the nearest word of a chunk",
  time: "the summaries and memories of a period the question names (\"last Tuesday\")",
  graph: "a walk from the best hits through the entities they mention and their typed edges",
};

/**
 * The read-time steps that move hits after fusion (query/search.ts), in the order they run. Each can be switched
 * off per search or as an engine default (`steps: {"echoes": false}`); a search's `steps` says what each did.
 */
export const STEP_NAMES = [
  "neighbours",
  "speakers",
  "echoes",
  "answer-kind",
  "revised-statements",
  "later-mentions",
  "current-attribute",
  "later-values",
  "former-values",
  "standing",
  "coverage",
] as const;
export type StepName = (typeof STEP_NAMES)[number];

/** What each step does, in one line: `cascade search --help` and docs/GUIDE.md say it in these words. */
export const STEP_SUMMARIES: Readonly<Record<StepName, string>> = {
  neighbours: "a hit next to other hits in its session gains a share of their scores",
  speakers: "a hit said by a person the question names (or by the user, for \"I\" and \"my\") gains",
  echoes: "an assistant's reply found only through the turn it answers ranks just below that turn",
  "answer-kind": "a hit that gives the kind of value asked (a dose, a date, a price) ranks before one that gives none",
  "revised-statements": "the memory that revised the statement of a hit answering the question ranks above it",
  "later-mentions": "a later memory naming what the answering hit names, with a word of change (\"switched\", \"put me on\"), ranks above it",
  "current-attribute": "the latest statement of a standing attribute asked about (\"where do I work now?\") ranks first",
  "later-values": "a later value of what the question asks ranks above the earlier one",
  "former-values": "for a question about a former value, the replaced memories rank first",
  standing: "a request for help brings the standing instructions and preferences it falls under among the first hits",
  coverage: "a question asking for a summary, an order or every mention gets one hit per moment first",
};

/**
 * What a step did in one search: `changed` the ranking (a score, the order or a hit brought in), left it
 * `unchanged`, was switched `off`, or was `not run` (a search of one channel is that channel's own ranking).
 */
export type StepReport = "changed" | "unchanged" | "off" | "not run";

/** What a caller supplies to remember something. Everything but `text` is optional. */
export interface MemoryInput {
  text: string;
  kind?: string;
  title?: string;
  description?: string;
  tags?: string[];
  topic?: string;
  at?: string;
  role?: string;
  speaker?: string;
  session?: string;
  /** The person this memory is about or for (a scope `--filter user=…` searches within). */
  user?: string;
  /** The agent that wrote or owns this memory (a scope, like `user`). */
  agent?: string;
  metadata?: Record<string, unknown>;
  /** When it stops being worth returning (ISO 8601): searches and lists leave it out from then on. */
  expires?: string;
  /** The same as a duration from `at` (or now): "30d", "12h", "90m", "2w". */
  ttl?: string;
  /** Memories this one replaces: ids, or the `metadata.ref` of memories earlier in the same batch. */
  supersedes?: string | string[];
}

/** A stored memory. Times are ISO 8601 strings in UTC. */
export interface Memory {
  id: string;
  kind: string;
  text: string;
  title: string | null;
  description: string | null;
  tags: string[];
  topic: string | null;
  role: string | null;
  speaker: string | null;
  session: string | null;
  user: string | null;
  agent: string | null;
  at: string;
  recordedAt: string;
  /** When it stops being returned by default (ISO), or null. */
  expires: string | null;
  metadata: Record<string, unknown>;
  chunks: number;
}

/** A piece of a memory's text; every index works on chunks. */
export interface ChunkDraft {
  ord: number;
  start: number;
  end: number;
  text: string;
}

/** A chunk ready to store: its text, where it sits in the memory, its vector and its terms. */
export interface PreparedChunk extends ChunkDraft {
  /** The text the indexes see (the speaker is prefixed so that questions naming people match). */
  indexedText: string;
  /** Characters at the end of `indexedText` that are conversational context (the turn before), not this text. */
  contextChars: number;
  vector: Float32Array;
  terms: string[];
}

/** A memory validated, chunked and embedded: everything a store needs for one write transaction. */
export interface PreparedMemory {
  memory: Omit<Memory, "chunks">;
  chunks: PreparedChunk[];
  /** The memory whose text is indexed as this one's context (its first chunk), if any. */
  contextOf?: string;
  /** The entities it mentions (written as `mentions` in the same transaction). */
  entities?: ExtractedEntity[];
  /** Set by a deduplicating import: the line's key, stored (unique) with the memory. */
  importKey?: string;
  /** Enrichment steps that failed on it (ports/enrichment), recorded in the same transaction. */
  failures?: { step: "entities" | "topic" | "revisions"; reason: string; at: number }[];
}

/** The turn before a memory in its session, indexed with it (see ingest/context.ts). */
export interface TurnContext {
  id: string;
  speaker: string | null;
  text: string;
}

/** One entry of a channel's ranked list: a chunk (and its memory) with the channel's own score. */
export interface Ranked {
  chunkId: number;
  memoryId: string;
  score: number;
  /**
   * Set by a channel whose evidence for this chunk is too weak to stand alone (dense below its stand-alone
   * floor): it may support a memory another channel found, but never brings one in (query/evidence.ts).
   */
  weak?: true;
}

/** Restrictions every channel applies before ranking, so that k results come back when k exist. */
export interface SearchFilter {
  since?: number;
  until?: number;
  kinds?: string[];
  /** Kinds left out (e.g. `summary`, to search raw memories only). */
  excludeKinds?: string[];
  under?: string;
  /** Exact topic paths allowed (an lquery `--match`, resolved against the store's topics). */
  topics?: string[];
  /** Knowledge time (`--known-at`, ms): only memories recorded by then. */
  recordedBy?: number;
  /** Scope and metadata conditions, all of which must hold (see query/where.ts). */
  where?: FieldCondition[];
  /** Exactly this scope: the same user and the same agent, an absent one matching only absent (model/scope.ts). */
  scope?: Scope;
  /** Only memories not expired at this instant (ms): no `expires`, or one after it. */
  liveAt?: number;
  /** Only memories expired by this instant (ms): `forget --expired`. */
  expiredBy?: number;
}

/** One hit after fusion, as the contract's JSON shows it. */
export interface Hit {
  id: string;
  kind: string;
  level: string | null;
  /** A summary's [start, end) window (ISO); null for other memories. */
  window: { start: string; end: string } | null;
  text: string;
  title: string | null;
  topic: string | null;
  at: string;
  speaker: string | null;
  /** The source's own id for this memory (`metadata.ref`: a LoCoMo `dia_id`, a ticket number), or null. */
  ref: string | null;
  chunk: { ord: number; start: number; end: number; text: string };
  sources_hit: ChannelName[];
  ranks: Partial<Record<ChannelName, number>>;
  rrf: number;
  score: number;
  adjustments: Adjustment[];
  status: "current" | "superseded";
  superseded_by: string[];
  supersedes: string[];
  /**
   * Statements of this memory that later memories replaced, each with the memory that replaced it; the rest of
   * what it says still stands (a long message partly current). Empty when nothing of it was replaced.
   */
  revised: { statement: string; by: string }[];
  /** Whose memory it is: its `user` and `agent` scope (null when it has none). */
  user: string | null;
  agent: string | null;
  /** Memories on the other side of a `contradicts` edge (either direction) at the query's time. */
  contradicts: string[];
  /**
   * Only on a summary whose window was written to since it was computed (its refresh is pending or running: a
   * search does not wait for it): it may lack the newest memories, which are hits of their own.
   */
  stale?: true;
}

/** The time window a search read from its query. */
export interface TimeJson {
  phrase: string;
  start: string;
  end: string;
  level: string;
  /** Candidates (of every channel's lists) that fell inside the window. */
  matched: number;
}

export type Adjustment = { reason: string; factor: number } | { reason: string; delta: number };

export interface ChannelReport {
  /** The weight fused with on this query. */
  weight: number;
  /**
   * Present when the weight adapted to the query (fuse/agreement.ts): the configured weight, how many of the
   * channel's top memories the other channels' fusion shares (`shared` of `of`), and weight = base × factor.
   */
  agreement?: { base: number; shared: number; of: number; factor: number };
  candidates: number;
  /** From the start of the channel stage to this channel's answer (channels run concurrently). */
  ms: number;
  /** Why the channel returned nothing without looking: the store lacks what it needs (UNSUPPORTED). */
  unsupported?: string;
  /**
   * Present when the channel's work budget bit: late interaction reads at most `limit` index entries (postings) a
   * query, rarest words first; `used` is what it read, `skipped` the words it left unread.
   */
  budget?: { limit: number; used: number; skipped: string[] };
}

export interface SearchResult {
  query: string;
  k: number;
  rrf_k: number;
  hits: Hit[];
  /** Summaries of the top hits' windows, most specific level first (empty with the pyramid off). */
  context: ContextEntry[];
  /** The time window read from the query, or null (then `time_note` says why, when the query had a time phrase). */
  time: TimeJson | null;
  time_note: string | null;
  channels: Partial<Record<ChannelName, ChannelReport>>;
  /** What each read-time step did to this search's ranking (see STEP_NAMES). */
  steps: Record<StepName, StepReport>;
  /** Time spent on supersession status, successors and adjustments (included in took_ms). */
  annotate_ms: number;
  took_ms: number;
}
