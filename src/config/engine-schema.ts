/**
 * @module config/engine-schema
 * What an engine may be configured with, as data: one schema that checks the config file's `engine` and
 * `search` sections and the same options given to the SDK (api/engine-config.ts), so a value refused in a file
 * is refused in code too. Objects that are not data (a judge, a summariser, an extractor) are typed in
 * EngineConfig and never reach this schema.
 */
import { z } from "zod";
import { embedderSpecSchema } from "../embed/spec.js";
import { recallOptionsSchema } from "../query/options.js";

/** An engine's search defaults: the per-search options that make sense as defaults, and the recency pool. */
export const searchDefaultsSchema = recallOptionsSchema
  .pick({ k: true, channels: true, weights: true, rrfK: true, depth: true, time: true, coverage: true, agreement: true, steps: true })
  .extend({ recencyPool: z.number().int().min(1).max(1000).optional() })
  .strict();

const unit = z.number().min(0).max(1);

/** Engine features, so that each can be switched or tuned (and measured on and off with `cascade eval`). */
export const engineConfigSchema = z
  .object({
    detection: z
      .object({ enabled: z.boolean(), edgeThreshold: unit, suggestThreshold: unit, candidates: z.number().int().min(1).max(50) })
      .partial()
      .strict()
      .optional(),
    demotion: unit.optional(),
    lateInteraction: z
      .object({ expansions: z.number().int().min(1).max(64), minSimilarity: z.number().min(-1).max(1), idfWeighting: z.boolean(), minCoverage: unit, maxPostings: z.number().int().min(1) })
      .partial()
      .strict()
      .optional(),
    /** The dense channel's query weighting and relevance floor (config/defaults.ts DenseOptions). */
    dense: z
      .object({ queryWeighting: z.enum(["idf", "embedder"]), denseZ: z.number().min(-10).max(10).nullable(), aloneZ: z.number().min(-10).max(10).nullable() })
      .partial()
      .strict()
      .optional(),
    /** Conversational locality after fusion (query/neighbours.ts); 0 for either switches it off. */
    neighbours: z.object({ window: z.number().int().min(0).max(50), share: z.number().min(0).max(1) }).partial().strict().optional(),
    /** How far a channel the others do not back on a query is damped (fuse/agreement.ts); floor 1 switches it off. */
    agreement: z.object({ top: z.number().int().min(1).max(1000), floor: unit, full: z.number().gt(0).max(1) }).partial().strict().optional(),
    /** Who said it, after fusion (query/speakers.ts); 0 switches it off. */
    speakers: z.object({ share: z.number().min(0).max(1), userShare: z.number().min(0).max(4), aboutShare: z.number().min(0).max(4) }).partial().strict().optional(),
    /** The later state wins at read time (query/later-values.ts); depth 0 switches it off. */
    laterValues: z.object({ depth: z.number().int().min(0).max(10) }).partial().strict().optional(),
    /** The BM25 channel's work budget (config/defaults.ts defaultBm25). */
    bm25: z.object({ maxPostings: z.number().int().min(1) }).partial().strict().optional(),
    termPruning: z.object({ fraction: unit, minChunks: z.number().int().min(0), maxChunks: z.number().int().min(0) }).partial().strict().optional(),
    pyramid: z
      .object({
        zone: z.string(),
        /** The pyramid on (default) or off: maintained on write, summaries in search and `context`. */
        enabled: z.boolean(),
        /** The old name of `enabled`. */
        onIngest: z.boolean(),
        /** At most how long a search waits for the refresh of a small write (pyramid/build.ts SEARCH_WAIT_MS). */
        searchWaitMs: z.number().int().min(0).max(60_000),
        limits: z.partialRecord(
          z.enum(["turn", "day", "week", "month"]),
          z.object({ maxSentences: z.number().int().min(1).max(100), maxChars: z.number().int().min(50).max(100_000) }).strict(),
        ),
      })
      .partial()
      .strict()
      .optional(),
    placement: z
      .object({
        enabled: z.boolean(),
        minSimilarity: z.number().min(-1).max(1),
        minConfidence: unit,
        certainLift: z.number().positive().max(2),
        minCohesion: z.number().min(0).max(2),
        /** File a memory that fits no topic under `unsorted` (off: it keeps no topic). */
        unsorted: z.boolean(),
      })
      .partial()
      .strict()
      .optional(),
    conversationContext: z.boolean().optional(),
    denseContext: z.number().min(0).max(4).optional(),
    /** Which summaries a search returns as `context`: of how many top hits, which levels, how many at most. */
    context: z
      .object({
        hits: z.number().int().min(0).max(100),
        levels: z.array(z.enum(["turn", "day", "week", "month"])),
        max: z.number().int().min(0).max(50),
        sentences: z.number().int().min(0).max(100),
        timeSpan: z.enum(["context", "rank"]),
        minSimilarity: z.number().min(-1).max(1),
        windows: z.enum(["revised", "always"]),
        moments: z.number().int().min(0).max(300),
      })
      .partial()
      .strict()
      .optional(),
    /** Entity extraction at ingest: on (offline, default) or off, or by an OpenAI-compatible chat model. */
    entities: z.object({ enabled: z.boolean(), chat: z.object({ baseURL: z.string().url(), model: z.string().min(1) }).strict() }).partial().strict().optional(),
    /** The graph channel's walk (see channels/graph.ts for each setting's meaning). */
    graph: z
      .object({
        seeds: z.number().int().min(1).max(200),
        restart: unit,
        maxFanout: z.number().int().min(1).max(100_000),
        perEntity: z.number().int().min(1).max(10_000),
        edgeShare: unit,
        queryEntityWeight: z.number().min(0).max(100),
        concepts: z.boolean(),
        maxConcepts: z.number().int().min(0).max(1000),
      })
      .partial()
      .strict()
      .optional(),
    /** Fact extraction from chat messages by an OpenAI-compatible chat model (POST /v1/messages, rememberMessages). */
    facts: z.object({ chat: z.object({ baseURL: z.string().url(), model: z.string().min(1) }).strict() }).partial().strict().optional(),
    /** The embedder every command, `serve` and `mcp` open the store with (embed/spec.ts); the store keeps it. */
    embedder: embedderSpecSchema.optional(),
    /** Summaries written by an OpenAI-compatible chat model instead of the offline extractive summariser. */
    chatSummarizer: z.object({ baseURL: z.string().url(), model: z.string().min(1) }).strict().optional(),
  })
  .strict();
