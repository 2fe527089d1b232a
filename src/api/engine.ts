/**
 * @module api/engine
 * The SDK's front: one object over a store and the models, whose methods are the engine's actions. Each
 * action lives in a file of its own (write-path, remember-actions, recall-actions, revision-actions,
 * graph-actions, topic-actions, store-actions, list, forgetting, restore, pyramid/*, query/search); this class
 * resolves the configuration once, builds the channels, and makes every read wait for the pyramid's pending
 * refresh so that what was written is what is read, but a search, which waits only for that of small writes and
 * otherwise marks the summaries still being refreshed (api/stale-summaries.ts). It holds the SDK's whole surface,
 * one documented method of a few lines per action: the place a reader looks to learn what the engine can do.
 * Over 400 lines on purpose: split, the SDK's surface would no longer read in one file.
 */
import { asSearch } from "../event-loop.js";
import type { Channel } from "../channels/channel.js";
import { graphChannel, type GraphChannel } from "../channels/graph.js";
import type { Suggestion } from "../model/graph.js";
import type { ShownSentence } from "../model/pyramid.js";
import type { MemoryInput, SearchResult } from "../model/types.js";
import { systemClock, type Clock } from "../ports/clock.js";
import type { DoctorCheck, EmbedderStamp, Store, StoreStats } from "../ports/store.js";
import type { Summarizer } from "../ports/summarizer.js";
import { buildPyramid, type BuildDeps, type BuildReport } from "../pyramid/build.js";
import { ExtractiveSummarizer } from "../pyramid/extractive.js";
import { PyramidKeeper, type RefreshReport } from "../pyramid/keeper.js";
import { catchUpPyramid, rebuildPyramid } from "../pyramid/maintain.js";
import { resolveRecallOptions, type RecallOptions } from "../query/options.js";
import { whereOf } from "../query/where.js";
import type { FieldCondition } from "../model/filter.js";
import type { WindowLevel } from "../time/windows.js";
import type { EngineIdentity, EnginePorts } from "./engine-ports.js";
import { resolveEngineConfig, type EngineConfig, type ResolvedEngineConfig } from "./engine-config.js";
import { forgetMemory, forgetWhere, purgeForgotten, type ForgetDeps, type ForgetOptions, type Forgotten, type ForgetWhereOptions, type ForgottenWhere, type Purged } from "./forgetting.js";
import { currentState, type CurrentStateJson, type CurrentStateOptions } from "./current-state.js";
import { graphAround, link, listEntities, type EntitiesOptions, type GraphJson, type GraphOptions, type LinkInput } from "./graph-actions.js";
import { listMemories, type ListJson, type ListedMemory, type ListOptions } from "./list.js";
import { pyramidView, type PyramidNodeJson } from "./pyramid-read.js";
import { exportMemories, type ExportedMemory, type ExportOptions } from "./export.js";
import { engineRestorer } from "./restore.js";
import { memoryJson, type EdgeJson, type HistoryJson, type MemoryJson } from "./present.js";
import * as revisions from "./revision-actions.js";
import { rememberMessages, type MessagesResult } from "./fact-actions.js";
import * as topics from "./topic-actions.js";
import { attributes, inSpan, type Span } from "../tracing.js";
import { rememberOne } from "./remember-actions.js";
import { showMemory, validateQuery } from "./recall-actions.js";
import { dirtyBeforeSearch, markStaleSummaries } from "./stale-summaries.js";
import { doctorChecks, refuseOtherEmbedder, vitals } from "./store-actions.js";
import { tracedStore } from "./traced-store.js";
import { pacedStore } from "./paced-store.js";
import { WritePath, type BatchOptions, type BatchResult, type MemoryChanges, type Remembered, type WriteOptions } from "./write-path.js";

