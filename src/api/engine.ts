/**
 * @module api/engine
 * The one engine API that the SDK, CLI, HTTP and MCP surfaces call. It chooses no backend and no model:
 * those arrive as ports (see api/open.ts for the offline defaults).
 */
import { z } from "zod";
import { bm25Channel } from "../channels/bm25.js";
import type { Channel } from "../channels/channel.js";
import { colbertChannel, type LateInteractionOptions } from "../channels/colbert.js";
import { curatedChannel } from "../channels/curated.js";
import { denseChannel } from "../channels/dense.js";
import { timeChannel } from "../channels/time.js";
import { graphChannel, type GraphChannel, type GraphChannelOptions } from "../channels/graph.js";
import { offlineExtractor, type EntityExtractor } from "../entities/extract.js";
import { attachEntities } from "../ingest/entities.js";
import type { ChatOptions } from "../providers/chat.js";
import { graphAround, link, listEntities, type GraphJson, type GraphOptions, type LinkInput } from "./graph-actions.js";
import { defaultLimits, defaultDense, defaultSearchOptions, defaultTermPruning, type DenseOptions, type SearchOptions } from "../config/defaults.js";
import { CascadeError, invalidInput, notFound } from "../errors.js";
import { CueJudge } from "../graph/cue-judge.js";
import { defaultDetection, detectRevisions, type DetectionOptions } from "../graph/detect.js";
import { historyOf } from "../graph/history.js";
import { prepareMemories } from "../ingest/prepare.js";
import { validateMemoryInput, type ValidMemory } from "../ingest/validate-memory.js";
import { sessionContexts } from "../ingest/context.js";
import type { EdgeDraft, Suggestion } from "../model/graph.js";
import type { Memory, PreparedMemory, SearchResult } from "../model/types.js";
import { systemClock, type Clock } from "../ports/clock.js";
import type { Embedder, TokenVectors } from "../ports/embedder.js";
import type { RevisionJudge } from "../ports/judge.js";
import type { DoctorCheck, Store, StoreStats } from "../ports/store.js";
import { resolveRecallOptions, type RecallOptions } from "../query/options.js";
import { search } from "../query/search.js";
import type { TermPruning } from "../text/terms.js";
import { formatInstant, parseInstant } from "../time/iso.js";
import { validateTopicPath } from "../topics/path.js";
import { defaultPlacement, topicPlacer, type PlacementOptions, type TopicPlacer } from "../topics/placement.js";
import { parseWith } from "../validate.js";
import { buildPyramid, defaultPyramid, type BuildDeps, type BuildReport, type PyramidOptions } from "../pyramid/build.js";
import { catchUpPyramid, rebuildPyramid } from "../pyramid/maintain.js";
import { PyramidKeeper, type RefreshReport } from "../pyramid/keeper.js";
import { turnNodeId } from "../pyramid/turns.js";
import { defaultContext, type ContextOptions } from "../query/context.js";
import { ExtractiveSummarizer } from "../pyramid/extractive.js";
import type { Summarizer } from "../ports/summarizer.js";
import { NODE_LEVELS, type NodeLevel, type PyramidNode } from "../model/pyramid.js";
import { validateTimeZone, type WindowLevel } from "../time/windows.js";
import { listMemories, type ListJson, type ListOptions } from "./list.js";
import { edgeJson, historyJson, suggestionJson, type EdgeJson, type HistoryJson } from "./present.js";
import { forgetMemory, forgetWhere, type ForgetOptions, type Forgotten, type ForgetWhereOptions, type ForgottenWhere } from "./forgetting.js";
import { partitionByImportKey } from "../ingest/dedupe.js";

export interface EnginePorts {
  store: Store;
  embedder: Embedder;
  /** Token vectors for late interaction; the default embedder provides both. */
  tokens: TokenVectors;
  clock?: Clock;
}

