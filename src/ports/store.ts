/**
 * @module ports/store
 * The narrow, asynchronous interface between the engine and a storage backend. The SQLite store is the
 * embedded default; a PostgreSQL store would implement the same methods. Methods take records, not long
 * positional lists, and return plain values; a backend that cannot do something throws UNSUPPORTED.
 */
import type { StoreCopy } from "./copy.js";
import type { EntityReads } from "./entities.js";
import type { EnrichmentFailures } from "./enrichment.js";
import type { Edge, EdgeDraft, EdgeType, Suggestion } from "../model/graph.js";
import type { Memory, PreparedMemory, Ranked, SearchFilter, TurnContext } from "../model/types.js";
import type { Scope } from "../model/scope.js";
import type { NodeLevel, PyramidNode } from "../model/pyramid.js";
import type { Window, WindowLevel } from "../time/windows.js";

export interface DoctorCheck {
  name: string;
  ok: boolean;
  detail: string;
  repaired?: boolean;
}

export interface NodeQuery {
  level?: NodeLevel;
  /** Nodes whose window overlaps [from, to). */
  from?: number;
  to?: number;
  ids?: string[];
  /** Nodes whose window holds one of these instants (ms): the windows of a search's top hits. */
  containing?: number[];
  /**
   * Only the day, week and month nodes of this scope: a user's (`{user, agent: null}`), an agent's
   * (`{user: null, agent}`) or the whole namespace's (both null). Turn nodes come whatever their scope.
   */
  scope?: Scope;
}

/** The vector space a store was built in; recorded by the first write, checked on every open. */
export interface EmbedderStamp {
  id: string;
  dimensions: number;
}

/**
 * A re-embedding under way (api/reembed.ts): the embedder a store is moving to, and the spec (JSON) the store
 * keeps for it once it has moved (null: an embedder given as an object, which the caller must give again).
 */
export interface ReembedTarget {
  stamp: EmbedderStamp;
  spec: string | null;
}

/** A chunk still lacking a vector of the new embedder: the text its vector is made from, and its indexed text. */
export interface ReembedChunk {
  chunkId: number;
  text: string;
  indexedText: string;
}

/**
 * New vectors built beside the live ones, in a table the first `start` creates and the switch drops: searches and
 * writes keep the old embedder's vectors meanwhile. A new vector is kept with the indexed text of the chunk it was
 * made for, so a chunk rewritten (or a chunk id taken again) since then counts as not done.
 */
export interface StoreReembed {
  /** Records the target; the vectors kept for another target are dropped, those for this one kept (a resume). */
  start(target: ReembedTarget): Promise<{ kept: number }>;
  /** The target under way, if any, with the chunks done (a new vector for their current text) and in all. */
  progress(): Promise<{ target: ReembedTarget | null; done: number; total: number }>;
  /** Up to `limit` chunks after chunk id `after` without a new vector for their current text, in id order. */
  todo(after: number, limit: number): Promise<ReembedChunk[]>;
  /** Keeps new vectors (one transaction). */
  save(rows: { chunkId: number; indexedText: string; vector: Float32Array }[]): Promise<void>;
  /**
   * In one transaction: when every chunk has its new vector, puts them in place of the old, stamps the store with
   * the target (and keeps its spec), drops the new-vector table and answers 0; otherwise changes nothing and
   * answers how many chunks still lack one (written since they were listed).
   */
  switchOver(): Promise<number>;
}

/** A chunk with its memory, for the final top-k only. */
export interface HydratedChunk {
  chunkId: number;
  ord: number;
  start: number;
  end: number;
  text: string;
  memory: Memory;
}

/** Where a page of `listMemories` ended: the last memory's event time (ms) and id. */
export interface ListPosition {
  at: number;
  id: string;
}

/** One page of memories in event-time order (ties broken by id), after the filter. */
export interface ListQuery {
  filter: SearchFilter;
  /** Only memories said by one of these speakers. */
  speakers?: string[];
  limit: number;
  order: "asc" | "desc";
  /** Start after this position (from the previous page). */
  after?: ListPosition;
}

