/**
 * @module api/open
 * The small file that wires the offline defaults: the SQLite store and GloVe/SIF vectors. Everything else in
 * the engine is independent of these choices.
 */
import { join } from "node:path";
import { SqliteStore } from "../backends/sqlite/store.js";
import { loadGloveTable } from "../embed/glove-cache.js";
import { SifEmbedder } from "../embed/sif.js";
import { fixedClock, type Clock } from "../ports/clock.js";
import type { Embedder, TokenVectors } from "../ports/embedder.js";
import { Engine, type EngineConfig } from "./engine.js";
import { ChatSummarizer } from "../pyramid/chat-summarizer.js";
import { ChatEntityExtractor } from "../entities/chat-extractor.js";
import type { ChatOptions } from "../providers/chat.js";
import { DEFAULT_NAMESPACE, namespacePath } from "./space.js";

export interface OpenMemoryOptions extends EngineConfig {
  /** SQLite file; default $CASCADE_DB, else ./.cascade/memory.db. ":memory:" for a throwaway store. */
  path?: string;
  /** A namespace (one user, one agent...): its own store beside the default one, fully isolated. */
  namespace?: string;
  /** Another embedder (for example OpenAIEmbedder); the default is GloVe 100-d with SIF weighting. */
  embedder?: Embedder;
  /** Token vectors for late interaction; defaults to the GloVe vectors. */
  tokens?: TokenVectors;
  /** Summaries by an OpenAI-compatible chat model (key from $CASCADE_EMBED_API_KEY or $OPENAI_API_KEY). */
  chatSummarizer?: ChatOptions;
  /** Fix "now" (ISO ms) for reproducible runs. */
  now?: number;
  clock?: Clock;
}

export function defaultStorePath(): string {
  return process.env.CASCADE_DB || join(process.cwd(), ".cascade", "memory.db");
}

let defaultEmbedder: SifEmbedder | undefined;

/** The default offline embedder (GloVe 100-d, SIF), loaded once per process. */
export function defaultGloveEmbedder(): SifEmbedder {
  defaultEmbedder ??= new SifEmbedder(loadGloveTable());
  return defaultEmbedder;
}

/** Opens (creating on first write) a memory store with the offline defaults. */
export async function openMemory(options: OpenMemoryOptions = {}): Promise<Engine> {
  const store = new SqliteStore(namespacePath(options.path ?? defaultStorePath(), options.namespace ?? DEFAULT_NAMESPACE));
  try {
    const embedder = options.embedder ?? defaultGloveEmbedder();
    const tokens = options.tokens ?? (options.embedder ? defaultGloveEmbedder() : (embedder as SifEmbedder));
    const clock = options.clock ?? (options.now !== undefined ? fixedClock(options.now) : undefined);
    const summarizer = options.summarizer ?? (options.chatSummarizer ? new ChatSummarizer(options.chatSummarizer) : undefined);
    const entities = options.entities?.chat && !options.entities.extractor ? { ...options.entities, extractor: new ChatEntityExtractor(options.entities.chat) } : options.entities;
    return await Engine.create({ store, embedder, tokens, clock }, { ...options, summarizer, entities });
  } catch (err) {
    await store.close();
    throw err;
  }
}