export interface EngineConfig {
  /** Search defaults (weights, k, rrf k, channels, depth) for this engine; per-call options override them. */
  search?: Partial<Omit<SearchOptions, "weights">> & { weights?: Partial<SearchOptions["weights"]> };
  /** Revision detection on ingest (thresholds, on/off) and the judge that decides. */
  detection?: Partial<DetectionOptions>;
  judge?: RevisionJudge;
  /** Score factor for superseded memories in search (default 0.5; 1 marks them without demoting). */
  demotion?: number;
  /** When common words are left out of lexical lookups. */
  termPruning?: Partial<TermPruning>;
  /** The dense channel: query weighting and its relevance floor (config/defaults.ts). */
  dense?: Partial<DenseOptions>;
  /** Late-interaction candidate generation and weighting. */
  lateInteraction?: Partial<LateInteractionOptions>;
  /** The summary pyramid: on or off (default on), time zone, length bounds. `onIngest` is the old name of `enabled`. */
  pyramid?: Partial<Omit<PyramidOptions, "limits">> & { limits?: Partial<PyramidOptions["limits"]>; onIngest?: boolean };
  /** Writes the pyramid's summaries (default: the offline extractive summariser). */
  summarizer?: Summarizer;
  /** Which summaries a search returns as `context` (see query/context.ts). */
  context?: Partial<ContextOptions>;
  /** Automatic topic placement of memories added without a topic. */
  placement?: Partial<PlacementOptions>;
  /** Index each turn with the turn before it in its session (lexical channels only; default true). */
  conversationContext?: boolean;
  /** Weight of that turn's vector in the turn's own vector (default 0: vectors are the turn's text alone). */
  denseContext?: number;
  /** Entity extraction at ingest (default: on, offline) and the graph channel's walk. */
  entities?: { enabled?: boolean; extractor?: EntityExtractor; /** An OpenAI-compatible chat model as the extractor (see api/open.ts). */ chat?: ChatOptions };
  graph?: Partial<GraphChannelOptions>;
}

/** A topic in the tree: memories directly at it (`count`), at it or below (`total`), and its description. */
export interface TopicJson {
  path: string;
  count: number;
  total: number;
  description: string | null;
}

/** A pyramid node as `pyramid show` lists it. */
export interface PyramidNodeJson {
  id: string;
  level: NodeLevel;
  start: string;
  end: string;
  text: string;
  children: number;
}

/** What `remember` answers: enough to refer to the memory later. */
export interface Remembered {
  id: string;
  kind: string;
  topic: string | null;
  at: string;
}

export interface BatchResult {
  imported: number;
  /** Items left out because the store (or an earlier item) already held them (with `dedupe`). */
  skipped: number;
  ids: (string | null)[];
  failed: { index: number; error: string }[];
}

export interface BatchOptions {
  /** Memories per write transaction. */
  batchSize?: number;
  /** Look for earlier memories each new one revises (default true; a bulk load of old data may skip it). */
  detect?: boolean;
  onProgress?: (done: number, total: number) => void;
  /** Skip items the store already holds, by `metadata.ref` or a hash of the item (see ingest/dedupe.ts). */
  dedupe?: boolean;
}

const DEFAULT_BATCH = 256; // large enough to amortise a commit, small enough that progress moves
/** A superseded memory keeps half its score: still visible beside its successor, never above it. */
const DEFAULT_DEMOTION = 0.5;

const supersedeSchema = z
  .object({
    newId: z.string().min(1),
    oldId: z.string().min(1),
    reason: z.string().max(1000).optional(),
    at: z.string().optional(),
    provenance: z.enum(["user", "api"]).optional(),
  })
  .strict();

/** Takes `supersedes` (an id or ref, or a list of them) off a memory input. */
function splitSupersedes(input: unknown): { supersedes: string[]; rest: unknown } {
  if (typeof input !== "object" || input === null || !("supersedes" in input)) return { supersedes: [], rest: input };
  const { supersedes, ...rest } = input as { supersedes: unknown };
  if (supersedes === undefined) return { supersedes: [], rest };
  const list = typeof supersedes === "string" ? [supersedes] : supersedes;
  if (!Array.isArray(list) || !list.every((s) => typeof s === "string" && s.length > 0)) {
    throw new CascadeError("INVALID_INPUT", "supersedes: a memory id (or ref), or a list of them", { field: "supersedes" });
  }
  // each entry is an edge with a cycle check (a walk of the chain): bounded like every list an input may carry
  if (list.length > 64) throw new CascadeError("INVALID_INPUT", `supersedes: at most 64 memories, got ${list.length}`, { field: "supersedes" });
  return { supersedes: list as string[], rest };
}