/** The memories next to one memory in its session (see `Store.sessionNeighbours`). */
export interface SessionNeighbours {
  session: string;
  /** Up to `window` memories before it and `window` after it, nearest first on each side. */
  before: string[];
  after: string[];
}

/** A lexical search: words, not query syntax. */
export interface LexicalQuery {
  words: string[];
  depth: number;
  filter: SearchFilter;
}

export interface StoreStats {
  /** Memories people and agents stored (summary nodes not counted). */
  memories: number;
  /** Summary nodes of the pyramid. */
  summaries: number;
  chunks: number;
  terms: number;
  bytes: number;
}

/** Makes a new, empty store each call, named for what it will hold (a LoCoMo conversation, a bench run). */
export type StoreMaker = (name: string) => Promise<Store>;

export interface Store {
  /** Entities and the memories that mention them (see ports/entities). */
  readonly entities: EntityReads;
  /** The whole store in pages, read out or written in with ids and times kept (see ports/copy; `cascade migrate`). */
  readonly copy: StoreCopy;
  /** Enrichment steps that failed on stored memories, until a retry succeeds (see ports/enrichment). */
  readonly enrichment: EnrichmentFailures;
  /** The embedder stamp, or null for a store that has never been written. */
  embedderStamp(): Promise<EmbedderStamp | null>;
  /**
   * Writes memories and the edges that come with them (which may name these new memories), all or none, in one
   * transaction; stamps the store with the embedder on first write. An edge that would close a cycle of
   * `supersedes` or names an unknown memory fails the whole write.
   */
  writeMemories(memories: PreparedMemory[], stamp: EmbedderStamp, edges?: EdgeDraft[]): Promise<Edge[]>;
  getMemory(id: string): Promise<Memory | null>;
  /** The memories of these ids that exist, by id (one read: a networked store answers in one round trip). */
  getMemories(ids: string[]): Promise<Map<string, Memory>>;
  /**
   * A correction, in one transaction: the memory with `next.memory.id` takes the new content (text, title,
   * description, tags, topic, expiry, metadata, chunks) and keeps its id, time and edges; what it said before is
   * kept as a revision recorded at `recordedAt`. NOT_FOUND when there is no such memory.
   */
  reviseMemory(next: PreparedMemory, stamp: EmbedderStamp, recordedAt: number): Promise<void>;
  /** What a memory said before each correction, oldest first. */
  memoryRevisions(id: string): Promise<{ recordedAt: number; memory: Memory }[]>;
  /** A page of memories in event-time order; `more` tells whether another page follows. */
  listMemories(query: ListQuery): Promise<{ memories: Memory[]; more: boolean }>;
  /** The latest memory of a session and scope that happened before `at` (ISO), as conversational context. */
  previousInSession(session: string, at: string, scope: Scope): Promise<TurnContext | null>;
  /**
   * For each of these memories, the memories next to it in its session and its scope (model/scope.ts): up to
   * `window` on each side by event time, then by insertion (summaries not counted). Memories without a session,
   * and summaries, are left out.
   * Costs a few index steps per memory however long the session.
   */
  sessionNeighbours(memoryIds: string[], window: number): Promise<Map<string, SessionNeighbours>>;
  /**
   * Who said each of these memories, as written at ingest: the speaker, or else the role (a chat message stored
   * with only `role: "user"` was said by "user"); memories with neither are left out.
   */
  speakersOf(memoryIds: string[]): Promise<Map<string, string>>;
  /**
   * Removes a memory, with its turn-level summary, from the tables and every index in one transaction (a forget
   * killed half-way never leaves a summary of it behind); false when there was no such memory.
   */
  deleteMemory(id: string): Promise<boolean>;
  /** Erases what deleted memories left behind (free pages, index segments, unused words, the log). */
  purgeDeleted(): Promise<{ terms_dropped: number; checkpointed: boolean }>;
  /** The memories holding any of these import keys: key → memory id. */
  memoryIdsByImportKey(keys: string[]): Promise<Map<string, string>>;
  hydrate(chunkIds: number[]): Promise<Map<number, HydratedChunk>>;

