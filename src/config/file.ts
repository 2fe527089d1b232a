/**
 * @module config/file
 * The optional config file (`cascade.config.json` in the working folder, or the path in --config or
 * $CASCADE_CONFIG). Flags override it; it overrides the built-in defaults.
 */
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { z } from "zod";
import { CascadeError } from "../errors.js";
import { recallOptionsSchema } from "../query/options.js";
import { parseWith } from "../validate.js";

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
      .object({ expansions: z.number().int().min(1).max(64), minSimilarity: z.number().min(-1).max(1), idfWeighting: z.boolean(), minCoverage: unit })
      .partial()
      .strict()
      .optional(),
    /** The dense channel's query weighting and relevance floor (config/defaults.ts DenseOptions). */
    dense: z
      .object({ queryWeighting: z.enum(["idf", "embedder"]), denseZ: z.number().min(-10).max(10).nullable(), aloneZ: z.number().min(-10).max(10).nullable() })
      .partial()
      .strict()
      .optional(),
    termPruning: z.object({ fraction: unit, minChunks: z.number().int().min(0), maxChunks: z.number().int().min(0) }).partial().strict().optional(),
    pyramid: z
      .object({
        zone: z.string(),
        /** The pyramid on (default) or off: maintained on write, summaries in search and `context`. */
        enabled: z.boolean(),
        /** The old name of `enabled`. */
        onIngest: z.boolean(),
        limits: z.partialRecord(
          z.enum(["turn", "day", "week", "month"]),
          z.object({ maxSentences: z.number().int().min(1).max(100), maxChars: z.number().int().min(50).max(100_000) }).strict(),
        ),
      })
      .partial()
      .strict()
      .optional(),
    placement: z
      .object({ enabled: z.boolean(), minSimilarity: z.number().min(-1).max(1), minConfidence: unit, certainLift: z.number().positive().max(2), minCohesion: z.number().min(0).max(2) })
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
    /** Summaries written by an OpenAI-compatible chat model instead of the offline extractive summariser. */
    chatSummarizer: z.object({ baseURL: z.string().url(), model: z.string().min(1) }).strict().optional(),
  })
  .strict();

export const configFileSchema = z
  .object({
    db: z.string().optional(),
    search: recallOptionsSchema.pick({ k: true, channels: true, weights: true, rrfK: true, depth: true, time: true }).strict().optional(),
    engine: engineConfigSchema.optional(),
    /** `cascade serve`: who may call it and how many namespaces it keeps (flags override). */
    serve: z
      .object({
        allowOrigins: z.array(z.string().url()).max(100),
        allowHosts: z.array(z.string().min(1)).max(100),
        maxNamespaces: z.number().int().min(0),
        openNamespaces: z.number().int().min(1),
      })
      .partial()
      .strict()
      .optional(),
  })
  .strict();

export type ConfigFile = z.infer<typeof configFileSchema>;

export const CONFIG_FILE_NAME = "cascade.config.json";

/** Reads the config file; an explicit path must exist, the default one may be absent. */
export function loadConfigFile(explicitPath?: string): ConfigFile {
  const path = explicitPath ?? process.env.CASCADE_CONFIG ?? join(process.cwd(), CONFIG_FILE_NAME);
  if (!existsSync(path)) {
    if (explicitPath ?? process.env.CASCADE_CONFIG) {
      throw new CascadeError("INVALID_INPUT", `config: no file at ${path}`, { field: "config" });
    }
    return {};
  }
  let json: unknown;
  try {
    json = JSON.parse(readFileSync(path, "utf8"));
  } catch (err) {
    throw new CascadeError("INVALID_INPUT", `config: ${path} is not valid JSON (${(err as Error).message})`, { field: "config" });
  }
  return parseWith(configFileSchema, json, "config");
}
