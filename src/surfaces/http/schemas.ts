/**
 * @module surfaces/http/schemas
 * The JSON bodies the HTTP API accepts, read by the routes (app.ts) and described by the OpenAPI document
 * (openapi.ts) from the same schemas.
 */
import { z } from "zod";
import { CHANNEL_NAMES, whereSchema } from "../../index.js";

export const searchBodySchema = z
  .object({
    query: z.string({ error: "required, a string" }).refine((q) => q.trim() !== "", "must not be empty: say what to search for"),
    k: z.number().optional(),
    channels: z.array(z.enum(CHANNEL_NAMES as [string, ...string[]])).optional(),
    weights: z.record(z.string(), z.number()).optional(),
    rrf_k: z.number().optional(),
    depth: z.number().optional(),
    under: z.string().optional(),
    match: z.string().optional(),
    since: z.string().optional(),
    until: z.string().optional(),
    as_of: z.string().optional(),
    known_at: z.string().optional(),
    current_only: z.boolean().optional(),
    kinds: z.array(z.string()).optional(),
    exclude_kinds: z.array(z.string()).optional(),
    time: z.string().optional(),
    now: z.string().optional(),
    pyramid: z.boolean().optional(),
    filter: whereSchema.optional(),
  })
  .strict();

export const forgetWhereBodySchema = z
  .object({ filter: whereSchema.optional(), before: z.string().optional(), dry_run: z.boolean().optional(), purge: z.boolean().optional() })
  .strict();

export const supersedeBodySchema = z
  .object({ new: z.string().min(1), old: z.string().min(1), reason: z.string().optional(), at: z.string().optional() })
  .strict();

export const batchBodySchema = z.object({ memories: z.array(z.unknown()), dedupe: z.boolean().optional() }).strict();

export const topicBodySchema = z.object({ path: z.string({ error: "required, a topic path" }), description: z.string().optional() }).strict();
export const repathBodySchema = z.object({ from: z.string({ error: "required, a topic path" }), to: z.string({ error: "required, a topic path" }) }).strict();