  /**
   * Chunks holding any of these words, best first by the backend's BM25 over chunk bodies. The words are data
   * (lowercased letters and digits from text/tokenize); the backend owns its query syntax, escaping and stemming.
   */
  searchBody(input: LexicalQuery): Promise<Ranked[]>;
  /** The same over titles, descriptions and tags; each memory is reported through its first chunk. */
  searchCurated(input: LexicalQuery): Promise<Ranked[]>;
  /**
   * The key the body index files each word under (its stem, for a stemming index; the word itself otherwise):
   * words with one key share one `chunksWithTerms` list, so a channel reads it once.
   */
  indexKeys(words: string[]): Promise<Map<string, string>>;
  /** Nearest chunks by inner product of unit vectors (cosine). */
  /**
   * `alongside`: other reads of the same search are being started with this one (the dense channel); a store that
   * hands reads to other threads lets them be sent before it searches here. Revision detection leaves it out.
   */
  nearestChunks(input: { vector: Float32Array; depth: number; filter: SearchFilter; alongside?: boolean }): Promise<Ranked[]>;
  /**
   * Unfiltered nearest chunks for each of many vectors (revision detection's batch): the answers `nearestChunks`
   * gives one by one, in the order asked. A store may search them side by side.
   */
  nearestChunksMany(input: { vectors: Float32Array[]; depth: number }): Promise<Ranked[][]>;
  /**
   * The query's similarity to the store's chunks as a distribution (mean, sd over an even sample of them): the
   * dense channel's relevance floor. A backend that cannot sample its vectors throws UNSUPPORTED, and the dense
   * channel then goes without a floor.
   */
  similarityNull(vector: Float32Array): Promise<{ mean: number; sd: number; rows: number }>;
  /** The corpus vocabulary added after term id `afterId`, for late-interaction candidate generation. */
  termsAfter(afterId: number): Promise<{ id: number; term: string }[]>;
  /** For each term, the chunks whose body holds it (after the filter; the body index may stem the term). */
  chunksWithTerms(input: { terms: string[]; filter: SearchFilter }): Promise<Map<string, number[]>>;
  /** The memory of each chunk. */
  memoryIdsOfChunks(chunkIds: number[]): Promise<Map<number, string>>;
  /** How many chunks hold each word (0 for unknown words), and how many chunks there are in all. */
  termStats(terms: string[]): Promise<{ chunks: number; df: Map<string, number> }>;
  /** Event times (ms since epoch) of the given memories. */
  eventTimes(memoryIds: string[]): Promise<Map<string, number>>;

  /** The first chunk of each memory, to show a memory that no channel ranked. */
  firstChunkIds(memoryIds: string[]): Promise<Map<string, number>>;

  /** Adds edges in one transaction (see writeMemories for what is refused). */
  addEdges(drafts: EdgeDraft[]): Promise<Edge[]>;
  /** Marks an edge retracted at `at` (record time); it stays in history. */
  retractEdge(id: string, at: number): Promise<Edge>;
  /** Every edge into or out of these memories, retracted ones included. */
  edgesTouching(memoryIds: string[], type?: EdgeType): Promise<Edge[]>;
  /** Records suggestions; a pair already suggested keeps its first record and decision. */
  addSuggestions(suggestions: Omit<Suggestion, "id" | "status">[]): Promise<void>;
  listSuggestions(status?: Suggestion["status"]): Promise<Suggestion[]>;
  /** Accepts or rejects an open suggestion; accepting adds its edge in the same transaction. */
  decideSuggestion(id: string, decision: "accepted" | "rejected", at: number, edge?: EdgeDraft): Promise<Suggestion>;

