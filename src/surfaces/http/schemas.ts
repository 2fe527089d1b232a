/**
 * @module surfaces/http/schemas
 * The JSON bodies the HTTP API accepts, read by the routes (app.ts) and described by the OpenAPI document
 * (openapi.ts) from the same schemas.
 */
import { z } from "zod";
import { memoryInputSchema, recallWireShape, whereSchema } from "../../index.js";

/** POST /v1/search: the query and the recall options as the wire spells them (one definition: query/options.ts). */
export const searchBodySchema = z
  .object({
    // an empty query is refused by the engine, with the same message on every surface
    query: z.string({ error: "required, a string" }).describe("what to search for, in plain words (not empty)"),
    ...recallWireShape,
  })
  .strict();

export const forgetWhereBodySchema = z
  .object({
    filter: whereSchema.optional().describe('conditions that must all hold, as for search: {"user": "alice"}'),
    before: z.string().optional().describe("every memory that happened before this time (ISO 8601)"),
    expired: z.boolean().optional().describe("every memory whose expiry has passed"),
    dry_run: z.boolean().optional().describe("list what would be forgotten and change nothing"),
    purge: z.boolean().optional().describe("also erase their text from the store's files"),
  })
  .strict();

export const supersedeBodySchema = z
  .object({ new: z.string().min(1), old: z.string().min(1), reason: z.string().optional(), at: z.string().optional() })
  .strict();

/** POST /v1/memories: the fields of `cascade add` (one schema with the SDK's), plus what it supersedes. */
export const memoryBodySchema = memoryInputSchema.extend({
  supersedes: z
    .union([z.string().min(1), z.array(z.string().min(1)).max(64)])
    .optional()
    .describe("memory ids (or refs of earlier items in the same batch) this memory replaces"),
});

// items are checked one by one by the engine (a bad item is reported by index, never failing the others), so the
// route takes any array; the document describes the items with the memory schema
export const batchBodySchema = z.object({ memories: z.array(z.unknown()), dedupe: z.boolean().optional() }).strict();
export const batchDocSchema = z.object({ memories: z.array(memoryBodySchema), dedupe: z.boolean().optional() }).strict();

/** POST /v1/suggestions/{id}: a person's verdict on a detected revision. */
export const decisionBodySchema = z
  .object({ decision: z.enum(["accepted", "rejected"]).describe("accepted writes the supersedes edge; rejected writes nothing") })
  .strict();

export const topicBodySchema = z.object({ path: z.string({ error: "required, a topic path" }), description: z.string().optional() }).strict();
export const repathBodySchema = z.object({ from: z.string({ error: "required, a topic path" }), to: z.string({ error: "required, a topic path" }) }).strict();

/** POST /v1/messages: chat messages (each a memory) and whether to extract facts from them. */
export const messagesBodySchema = z.object({ messages: z.array(z.unknown()).min(1), extract: z.boolean().optional() }).strict();
export const messagesDocSchema = z.object({ messages: z.array(memoryBodySchema).min(1), extract: z.boolean().optional() }).strict();