export class Engine {
  private readonly channels: Channel[];
  private readonly clock: Clock;
  readonly searchDefaults: SearchOptions;
  private readonly termPruning: TermPruning;
  private readonly detection: DetectionOptions;
  private readonly judge: RevisionJudge;
  private readonly demotion: number;
  private readonly pyramidOptions: PyramidOptions;
  private readonly summarizer: Summarizer;
  private readonly contextOptions: ContextOptions;
  private readonly keeper: PyramidKeeper;
  private readonly placement: PlacementOptions;
  /** Topic centroids, loaded on the first write that needs them and kept current by this engine's writes. */
  private placer: TopicPlacer | null = null;
  private readonly contextTurns: boolean;
  private readonly denseContext: number;
  private readonly extractor: EntityExtractor | null;
  private readonly graphWalk: GraphChannel;

  private constructor(private readonly ports: EnginePorts, config: EngineConfig) {
    this.clock = ports.clock ?? systemClock;
    this.searchDefaults = { ...defaultSearchOptions, ...config.search, weights: { ...defaultSearchOptions.weights, ...config.search?.weights } };
    this.termPruning = { ...defaultTermPruning, ...config.termPruning };
    this.detection = { ...defaultDetection, ...config.detection };
    this.judge = config.judge ?? new CueJudge();
    this.demotion = config.demotion ?? DEFAULT_DEMOTION;
    if (!(this.demotion >= 0 && this.demotion <= 1)) throw invalidInput("demotion", "a factor between 0 and 1");
    const { onIngest, ...pyramid } = config.pyramid ?? {};
    this.pyramidOptions = { ...defaultPyramid, enabled: onIngest ?? defaultPyramid.enabled, ...pyramid, limits: { ...defaultPyramid.limits, ...pyramid.limits } };
    validateTimeZone("pyramid.zone", this.pyramidOptions.zone);
    this.summarizer = config.summarizer ?? new ExtractiveSummarizer(ports.embedder);
    this.contextOptions = { ...defaultContext, ...config.context };
    this.keeper = new PyramidKeeper(() => this.pyramidDeps(), this.pyramidOptions);
    this.placement = { ...defaultPlacement, ...config.placement };
    this.contextTurns = config.conversationContext ?? true;
    this.denseContext = config.denseContext ?? 0;
    this.extractor = config.entities?.enabled === false ? null : (config.entities?.extractor ?? offlineExtractor);
    this.graphWalk = graphChannel(ports.store, config.graph);
    this.channels = [
      bm25Channel(ports.store),
      // store-aware query weighting needs the embedder's own word vectors (same object: same space)
      denseChannel(ports.store, { ...defaultDense, ...config.dense }, ports.embedder === (ports.tokens as unknown) ? ports.tokens : null),
      curatedChannel(ports.store),
      colbertChannel(ports.store, ports.tokens, config.lateInteraction),
      timeChannel(ports.store),
    ];
  }

  /** Opens an engine over a store, refusing a store that was built in another embedder's vector space. */
  static async create(ports: EnginePorts, config: EngineConfig = {}): Promise<Engine> {
    const stamp = await ports.store.embedderStamp();
    if (stamp && (stamp.id !== ports.embedder.id || stamp.dimensions !== ports.embedder.dimensions)) {
      throw new CascadeError(
        "EMBEDDER_MISMATCH",
        `this store was built with embedder ${stamp.id} (${stamp.dimensions}-d), not ${ports.embedder.id} ` +
          `(${ports.embedder.dimensions}-d): open it with the same embedder or use another store`,
        { field: "embedder" },
      );
    }
    return new Engine(ports, config);
  }

  private get stamp() {
    return { id: this.ports.embedder.id, dimensions: this.ports.embedder.dimensions };
  }

  /**
   * Validates, chunks, embeds and stores one memory in one transaction, with the `supersedes` edges it names
   * (memory ids). Afterwards, unless it named its predecessors itself, looks for earlier memories it revises.
   */
  async remember(input: unknown, options: { provenance?: "user" | "api" } = {}): Promise<Remembered> {
    let remembered: Remembered | undefined;
    await this.rememberMany([input], { ...options, failFast: true, onWritten: (_, m) => (remembered = { id: m.id, kind: m.kind, topic: m.topic, at: m.at }) });
    return remembered!;
  }

