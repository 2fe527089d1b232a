/**
 * @module api/engine
 * The one engine API that the SDK, CLI, HTTP and MCP surfaces call. It chooses no backend and no model:
 * those arrive as ports (see api/open.ts for the offline defaults).
 */
import { colbertChannel, type LateInteractionOptions } from "../channels/colbert.js";
import { bm25Channel } from "../channels/bm25.js";
import { curatedChannel } from "../channels/curated.js";
import { denseChannel } from "../channels/dense.js";
import type { Channel } from "../channels/channel.js";
import { defaultLimits, defaultSearchOptions, defaultTermPruning, type SearchOptions } from "../config/defaults.js";
import type { TermPruning } from "../text/terms.js";
import { CascadeError, notFound } from "../errors.js";
import { prepareMemories } from "../ingest/prepare.js";
import { validateMemoryInput, type ValidMemory } from "../ingest/validate-memory.js";
import type { Memory, SearchResult } from "../model/types.js";
import type { Clock } from "../ports/clock.js";
import { systemClock } from "../ports/clock.js";
import type { Embedder, TokenVectors } from "../ports/embedder.js";
import type { Store, StoreStats } from "../ports/store.js";
import { resolveRecallOptions, type RecallOptions } from "../query/options.js";
import { search } from "../query/search.js";

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
  /** When common words are left out of lexical lookups. */
  termPruning?: Partial<TermPruning>;
  /** Late-interaction candidate generation and weighting. */
  lateInteraction?: Partial<LateInteractionOptions>;
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
  ids: (string | null)[];
  failed: { index: number; error: string }[];
}

export interface BatchOptions {
  /** Memories per write transaction. */
  batchSize?: number;
  onProgress?: (done: number, total: number) => void;
}

const DEFAULT_BATCH = 256; // large enough to amortise a commit, small enough that progress moves

export class Engine {
  private readonly channels: Channel[];
  private readonly clock: Clock;
  readonly searchDefaults: SearchOptions;
  private readonly termPruning: TermPruning;

  private constructor(private readonly ports: EnginePorts, config: EngineConfig) {
    this.clock = ports.clock ?? systemClock;
    this.searchDefaults = { ...defaultSearchOptions, ...config.search, weights: { ...defaultSearchOptions.weights, ...config.search?.weights } };
    this.termPruning = { ...defaultTermPruning, ...config.termPruning };
    this.channels = [
      bm25Channel(ports.store),
      denseChannel(ports.store),
      curatedChannel(ports.store),
      colbertChannel(ports.store, ports.tokens, config.lateInteraction),
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

  /** Validates, chunks, embeds and stores one memory in one transaction. */
  async remember(input: unknown): Promise<Remembered> {
    const now = this.clock.now();
    const valid = validateMemoryInput(input, now);
    const [prepared] = await prepareMemories([valid], this.ports.embedder, now);
    await this.ports.store.writeMemories([prepared], this.stamp);
    const m = prepared.memory;
    return { id: m.id, kind: m.kind, topic: m.topic, at: m.at };
  }

  /**
   * Stores many memories, one transaction per batch. An invalid item is reported with its index and never
   * costs the valid ones; if a batch's write fails as a whole, its items are retried one by one to isolate it.
   */
  async rememberMany(inputs: unknown[], options: BatchOptions = {}): Promise<BatchResult> {
    const batchSize = options.batchSize ?? DEFAULT_BATCH;
    const result: BatchResult = { imported: 0, ids: inputs.map(() => null), failed: [] };
    const now = this.clock.now();
    for (let start = 0; start < inputs.length; start += batchSize) {
      const valid: { index: number; memory: ValidMemory }[] = [];
      inputs.slice(start, start + batchSize).forEach((input, offset) => {
        try {
          valid.push({ index: start + offset, memory: validateMemoryInput(input, now) });
        } catch (err) {
          result.failed.push({ index: start + offset, error: errorMessage(err) });
        }
      });
      const prepared = await prepareMemories(valid.map((v) => v.memory), this.ports.embedder, now);
      try {
        await this.ports.store.writeMemories(prepared, this.stamp);
        prepared.forEach((p, i) => (result.ids[valid[i].index] = p.memory.id));
        result.imported += prepared.length;
      } catch (batchError) {
        if (batchError instanceof CascadeError && batchError.code === "EMBEDDER_MISMATCH") throw batchError;
        for (const [i, p] of prepared.entries()) {
          try {
            await this.ports.store.writeMemories([p], this.stamp);
            result.ids[valid[i].index] = p.memory.id;
            result.imported++;
          } catch (err) {
            result.failed.push({ index: valid[i].index, error: errorMessage(err) });
          }
        }
      }
      options.onProgress?.(Math.min(start + batchSize, inputs.length), inputs.length);
    }
    result.failed.sort((a, b) => a.index - b.index);
    return result;
  }

  /** Searches every selected channel and fuses their ranks. */
  async recall(query: string, options: RecallOptions = {}): Promise<SearchResult> {
    const opts = resolveRecallOptions(options, this.searchDefaults, this.clock.now());
    validateQuery(query);
    return search({ store: this.ports.store, embedder: this.ports.embedder, channels: this.channels, pruning: this.termPruning }, query, opts);
  }

  async show(id: string): Promise<Memory> {
    const m = await this.ports.store.getMemory(id);
    if (!m) throw notFound("memory", id);
    return m;
  }

  async forget(id: string): Promise<{ id: string; forgotten: true }> {
    if (!(await this.ports.store.deleteMemory(id))) throw notFound("memory", id);
    return { id, forgotten: true };
  }

  async stats(): Promise<StoreStats & { embedder: string }> {
    return { ...(await this.ports.store.stats()), embedder: this.ports.embedder.id };
  }

  async close(): Promise<void> {
    await this.ports.store.close();
  }
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