export type { EngineConfig } from "./engine-config.js";
export type { BatchOptions, BatchResult, MemoryChanges, Remembered } from "./write-path.js";
export type { TopicJson } from "./topic-actions.js";
export type { PyramidNodeJson } from "./pyramid-read.js";
export type { EngineIdentity, EnginePorts } from "./engine-ports.js";

/**
 * The writes whose pyramid refresh a search waits for: a few windows of a few memories, tens of milliseconds (a
 * refresh costs ~1 ms per 1,000 characters of new text at load 7 on 2 cores: 2 s after a batch of 40 × 25,000),
 * so that a search right after an `add` or a small import reads its summaries, as every test and example expects;
 * and for at most `engine.pyramid.searchWaitMs` (SEARCH_WAIT_MS, 50 ms), past which it answers with the summaries
 * as they stand, marked stale, while the refresh goes on.
 */
const SEARCH_WAITS_FOR = { memories: 100, chars: 20_000 };

export class Engine {
  readonly searchDefaults: ResolvedEngineConfig["search"];
  private readonly config: ResolvedEngineConfig;
  private readonly clock: Clock;
  private readonly stamp: EmbedderStamp;
  private readonly summarizer: Summarizer;
  private readonly keeper: PyramidKeeper;
  private readonly writes: WritePath;
  /** Built by the first `recall`, which loads the search pipeline (api/search-actions.ts): a store opened to list or count never does. */
  private channels: Channel[] | undefined;
  private readonly graphWalk: GraphChannel;
  /** The store as searches read it: other requests are answered between its calls (paced-store.ts). */
  private readonly searchStore: Store;
  private readonly traceAttributes: { "cascade.namespace"?: string }; // every span's namespace attribute

  private constructor(private readonly ports: EnginePorts, config: EngineConfig, identity: EngineIdentity) {
    // every store call a span of its own (a no-op until the host registers a tracer provider: tracing.ts)
    ports = { ...ports, store: tracedStore(ports.store) };
    this.ports = ports;
    this.traceAttributes = identity.namespace === undefined ? {} : { "cascade.namespace": identity.namespace };
    this.config = resolveEngineConfig(config);
    this.searchDefaults = this.config.search;
    this.clock = ports.clock ?? systemClock;
    this.stamp = { id: ports.embedder.id, dimensions: ports.embedder.dimensions };
    this.summarizer = this.config.summarizer ?? new ExtractiveSummarizer(ports.embedder);
    this.keeper = new PyramidKeeper(() => this.pyramidDeps(), this.config.pyramid);
    this.writes = new WritePath({ store: ports.store, embedder: ports.embedder, clock: this.clock, stamp: this.stamp, keeper: this.keeper }, this.config);
    this.searchStore = pacedStore(ports.store);
    this.graphWalk = graphChannel(this.searchStore, this.config.graph);
  }

  /** Opens an engine over a store, refusing a store that was built in another embedder's vector space. */
  static async create(ports: EnginePorts, config: EngineConfig = {}, identity: EngineIdentity = {}): Promise<Engine> {
    refuseOtherEmbedder(await ports.store.embedderStamp(), ports.embedder);
    return new Engine(ports, config, identity);
  }

  // ---- writing ----

  /**
   * Validates, chunks, embeds and stores one memory in one transaction, with the `supersedes` edges it names
   * (memory ids). Afterwards, unless it named its predecessors itself, looks for earlier memories it revises.
   * A memory whose `ref` the store already holds is not stored again (so a retry after an unknown outcome is
   * safe): the answer names the memory that holds it, with `existing: true`.
   */
  async remember(input: MemoryInput, options: { provenance?: "user" | "api" } = {}): Promise<Remembered> {
    return this.span("cascade.write", { "cascade.memories": 1 }, () => rememberOne({ store: this.ports.store, writes: this.writes }, input, options));
  }

