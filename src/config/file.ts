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
      .object({ expansions: z.number().int().min(1).max(64), minSimilarity: z.number().min(-1).max(1), idfWeighting: z.boolean() })
      .partial()
      .strict()
      .optional(),
    termPruning: z.object({ fraction: unit, minChunks: z.number().int().min(0), maxChunks: z.number().int().min(0) }).partial().strict().optional(),
    pyramid: z
      .object({
        zone: z.string(),
        onIngest: z.boolean(),
        limits: z.partialRecord(
          z.enum(["day", "week", "month"]),
          z.object({ maxSentences: z.number().int().min(1).max(100), maxChars: z.number().int().min(50).max(100_000) }).strict(),
        ),
      })
      .partial()
      .strict()
      .optional(),
    placement: z
      .object({ enabled: z.boolean(), minSimilarity: z.number().min(-1).max(1), minConfidence: unit, certainLift: z.number().positive().max(2) })
      .partial()
      .strict()
      .optional(),
    conversationContext: z.boolean().optional(),
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