  /**
   * Stores many memories, one transaction per batch. An invalid item is reported with its index and never
   * costs the valid ones; if a batch's write fails as a whole, its items are retried one by one to isolate it.
   * `supersedes` may name memory ids or the `metadata.ref` of items earlier in the same call.
   */
  async rememberMany(
    inputs: unknown[],
    options: BatchOptions & {
      provenance?: "user" | "api";
      /** Throw the first error instead of reporting it (one memory at a time). */
      failFast?: boolean;
      /** Told of each memory as its transaction commits, so a caller needs no second read. */
      onWritten?: (index: number, memory: PreparedMemory["memory"]) => void;
    } = {},
  ): Promise<BatchResult> {
    // the pyramid's refresh waits until this write has committed and noted what it wrote (pyramid/keeper.ts)
    const longIds: string[] = [];
    this.keeper.beginWrite();
    try {
      return await this.writeMany(inputs, options, longIds);
    } finally {
      // even a write that failed part-way may have committed batches: a refresh with nothing dirty costs one lookup
      await this.keeper.endWrite(longIds, true);
    }
  }

  private async writeMany(
    inputs: unknown[],
    options: BatchOptions & {
      provenance?: "user" | "api";
      /** Throw the first error instead of reporting it (one memory at a time). */
      failFast?: boolean;
      /** Told of each memory as its transaction commits, so a caller needs no second read. */
      onWritten?: (index: number, memory: PreparedMemory["memory"]) => void;
    },
    longIds: string[],
  ): Promise<BatchResult> {
    const batchSize = options.batchSize ?? DEFAULT_BATCH;
    const result: BatchResult = { imported: 0, skipped: 0, ids: inputs.map(() => null), failed: [] };
    const now = this.clock.now();
    const refs = new Map<string, string>();
    const seen = new Map<string, string | null>(); // import keys of this run (dedupe)
    const fail = (index: number, err: unknown) => {
      // only the caller's mistakes are reported per item; a store failure (a lock held too long) stops the
      // batch, so that an import never reports success having dropped good lines
      if (options.failFast || !(err instanceof CascadeError && err.isUsageError)) throw err;
      result.failed.push({ index, error: errorMessage(err) });
    };
    for (let start = 0; start < inputs.length; start += batchSize) {
      let valid: { index: number; memory: ValidMemory; supersedes: string[]; importKey?: string }[] = [];
      inputs.slice(start, start + batchSize).forEach((input, offset) => {
        try {
          const { supersedes, rest } = splitSupersedes(input);
          valid.push({ index: start + offset, memory: validateMemoryInput(rest, now), supersedes });
        } catch (err) {
          fail(start + offset, err);
        }
      });
      if (options.dedupe) {
        const split = await partitionByImportKey(valid, (v) => inputs[v.index], (keys) => this.ports.store.memoryIdsByImportKey(keys), seen);
        valid = split.fresh;
        result.skipped += split.skipped.length;
        for (const s of split.skipped) {
          result.ids[s.index] = s.id;
          const ref = (inputs[s.index] as { metadata?: { ref?: unknown } }).metadata?.ref;
          if (typeof ref === "string" && s.id) refs.set(ref, s.id);
        }
      }
      const contexts = this.contextTurns ? await sessionContexts(valid.map((v) => v.memory), (session, at) => this.ports.store.previousInSession(session, at)) : [];
      const prepared = await attachEntities(await this.placeTopics(await prepareMemories(valid.map((v) => v.memory), this.ports.embedder, now, contexts, this.denseContext)), this.extractor);
      // a context taken from earlier in this batch names its memory once that memory has an id
      contexts.forEach((c, i) => c?.batchIndex !== undefined && (prepared[i].contextOf = prepared[c.batchIndex].memory.id));
      prepared.forEach((p, i) => {
        if (valid[i].importKey) seen.set((p.importKey = valid[i].importKey)!, p.memory.id);
        const ref = valid[i].memory.metadata.ref;
        if (typeof ref === "string") refs.set(ref, p.memory.id);
      });
      const edgesOf = (i: number): EdgeDraft[] =>
        valid[i].supersedes.map((old) => ({
          type: "supersedes",
          from: prepared[i].memory.id,
          to: refs.get(old) ?? old,
          validFrom: Date.parse(prepared[i].memory.at),
          validTo: null,
          recordedAt: now,
          provenance: options.provenance ?? "api",
          confidence: 1,
          reason: null,
        }));
      const written: number[] = [];
      try {
        await this.ports.store.writeMemories(prepared, this.stamp, prepared.flatMap((_, i) => edgesOf(i)));
        written.push(...prepared.keys());
      } catch (batchError) {
        if (!(batchError instanceof CascadeError && batchError.isUsageError) || batchError.code === "EMBEDDER_MISMATCH") throw batchError;
        if (prepared.length === 1) fail(valid[0].index, batchError);
        else {
          for (const [i, p] of prepared.entries()) {
            try {
              await this.ports.store.writeMemories([p], this.stamp, edgesOf(i));
              written.push(i);
            } catch (err) {
              fail(valid[i].index, err);
            }
          }
        }
      }
      // a line that failed was not stored: an identical later line may still be
      valid.forEach((v, i) => v.importKey && !written.includes(i) && seen.delete(v.importKey));
      for (const i of written) {
        if (prepared[i].chunks.length > 1) longIds.push(prepared[i].memory.id);
        result.ids[valid[i].index] = prepared[i].memory.id;
        options.onWritten?.(valid[i].index, prepared[i].memory);
      }
      result.imported += written.length;
      // Explicit supersedes always wins: only memories that named no predecessor are looked at.
      if (options.detect !== false) {
        await this.detect(written.filter((i) => valid[i].supersedes.length === 0).map((i) => prepared[i]), now);
      }
      options.onProgress?.(Math.min(start + batchSize, inputs.length), inputs.length);
      // let a server answer other requests between batches: an await alone resumes before any I/O is read
      if (start + batchSize < inputs.length) await new Promise((resolve) => setImmediate(resolve));
    }
    result.failed.sort((a, b) => a.index - b.index);
    return result;
  }