  /**
   * Stores many memories, one transaction per batch (see api/write-path.ts). An invalid item is reported with its
   * index and never costs the valid ones. `supersedes` may name memory ids or the `metadata.ref` of earlier items.
   */
  async rememberMany(inputs: readonly MemoryInput[], options: BatchOptions & Pick<WriteOptions, "provenance"> = {}): Promise<BatchResult> {
    return this.span("cascade.write", { "cascade.memories": inputs.length }, async (span) => {
      const result = await this.writes.write(inputs, options);
      span.setAttributes({ "cascade.imported": result.imported, "cascade.skipped": result.skipped, "cascade.failed": result.failed.length });
      return result;
    });
  }

  /**
   * Stores chat messages as turns and, when a fact extractor is configured (engine.facts), the atomic facts it
   * states about them: memories of kind `fact`, revision-checked like any other, `derived_from` their messages.
   * `extract: false` stores the messages only; `true` insists on an extractor.
   */
  async rememberMessages(messages: readonly MemoryInput[], options: { extract?: boolean } = {}): Promise<MessagesResult> {
    return this.span("cascade.write", { "cascade.memories": messages.length, "cascade.messages": true }, async () => {
      const result = await rememberMessages({ store: this.ports.store, writes: this.writes, extractor: this.config.facts, now: () => this.clock.now() }, messages, options);
      if (result.facts.length) await this.afterWrite(result.facts.length);
      return result;
    });
  }

  /**
   * Corrects what a memory says (text, title, description, tags, topic, metadata, expiry; null clears one): same
   * id, time and edges, re-indexed; the previous content is kept and shown by `history`. A change in the world
   * (a decision reversed) is a new memory that supersedes the old one instead.
   */
  async update(id: string, changes: MemoryChanges): Promise<MemoryJson> {
    await this.keeper.settle();
    return memoryJson(await this.writes.revise(id, changes));
  }

  /** Removes a memory (and its turn node), rebuilds the summaries that quoted it, and with `purge` erases every byte of it. */
  async forget(id: string, options: ForgetOptions = {}): Promise<Forgotten> {
    await this.keeper.settle();
    const forgotten = await forgetMemory(this.forgetDeps, id, options);
    await this.afterWrite();
    return forgotten;
  }

  /**
   * Erases every remnant of what was forgotten, needing no memory id: summaries still quoting a forgotten memory
   * (a forget interrupted before it rebuilt them), turn summaries left without their memory, then every byte of
   * deleted text in the store's files (as `forget --purge`).
   */
  async purge(): Promise<Purged> {
    return this.span("cascade.maintenance", { "cascade.task": "purge" }, async () => {
      await this.keeper.settle();
      return purgeForgotten(this.forgetDeps);
    });
  }

  /** Forgets every memory matching scope/metadata conditions and/or before a date (`dryRun`: only say which). */
  async forgetWhere(options: ForgetWhereOptions): Promise<ForgottenWhere> {
    return this.span("cascade.maintenance", { "cascade.task": "forget_where" }, async (span) => {
      await this.keeper.settle();
      const result = await forgetWhere(this.forgetDeps, options);
      span.setAttribute("cascade.forgotten", result.forgotten);
      if (result.forgotten > 0) await this.afterWrite(result.forgotten);
      return result;
    });
  }

  // ---- reading ----