  /** Calendar windows whose summaries are out of date (marked by memory and edge writes). */
  dirtyWindows(): Promise<{ level: WindowLevel; start: number }[]>;
  /** Marks windows as recomputed. */
  clearDirtyWindows(windows: { level: WindowLevel; start: number }[]): Promise<void>;
  /** The time zone the pyramid's windows are cut in (UTC until set). */
  pyramidZone(): Promise<string>;
  /** Changes the zone: drops every summary node and marks every window of every memory dirty. */
  setPyramidZone(zone: string): Promise<void>;
  /** What feeds a window: its raw memories (day), its day nodes (week), the week nodes overlapping it (month). */
  windowInputs(window: Window): Promise<Memory[]>;
  /**
   * Replaces the node with the same id (a window's node in one scope, or a turn node), if any, with this summary memory and its
   * children, in one transaction. Writes nothing and answers false when one of the children, or of `sources` (the
   * memories its sentences were read from), no longer exists: a summary is never written from a memory forgotten
   * after it was read (a slow summariser racing a forget would otherwise bring the forgotten text back).
   */
  writeSummary(node: PreparedMemory, window: Window | { level: "turn"; start: number; end: number }, childIds: string[], stamp: EmbedderStamp, sources?: string[]): Promise<boolean>;
  /** A small value the engine keeps with the store (e.g. which catch-ups an older store has had); null when unset. */
  getMeta(key: string): Promise<string | null>;
  setMeta(key: string, value: string): Promise<void>;
  /** Memories longer than one chunk (not summaries) without a turn-level node: what a store from before the turn level lacks. */
  memoriesWithoutTurnNode(): Promise<string[]>;
  /** Removes the summary node with this id (a window's node in one scope) from every index; false when there was none. */
  deleteSummary(id: string): Promise<boolean>;
  pyramidNodes(query?: NodeQuery): Promise<PyramidNode[]>;
  /** The children of a summary node (turns, or nodes one level down), oldest first. */
  summaryChildren(id: string): Promise<string[]>;
  /** Topics that were created or described (they exist even with no memory), at `under` or below it. */
  topicRows(under?: string): Promise<{ path: string; description: string | null }[]>;
  /** Creates a topic, or sets its description (a null description keeps the one it has). */
  saveTopic(path: string, description: string | null, at: number): Promise<void>;
  /**
   * Re-paths every memory and topic at `from` or below it to the same place under `to`, all or nothing. Without
   * `merge`, refuses when `to` already holds anything. Returns the number of memories re-pathed.
   */
  moveTopic(from: string, to: string, options: { merge: boolean }): Promise<number>;
  /** Removes a topic and its descendants' rows; refuses when any memory sits at or below it. */
  deleteTopic(path: string): Promise<number>;
  /** Sum of member (first-chunk) vectors and member count per topic, for placing new memories. */
  topicVectorSums(): Promise<Map<string, { count: number; sum: Float32Array }>>;
  /** How many memories sit directly at each topic path (at `under` or below it, when given). */
  topicCounts(under?: string): Promise<{ path: string; count: number }[]>;

  stats(): Promise<StoreStats>;
  /** After a bulk load: makes the writes durable and cheap to read (SQLite folds its write-ahead log in). */
  settle(): Promise<void>;
  /** Every memory id in insertion order (benchmarks pick memories by it). */
  memoryIdsInOrder(): Promise<string[]>;
  /** Moving the store to another embedder beside the live vectors (api/reembed.ts). */
  readonly reembed: StoreReembed;
  /** Every chunk vector, straight from the tables, one at a time (checks of the derived vector index). */
  allVectors(): AsyncIterable<[number, Float32Array]>;
  /**
   * Checks that every derived index agrees with the tables; with `repair`, rebuilds them from the tables. A check
   * that would hold the caller's thread runs elsewhere, and ends early when `signal` aborts.
   */
  doctor(repair: boolean, options?: { signal?: AbortSignal }): Promise<DoctorCheck[]>;
  close(): Promise<void>;
}