  /** Keeps the pyramid current after a write (see pyramid/keeper.ts): turn nodes for its long memories, then its windows. */
  private async afterWrite(longIds: string[] = []): Promise<void> {
    this.keeper.beginWrite();
    await this.keeper.endWrite(longIds, true);
  }

  /** Runs the refresh the last writes scheduled, now; what it recomputed (null: nothing pending). */
  async settlePyramid(): Promise<RefreshReport | null> {
    return this.keeper.settle();
  }

  private pyramidDeps(): BuildDeps {
    return { store: this.ports.store, embedder: this.ports.embedder, summarizer: this.summarizer, stamp: this.stamp, now: this.clock.now() };
  }

  /** Whether the pyramid is on (maintained on write, summaries in search and `context`). */
  get pyramidEnabled(): boolean {
    return this.pyramidOptions.enabled;
  }

  /**
   * Brings a store up to date when it is opened with the pyramid on: the turn nodes an older store lacks, and any
   * window left dirty (by a store from before the pyramid was on by default, or by an engine with it off). Null
   * when there was nothing to do.
   */
  async catchUpPyramid(options: { onProgress?: (done: number, total: number) => void } = {}) {
    if (!this.pyramidOptions.enabled) return null;
    return catchUpPyramid(this.pyramidDeps(), this.pyramidOptions, options.onProgress);
  }

  /**
   * Gives each memory that came without a topic the nearest topic (or `unsorted`), recording the choice and its
   * confidence in `metadata.placement`. Explicit topics are never changed. A store with no topic places nothing.
   */
  private async placeTopics(prepared: PreparedMemory[]): Promise<PreparedMemory[]> {
    if (!this.placement.enabled || prepared.length === 0) return prepared;
    const placer = await this.loadPlacer();
    return prepared.map((p) => {
      const vector = p.chunks[0].vector;
      if (p.memory.topic !== null) {
        placer.add(p.memory.topic, vector);
        return p;
      }
      const placement = placer.place(vector);
      if (!placement) return p;
      // an automatic placement never moves a centroid (see topics-sql topicMemberVectors)
      return { ...p, memory: { ...p.memory, topic: placement.topic, metadata: { ...p.memory.metadata, placement } } };
    });
  }