  /**
   * Searches every selected channel and fuses their ranks. It waits for the pyramid's refresh after small writes
   * only (SEARCH_WAITS_FOR), for 50 ms at most (`engine.pyramid.searchWaitMs`), not after large ones (seconds
   * after a batch of long texts): every committed memory is searchable, and a summary whose window was written to
   * since it was computed is marked `stale`.
   * `settlePyramid()` first waits for any refresh.
   */
  async recall(query: string, options: RecallOptions = {}): Promise<SearchResult> {
    return this.span("cascade.recall", {}, async (span) => {
      const waited = await this.keeper.settleSmall({ ...SEARCH_WAITS_FOR, ms: this.config.pyramid.searchWaitMs });
      if (waited === "late") span.setAttribute("cascade.refresh_wait_ended", true);
      const resolved = resolveRecallOptions(options, this.config.search, this.clock.now());
      validateQuery(query);
      span.setAttributes({ "cascade.k": resolved.k, "cascade.channels": [...resolved.channels], "cascade.query.chars": query.length });
      const { recallChannels, runSearch } = await import("./search-actions.js");
      this.channels ??= recallChannels({ ...this.ports, store: this.searchStore }, this.config);
      // from here other work's pauses wait for this search (event-loop's asSearch), the pyramid's refresh among them
      const result = await asSearch(async () => {
        const dirty = await dirtyBeforeSearch(this.searchStore, this.config.pyramid.enabled && resolved.pyramid);
        const found = await runSearch({ store: this.searchStore, embedder: this.ports.embedder, channels: this.channels!, graph: this.graphWalk, config: this.config }, query, resolved);
        const stale = markStaleSummaries(dirty, found);
        if (stale.size) span.setAttribute("cascade.stale_summaries", stale.size);
        return found;
      });
      span.setAttribute("cascade.hits", result.hits.length);
      return result;
    });
  }

  /**
   * A memory with its status now (as `list` gives it: status, superseded_by, supersedes); a summary node also
   * lists its children (turns, or the nodes one level down) and its sentences with their status now
   * (`metadata.sentences` is what the summariser wrote).
   */
  async show(id: string): Promise<ListedMemory & { children?: string[]; sentences?: ShownSentence[] }> {
    await this.keeper.settle();
    return showMemory(this.ports.store, id, this.clock.now());
  }

  /** Memories in time order, a page at a time, with their status at (asOf, knownAt): see api/list.ts. */
  async list(options: ListOptions = {}): Promise<ListJson> {
    return listMemories(this.ports.store, this.clock.now(), options);
  }

  /** The memories matching `options` as portable records, oldest first, that `restorer` reads back (api/export.ts). */
  async *exportMemories(options: ExportOptions = {}): AsyncGenerator<ExportedMemory> {
    await this.keeper.settle();
    yield* exportMemories(this.ports.store, this.clock.now(), options);
  }

  /**
   * Reads exported records back, a batch at a time (`add`), then their edges (`finish`): ids, times,
   * corrections and edges are kept; what the store already holds is skipped (api/restore.ts).
   */
  restorer(): { add: (records: unknown[]) => Promise<void>; finish: () => Promise<BatchResult> } {
    return engineRestorer({ store: this.ports.store, embedder: this.ports.embedder, stamp: this.stamp }, () => this.keeper.settle(), (memories) => this.afterWrite(memories));
  }

  // ---- what replaced what, and the graph ----

  /** Records that NEW replaces OLD from `at` on (default: NEW's event time). */
  async supersede(newId: string, oldId: string, options: revisions.SupersedeOptions = {}): Promise<EdgeJson> {
    return revisions.supersede(this.revisionDeps, newId, oldId, options);
  }

  /** Takes an edge back (it stays in the history, marked retracted now). */
  async retract(edgeId: string): Promise<EdgeJson> {
    return revisions.retract(this.revisionDeps, edgeId);
  }

  /** The supersession chain of a memory, oldest to newest, with every edge touching it. */
  async history(id: string, options: { asOf?: string; knownAt?: string } = {}): Promise<HistoryJson> {
    await this.keeper.settle();
    return revisions.history(this.revisionDeps, id, options);
  }

  async suggestions(status: Suggestion["status"] | "all" = "open") {
    return revisions.suggestions(this.ports.store, status);
  }

  /** Accepts a suggestion (its edge is added, provenance user) or rejects it. */
  async decideSuggestion(id: string, decision: "accepted" | "rejected") {
    return revisions.decideSuggestion(this.revisionDeps, id, decision);
  }

  /** Relates two memories with a typed edge (supersedes, contradicts, refines, derived_from, summarizes, relates_to). */
  async link(from: string, to: string, options: Omit<LinkInput, "from" | "to">): Promise<EdgeJson> {
    return link(this.ports.store, { from, to, ...options }, this.clock.now());
  }

