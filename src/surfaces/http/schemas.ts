/**
 * @module surfaces/http/schemas
 * The JSON bodies the HTTP API accepts, read by the routes (app.ts) and described by the OpenAPI document
 * (openapi.ts) from the same schemas.
 */
import { z } from "zod";
import { recallWireShape, whereSchema } from "../../index.js";

/** POST /v1/search: the query and the recall options as the wire spells them (one definition: query/options.ts). */
export const searchBodySchema = z
  .object({
    query: z
      .string({ error: "required, a string" })
      .refine((q) => q.trim() !== "", "must not be empty: say what to search for")
      .describe("what to search for, in plain words"),
    ...recallWireShape,
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