  private async loadPlacer(): Promise<TopicPlacer> {
    if (!this.placer) {
      const rows = (await this.ports.store.topicRows()).filter((r) => r.description);
      const vectors = rows.length ? await this.ports.embedder.embed(rows.map((r) => r.description!)) : [];
      const described = rows.map((r, i) => ({ ...r, vector: vectors[i] }));
      this.placer = topicPlacer(await this.ports.store.topicVectorSums(), described, this.placement);
    }
    return this.placer;
  }

  private async detect(memories: PreparedMemory[], now: number): Promise<void> {
    if (!this.detection.enabled || memories.length === 0) return;
    const found = await detectRevisions(
      this.ports.store,
      this.judge,
      memories.map((p) => ({
        id: p.memory.id,
        text: p.memory.text,
        at: p.memory.at,
        topic: p.memory.metadata.placement ? null : p.memory.topic,
        vector: p.chunks[0].vector,
      })),
      this.detection,
      now,
    );
    for (const edge of found.edges) {
      try {
        await this.ports.store.addEdges([edge]);
      } catch (err) {
        // a detected edge that would close a cycle (or duplicate one) is not worth failing an import for
        if (!(err instanceof CascadeError && err.isUsageError)) throw err;
      }
    }
    if (found.suggestions.length) await this.ports.store.addSuggestions(found.suggestions);
  }

  /** Records that NEW replaces OLD from `at` on (default: NEW's event time). */
  async supersede(newId: string, oldId: string, options: { reason?: string; at?: string; provenance?: "user" | "api" } = {}): Promise<EdgeJson> {
    const o = parseWith(supersedeSchema, { newId, oldId, ...options });
    const newer = await this.show(o.newId);
    await this.show(o.oldId);
    const [edge] = await this.ports.store.addEdges([
      {
        type: "supersedes",
        from: o.newId,
        to: o.oldId,
        validFrom: o.at !== undefined ? parseInstant("at", o.at) : Date.parse(newer.at),
        validTo: null,
        recordedAt: this.clock.now(),
        provenance: o.provenance ?? "api",
        confidence: 1,
        reason: o.reason ?? null,
      },
    ]);
    await this.afterWrite();
    return edgeJson(edge);
  }

  /** Relates two memories with a typed edge (supersedes, contradicts, refines, derived_from, summarizes, relates_to). */
  async link(from: string, to: string, options: Omit<LinkInput, "from" | "to">): Promise<EdgeJson> {
    return link(this.ports.store, { from, to, ...options }, this.clock.now());
  }

  /** The memories and entities around a memory, with every edge's type, validity and provenance. */
  async graph(id: string, options: GraphOptions = {}): Promise<GraphJson> {
    return graphAround(this.ports.store, id, options, this.clock.now());
  }

  /** Entities with how many memories mention them, most mentioned first. */
  async entities(options: { query?: string; top?: number } = {}) {
    return listEntities(this.ports.store, options);
  }

  /** Takes an edge back (it stays in the history, marked retracted now). */
  async retract(edgeId: string): Promise<EdgeJson> {
    const edge = edgeJson(await this.ports.store.retractEdge(edgeId, this.clock.now()));
    await this.afterWrite();
    return edge;
  }

  /** The supersession chain of a memory, oldest to newest, with every edge touching it. */
  async history(id: string, options: { asOf?: string; knownAt?: string } = {}): Promise<HistoryJson> {
    await this.keeper.settle();
    await this.show(id);
    const now = this.clock.now();
    const time = {
      asOf: options.asOf !== undefined ? parseInstant("asOf", options.asOf) : now,
      // knowledge time defaults to everything recorded, as in search (query/options.ts)
      knownAt: options.knownAt !== undefined ? parseInstant("knownAt", options.knownAt) : Infinity,
    };
    return historyJson(id, await historyOf(this.ports.store, id, time));
  }

  async suggestions(status: Suggestion["status"] | "all" = "open") {
    return (await this.ports.store.listSuggestions(status === "all" ? undefined : status)).map(suggestionJson);
  }