  /** The memories and entities around a memory, with every edge's type, validity and provenance. */
  async graph(id: string, options: GraphOptions = {}): Promise<GraphJson> {
    return graphAround(this.ports.store, id, options, this.clock.now());
  }

  /**
   * What is true now in a scope (a filter as search takes it): the standing statements, newest first, each with
   * when it became true and what it replaced; `about` narrows to an entity or a subject, `asOf`/`knownAt` read
   * another time, `history` adds the older versions (api/current-state.ts).
   */
  async currentState(options: CurrentStateOptions = {}): Promise<CurrentStateJson> {
    await this.keeper.settle();
    const search = async (query: string, o: RecallOptions) => (await this.recall(query, { ...o, excludeKinds: ["summary"], pyramid: false })).hits.map((h) => h.id);
    return currentState({ store: this.ports.store, now: this.clock.now(), search }, options);
  }

  /** Entities with how many memories mention them, most mentioned first; `filter`: those of one scope, counted in it. */
  async entities(options: EntitiesOptions = {}) {
    return listEntities(this.ports.store, options);
  }

  // ---- topics ----

  /** The topic tree with counts (see api/topic-actions.ts). */
  async topics(under?: string): Promise<{ topics: topics.TopicJson[] }> {
    return topics.topicTree(this.ports.store, under);
  }

  /** Creates a topic (or sets its description). Its ancestors need not exist. */
  async createTopic(path: string, options: { description?: string } = {}): Promise<topics.TopicJson> {
    return this.topicsChanged(await topics.createTopic(this.ports.store, path, options.description, this.clock.now()));
  }

  /** Moves (renames) a subtree: every memory and topic at `from` or below it, atomically. */
  async moveTopic(from: string, to: string): Promise<{ from: string; to: string; memories: number }> {
    return this.topicsChanged(await topics.repathTopic(this.ports.store, from, to, false));
  }

  /** Merges `from` (and its subtree) into `into`, which may already hold memories. */
  async mergeTopic(from: string, into: string): Promise<{ from: string; to: string; memories: number }> {
    return this.topicsChanged(await topics.repathTopic(this.ports.store, from, into, true));
  }

  /** Deletes an empty topic (and the empty topics below it). */
  async deleteTopic(path: string): Promise<{ path: string; deleted: true }> {
    return this.topicsChanged(await topics.deleteTopic(this.ports.store, path));
  }

  // ---- the summary pyramid ----

  /** Whether the pyramid is on (maintained on write, summaries in search and `context`). */
  get pyramidEnabled(): boolean {
    return this.config.pyramid.enabled;
  }

  /**
   * Runs the refresh the last writes scheduled, now, or waits for the one running; what it recomputed (null:
   * nothing pending). A search after it reads summaries that include every write before it.
   */
  async settlePyramid(): Promise<RefreshReport | null> {
    return this.keeper.settle();
  }

  /**
   * Brings a store up to date when it is opened with the pyramid on: the turn nodes an older store lacks, and any
   * window left dirty (by a store from before the pyramid was on by default, or by an engine with it off). Null
   * when there was nothing to do.
   */
  async catchUpPyramid(options: { onProgress?: (done: number, total: number) => void } = {}) {
    if (!this.config.pyramid.enabled) return null;
    return this.span("cascade.maintenance", { "cascade.task": "pyramid_catch_up" }, () => catchUpPyramid(this.pyramidDeps(), this.config.pyramid, options.onProgress));
  }

  /**
   * Writes the turn nodes that long memories lack and recomputes every dirty day, week and month window (nothing,
   * when none is dirty); `full` recomputes every node (after a change of summariser, say).
   */
  async buildPyramid(options: { full?: boolean; onProgress?: (done: number, total: number) => void } = {}): Promise<BuildReport & { turns: number }> {
    return this.span("cascade.maintenance", { "cascade.task": options.full ? "pyramid_rebuild" : "pyramid_build" }, async () => {
      await this.keeper.settle();
      return rebuildPyramid(this.pyramidDeps(), this.config.pyramid, Boolean(options.full), options.onProgress);
    });
  }

