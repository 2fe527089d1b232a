/**
 * @module api/list
 * Browsing memories in time order (`cascade list`, `GET /v1/memories`, the inspector's timeline): the options
 * checked against their schema, then the page read by api/list-page.ts (which a read-only command loads without
 * zod when its options are plain: api/reader.ts).
 */
import { z } from "zod";
import { parseWith } from "../validate.js";
import { whereOf, whereSchema, type FieldCondition } from "../query/where.js";
import { defaultListLimits, listPage, type ListJson } from "./list-page.js";
import type { Store } from "../ports/store.js";

export { defaultListLimits, decodeCursor, encodeCursor, withStatus, type ListedMemory, type ListJson } from "./list-page.js";

export const listOptionsSchema = z
  .object({
    kinds: z.array(z.string().min(1)).optional(),
    under: z.string().optional(),
    speakers: z.array(z.string().min(1)).optional(),
    since: z.string().optional(),
    until: z.string().optional(),
    asOf: z.string().optional(),
    knownAt: z.string().optional(),
    limit: z.number().int().min(1).max(defaultListLimits.maxLimit).optional(),
    cursor: z.string().optional(),
    order: z.enum(["asc", "desc"], { error: "order is asc or desc" }).optional(),
    /** Also memories whose expiry has passed (left out by default). */
    includeExpired: z.boolean().optional(),
    /** Scope and metadata conditions (query/where.ts), as JSON or as parsed `--filter` arguments. */
    filter: whereSchema.optional(),
    where: z.array(z.custom<FieldCondition>()).optional(),
  })
  .strict();

export type ListOptions = z.input<typeof listOptionsSchema>;

export async function listMemories(store: Store, now: number, options: ListOptions = {}): Promise<ListJson> {
  const o = parseWith(listOptionsSchema, options);
  return listPage(store, now, o, whereOf(o));
}