  /** Accepts a suggestion (its edge is added, provenance user) or rejects it. */
  async decideSuggestion(id: string, decision: "accepted" | "rejected") {
    const now = this.clock.now();
    const open = (await this.ports.store.listSuggestions("open")).find((s) => s.id === id);
    const edge: EdgeDraft | undefined =
      open && decision === "accepted"
        ? { type: "supersedes", from: open.from, to: open.to, validFrom: Date.parse((await this.show(open.from)).at), validTo: null, recordedAt: now, provenance: "user", confidence: open.confidence, reason: open.reason }
        : undefined;
    const decided = suggestionJson(await this.ports.store.decideSuggestion(id, decision, now, edge));
    await this.afterWrite();
    return decided;
  }

  /** Searches every selected channel and fuses their ranks. */
  async recall(query: string, options: RecallOptions = {}): Promise<SearchResult> {
    await this.keeper.settle();
    const resolved = resolveRecallOptions(options, this.searchDefaults, this.clock.now());
    const opts = { ...resolved, pyramid: resolved.pyramid && this.pyramidOptions.enabled };
    validateQuery(query);
    return search(
      {
        store: this.ports.store,
        embedder: this.ports.embedder,
        channels: this.channels,
        graph: this.graphWalk,
        pruning: this.termPruning,
        demotion: this.demotion,
        zone: this.pyramidOptions.zone,
        context: this.contextOptions,
      },
      query,
      opts,
    );
  }

  /** A memory; a summary node also lists its children (turns, or the nodes one level down). */
  async show(id: string): Promise<Memory & { children?: string[] }> {
    await this.keeper.settle();
    const m = await this.ports.store.getMemory(id);
    if (!m) throw notFound("memory", id);
    return m.kind === "summary" ? { ...m, children: await this.ports.store.summaryChildren(id) } : m;
  }

  /** Memories in time order, a page at a time, with their status at (asOf, knownAt): see api/list.ts. */
  async list(options: ListOptions = {}): Promise<ListJson> {
    return listMemories(this.ports.store, this.clock.now(), options);
  }

  /**
   * Writes the turn nodes that long memories lack and recomputes every dirty day, week and month window (nothing,
   * when none is dirty); `full` recomputes every node (after a change of summariser, say).
   */
  async buildPyramid(options: { full?: boolean; onProgress?: (done: number, total: number) => void } = {}): Promise<BuildReport & { turns: number }> {
    await this.keeper.settle();
    return rebuildPyramid(this.pyramidDeps(), this.pyramidOptions, Boolean(options.full), options.onProgress);
  }

  /** The pyramid's nodes, oldest first (days, then weeks, then months), or one level's. */
  async pyramid(options: { level?: string } = {}): Promise<{ zone: string; dirty: number; nodes: PyramidNodeJson[] }> {
    await this.keeper.settle();
    const level = options.level;
    if (level !== undefined && !NODE_LEVELS.includes(level as NodeLevel)) throw invalidInput("level", `one of ${NODE_LEVELS.join(", ")}`);
    const nodes = await this.ports.store.pyramidNodes({ level: level as NodeLevel | undefined });
    return {
      zone: await this.ports.store.pyramidZone(),
      dirty: (await this.ports.store.dirtyWindows()).length,
      nodes: nodes.map((n: PyramidNode) => ({ ...n, start: formatInstant(n.start), end: formatInstant(n.end) })),
    };
  }

  /** Rebuilds exactly these windows of the pyramid (after a forget: the summaries that quoted what went). */
  private readonly rebuildWindows = (only: { level: WindowLevel; start: number }[]) =>
    buildPyramid({ store: this.ports.store, embedder: this.ports.embedder, summarizer: this.summarizer, stamp: this.stamp, now: this.clock.now() }, this.pyramidOptions, undefined, only);

  /** Removes a memory (and its turn node), rebuilds the summaries that quoted it, and with `purge` erases every byte of it. */
  async forget(id: string, options: ForgetOptions = {}): Promise<Forgotten> {
    await this.keeper.settle();
    const rebuild = this.rebuildWindows;
    const forgotten = await forgetMemory({ store: this.ports.store, rebuild }, id, options);
    await this.afterWrite();
    return forgotten;
  }

  /** Forgets every memory matching scope/metadata conditions and/or before a date (`dryRun`: only say which). */
  async forgetWhere(options: ForgetWhereOptions): Promise<ForgottenWhere> {
    await this.keeper.settle();
    const rebuild = this.rebuildWindows;
    const result = await forgetWhere({ store: this.ports.store, rebuild }, options);
    if (result.forgotten > 0) await this.afterWrite();
    return result;
  }