  /**
   * The pyramid's nodes. `filter` (JSON, as search's) or `where` (parsed `--filter` arguments) picks the nodes of
   * the one user or agent it names, and shows only the sentences whose sources pass it.
   */
  async pyramid(options: { level?: string; filter?: unknown; where?: FieldCondition[] } = {}): Promise<{ zone: string; dirty: number; nodes: PyramidNodeJson[] }> {
    await this.keeper.settle();
    return pyramidView(this.ports.store, options.level, this.clock.now(), whereOf(options));
  }

  // ---- the store ----

  /** Whether the store's indexes agree with its tables; `repair` rebuilds the ones that do not. */
  async doctor(options: { repair?: boolean; signal?: AbortSignal } = {}): Promise<{ ok: boolean; checks: DoctorCheck[] }> {
    return this.span("cascade.maintenance", { "cascade.task": options.repair ? "doctor_repair" : "doctor" }, async (span) => {
      await this.keeper.settle();
      const result = await doctorChecks(this.ports.store, options, (limit) => this.writes.retryEnrichment(limit));
      span.setAttribute("cascade.ok", result.ok);
      return result;
    });
  }

  async stats(): Promise<StoreStats & { embedder: string }> {
    await this.keeper.settle();
    return { ...(await this.ports.store.stats()), embedder: this.ports.embedder.id };
  }

  /**
   * Figures for monitoring, read without waiting for the pyramid's pending refresh (its backlog is one of them):
   * the store's counts and size, the windows written to and not summarised again yet, and the enrichment steps that
   * failed on stored memories and wait for `doctor --repair`.
   */
  async vitals(): Promise<StoreStats & { dirtyWindows: number; enrichmentFailures: number }> {
    return vitals(this.ports.store);
  }

  async close(): Promise<void> {
    await this.keeper.settle();
    await this.ports.store.close();
  }

  // ---- wiring ----

  /** A span carrying this engine's namespace (tracing.ts: a no-op without a tracer provider). */
  private span<T>(name: string, attrs: Record<string, string | number | boolean>, work: (span: Span) => Promise<T>): Promise<T> {
    return inSpan(name, attributes({ ...this.traceAttributes, ...attrs }), work);
  }

  private get revisionDeps(): revisions.RevisionDeps {
    return { store: this.ports.store, now: () => this.clock.now(), show: (id) => this.show(id), afterWrite: () => this.afterWrite() };
  }

  /** Keeps the pyramid current after a write that is not a memory (an edge, a forget): see pyramid/keeper.ts. */
  private async afterWrite(memories = 1): Promise<void> {
    this.keeper.beginWrite();
    // their characters are not counted: a search waits for the refresh of at most SEARCH_WAITS_FOR.memories
    await this.keeper.endWrite([], true, { memories, chars: 0 });
  }

  /** Topic centroids and descriptions are read again by the next write that places memories. */
  private topicsChanged<T>(result: T): T {
    this.writes.forgetTopics();
    return result;
  }

  private pyramidDeps(): BuildDeps {
    return { store: this.ports.store, embedder: this.ports.embedder, summarizer: this.summarizer, stamp: this.stamp, now: this.clock.now() };
  }

  private get forgetDeps(): ForgetDeps {
    return { store: this.ports.store, rebuild: this.rebuildWindows, now: this.clock.now() };
  }

  /** Rebuilds exactly these windows of the pyramid (after a forget: the summaries that quoted what went). */
  private readonly rebuildWindows = (only: { level: WindowLevel; start: number }[]) => buildPyramid(this.pyramidDeps(), this.config.pyramid, undefined, only);
}
