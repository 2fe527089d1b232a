/**
 * @module api/open
 * The small file that wires the offline defaults: a store from api/stores (SQLite) and GloVe/SIF vectors.
 * Everything else in the engine is independent of these choices.
 */
import { ChatFactExtractor } from "../ingest/fact-extractor.js";
import { CascadeError, storeFailure } from "../errors.js";
import { defaultStorePath, openLocatedStore } from "./open-store.js";
import { loadGloveTable } from "../embed/glove-cache.js";
import { GLOVE_DIMENSIONS, SifEmbedder, sifEmbedderId } from "../embed/sif.js";
import { fixedClock, type Clock } from "../ports/clock.js";
import type { Embedder, TokenVectors } from "../ports/embedder.js";
import type { Store } from "../ports/store.js";
import { EMBEDDER_SPEC_META, embedderFromSpec, embedderSpecFromEnv, embedderSpecSchema, lazyTokens, type EmbedderSpec } from "../embed/spec.js";
import { parseWith } from "../validate.js";
import { Engine, type EngineConfig } from "./engine.js";
import { ChatSummarizer } from "../pyramid/chat-summarizer.js";
import { ChatEntityExtractor } from "../entities/chat-extractor.js";
import type { ChatOptions } from "../providers/chat.js";
import { DEFAULT_NAMESPACE } from "./namespaces.js";

export interface OpenMemoryOptions extends EngineConfig {
  /** SQLite file; default $CASCADE_DB, else ./.cascade/memory.db. ":memory:" for a throwaway store. */
  path?: string;
  /** A namespace (one user, one agent...): its own store beside the default one, fully isolated. */
  namespace?: string;
  /**
   * Create the store when it does not exist yet (default true). false is for reading: a missing store (a SQLite
   * file, or a namespace) is NOT_FOUND, and no file or folder is created.
   */
  create?: boolean;
  /** @deprecated the former name of `create` (it now covers the default namespace's store too). */
  createNamespace?: boolean;
  /**
   * Another embedder: an object (for example an OpenAIEmbedder), or a spec such as `{ provider:
   * "openai-compatible", baseURL, model, dimensions }` (embed/spec.ts) that the store then keeps, so it reopens
   * with the same embedder. Default: $CASCADE_EMBED_URL/_MODEL/_DIMENSIONS when set, else the spec the store
   * keeps, else GloVe 100-d with SIF weighting.
   */
  embedder?: Embedder | EmbedderSpec;
  /** Token vectors for late interaction; defaults to the GloVe vectors. */
  tokens?: TokenVectors;
  /** Summaries by an OpenAI-compatible chat model (key from $CASCADE_EMBED_API_KEY or $OPENAI_API_KEY). */
  chatSummarizer?: ChatOptions;
  /** Fix "now" (ISO ms) for reproducible runs. */
  now?: number;
  clock?: Clock;
  /** Progress of bringing an older store's summary pyramid up to date on open (the CLI draws a bar). */
  onPyramidCatchUp?: (done: number, total: number) => void;
}

/** The options that say where and with what models to open; the rest are the engine's configuration. */
const OPENING_OPTIONS = new Set(["path", "namespace", "create", "createNamespace", "embedder", "tokens", "chatSummarizer", "now", "clock", "onPyramidCatchUp"]);

export { defaultStorePath };

let defaultEmbedder: SifEmbedder | undefined;

/** The default offline embedder (GloVe 100-d, SIF), loaded once per process. */
export function defaultGloveEmbedder(): SifEmbedder {
  defaultEmbedder ??= new SifEmbedder(loadGloveTable());
  return defaultEmbedder;
}


/**
 * The default embedder under its own name and size, its word vectors read on the first text it embeds or the first
 * word it looks up: a command that only reads what is stored (stats, show, list) never pays for them.
 */
class LazyGloveEmbedder implements Embedder, TokenVectors {
  readonly id = sifEmbedderId();
  readonly dimensions = GLOVE_DIMENSIONS;
  embed(texts: string[]): Promise<Float32Array[]> {
    return defaultGloveEmbedder().embed(texts);
  }
  termVector(term: string): Float32Array | null {
    return defaultGloveEmbedder().termVector(term);
  }
}

/**
 * Which embedder a store is opened with: an object given by the caller; else a spec given by the caller or the
 * environment (returned, so the store keeps it); else the spec the store keeps; else the offline default.
 */
async function chooseEmbedder(given: Embedder | EmbedderSpec | undefined, store: Store): Promise<{ embedder: Embedder; spec: EmbedderSpec | null }> {
  if (given && !("provider" in given)) return { embedder: given, spec: null };
  const asked = given ? parseWith(embedderSpecSchema, given, "embedder") : embedderSpecFromEnv();
  if (asked) return { embedder: await embedderFromSpec(asked, defaultGloveEmbedder), spec: asked };
  const kept = await store.getMeta(EMBEDDER_SPEC_META);
  if (kept) return { embedder: await embedderFromSpec(parseWith(embedderSpecSchema, JSON.parse(kept), "embedder"), defaultGloveEmbedder), spec: null };
  return { embedder: new LazyGloveEmbedder(), spec: null };
}

/** Opens (creating on first write) a memory store with the offline defaults. */
export async function openMemory(options: OpenMemoryOptions = {}): Promise<Engine> {
  const store = await openLocatedStore(options);
  try {
    const { embedder, spec } = await chooseEmbedder(options.embedder, store);
    // late interaction reads the offline word vectors even beside another embedder, loaded only when it runs
    const tokens = options.tokens ?? (embedder instanceof SifEmbedder || embedder instanceof LazyGloveEmbedder ? embedder : lazyTokens(defaultGloveEmbedder, "glove-wink-sg-100d", GLOVE_DIMENSIONS));
    const clock = options.clock ?? (options.now !== undefined ? fixedClock(options.now) : undefined);
    const summarizer = options.summarizer ?? (options.chatSummarizer ? new ChatSummarizer(options.chatSummarizer) : undefined);
    const entities = options.entities?.chat && !options.entities.extractor ? { ...options.entities, extractor: new ChatEntityExtractor(options.entities.chat) } : options.entities;
    const facts = options.facts?.chat && !options.facts.extractor ? { ...options.facts, extractor: new ChatFactExtractor(options.facts.chat) } : options.facts;
    const config = Object.fromEntries(Object.entries(options).filter(([key]) => !OPENING_OPTIONS.has(key))) as EngineConfig;
    const engine = await Engine.create({ store, embedder, tokens, clock }, { ...config, summarizer, entities, facts }, { namespace: options.namespace ?? DEFAULT_NAMESPACE });
    // the store keeps the spec it was opened with (after Engine.create refused a store of another vector space)
    if (spec && (await store.getMeta(EMBEDDER_SPEC_META)) !== JSON.stringify(spec)) await store.setMeta(EMBEDDER_SPEC_META, JSON.stringify(spec));
    // a store written before the pyramid was kept current (or with it off) is brought up to date once; a store
    // that cannot take a write now (a full disk, a lock held too long) still opens for reads, and a later open
    // or write catches up (and a damaged store opens for doctor to report on)
    await engine.catchUpPyramid({ onProgress: options.onPyramidCatchUp }).catch((err) => {
      if ((err instanceof CascadeError ? err : storeFailure(err))?.code !== "STORE_ERROR") throw err;
    });
    return engine;
  } catch (err) {
    await store.close();
    throw err;
  }
}