  /**
   * The topic tree with counts: `count` memories directly at a path, `total` including its descendants.
   * Paths with no memory of their own appear when a descendant has some, or when they were created.
   */
  async topics(under?: string): Promise<{ topics: TopicJson[] }> {
    if (under !== undefined) validateTopicPath("under", under);
    const direct = await this.ports.store.topicCounts(under);
    const rows = await this.ports.store.topicRows(under);
    const nodes = new Map<string, TopicJson>();
    const depth = under ? under.split(".").length : 1;
    const touch = (path: string, count: number) => {
      const labels = path.split(".");
      for (let i = depth; i <= labels.length; i++) {
        const p = labels.slice(0, i).join(".");
        const node = nodes.get(p) ?? { path: p, count: 0, total: 0, description: null };
        node.total += count;
        if (i === labels.length) node.count += count;
        nodes.set(p, node);
      }
    };
    for (const { path, count } of direct) touch(path, count);
    for (const r of rows) {
      touch(r.path, 0);
      nodes.get(r.path)!.description = r.description;
    }
    return { topics: [...nodes.values()].sort((a, b) => (a.path < b.path ? -1 : 1)) };
  }

  /** Creates a topic (or sets its description). Its ancestors need not exist. */
  async createTopic(path: string, options: { description?: string } = {}): Promise<TopicJson> {
    validateTopicPath("topic", path);
    const description = options.description === undefined ? null : validateDescription(options.description);
    await this.ports.store.saveTopic(path, description, this.clock.now());
    this.placer = null;
    return (await this.topics(path)).topics.find((t) => t.path === path)!;
  }

  /** Moves (renames) a subtree: every memory and topic at `from` or below it, atomically. */
  async moveTopic(from: string, to: string): Promise<{ from: string; to: string; memories: number }> {
    return this.repath(from, to, false);
  }

  /** Merges `from` (and its subtree) into `into`, which may already hold memories. */
  async mergeTopic(from: string, into: string): Promise<{ from: string; to: string; memories: number }> {
    return this.repath(from, into, true);
  }

  private async repath(from: string, to: string, merge: boolean) {
    validateTopicPath("from", from);
    validateTopicPath("to", to);
    if ((await this.topics(from)).topics.length === 0) throw notFound("topic", from);
    const memories = await this.ports.store.moveTopic(from, to, { merge });
    this.placer = null;
    return { from, to, memories };
  }

  /** Deletes an empty topic (and the empty topics below it). */
  async deleteTopic(path: string): Promise<{ path: string; deleted: true }> {
    validateTopicPath("topic", path);
    if ((await this.topics(path)).topics.length === 0) throw notFound("topic", path);
    await this.ports.store.deleteTopic(path);
    this.placer = null;
    return { path, deleted: true };
  }

  /** Whether the store's indexes agree with its tables; `repair` rebuilds the ones that do not. */
  async doctor(options: { repair?: boolean } = {}): Promise<{ ok: boolean; checks: DoctorCheck[] }> {
    await this.keeper.settle();
    const checks = await this.ports.store.doctor(Boolean(options.repair));
    return { ok: checks.every((c) => c.ok || c.repaired), checks };
  }

  async stats(): Promise<StoreStats & { embedder: string }> {
    await this.keeper.settle();
    return { ...(await this.ports.store.stats()), embedder: this.ports.embedder.id };
  }

  async close(): Promise<void> {
    await this.keeper.settle();
    await this.ports.store.close();
  }
}

function validateDescription(description: unknown): string {
  if (typeof description !== "string" || description.trim().length === 0) throw invalidInput("description", "a non-empty string");
  if (description.length > defaultLimits.maxDescriptionChars) throw invalidInput("description", `at most ${defaultLimits.maxDescriptionChars} characters`);
  return description.trim();
}

function validateQuery(query: string): void {
  if (typeof query !== "string") throw new CascadeError("INVALID_INPUT", "query: must be a string", { field: "query" });
  if (query.length > defaultLimits.maxQueryChars) {
    throw new CascadeError("INVALID_INPUT", `query: at most ${defaultLimits.maxQueryChars} characters`, { field: "query" });
  }
}

function errorMessage(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
