/**
 * @module api/list
 * Browsing memories in time order (`cascade list`, `GET /v1/memories`, the inspector's timeline): the simple
 * filters, a page size and an opaque cursor. Each memory comes with its supersession status at (as_of,
 * known_at), read by the same rule search uses, and the page carries every edge touching its memories (retracted
 * ones included, with their times) so a viewer can draw them.
 */
import { z } from "zod";
import { invalidInput } from "../errors.js";
import { edgeCounts, supersessionOf } from "../graph/status.js";
import type { Edge, GraphTime } from "../model/graph.js";
import type { Memory } from "../model/types.js";
import type { ListPosition, Store } from "../ports/store.js";
import { parseInstant } from "../time/iso.js";
import { validateTopicPath } from "../topics/path.js";
import { parseWith } from "../validate.js";
import { whereOf, whereSchema, type FieldCondition } from "../query/where.js";
import { edgeJson, memoryJson, type EdgeJson, type MemoryJson } from "./present.js";

/** Page size when none is given, and the most one page may hold. */
export const defaultListLimits = Object.freeze({
  limit: 50, // a screenful of a timeline
  maxLimit: 1000, // one page stays well under a megabyte of JSON for ordinary memories
});

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

/** What a listed (or shown) memory carries beside its fields: its status, and what replaced it or it replaced. */
interface Listed {
  status: "current" | "superseded";
  superseded_by: string[];
  /** Statements of it that later memories replaced (the rest still stands). */
  revised: { statement: string; by: string }[];
  supersedes: string[];
}

export type ListedMemory = MemoryJson & Listed;

export interface ListJson {
  memories: ListedMemory[];
  /** Every edge into or out of a listed memory, of every type, retracted ones included; `in_force` tells
   * whether it holds at (as_of, known_at), by the rule status uses. */
  edges: (EdgeJson & { in_force: boolean })[];
  /** Pass as `cursor` for the next page; null on the last page. */
  next_cursor: string | null;
}

/** The cursor is the last memory's time and id, base64url-encoded: opaque to callers, stable across writes. */
export function encodeCursor(p: ListPosition): string {
  return Buffer.from(JSON.stringify([p.at, p.id]), "utf8").toString("base64url");
}

export function decodeCursor(cursor: string): ListPosition {
  try {
    const [at, id] = JSON.parse(Buffer.from(cursor, "base64url").toString("utf8")) as unknown[];
    if (typeof at === "number" && Number.isFinite(at) && typeof id === "string" && id.length > 0) return { at, id };
  } catch {
    // reported below
  }
  throw invalidInput("cursor", "not a cursor this server handed out (pass next_cursor from the previous page)");
}

/** Memories with their supersession status at `time` (the rule search uses), and the edges touching them. */
export async function withStatus(store: Store, memories: Memory[], time: GraphTime): Promise<{ memories: ListedMemory[]; edges: Edge[] }> {
  const ids = memories.map((m) => m.id);
  const edges = ids.length ? await store.edgesTouching(ids) : [];
  const status = supersessionOf(ids, edges, time);
  return {
    memories: memories.map((m) => {
      const s = status.get(m.id)!;
      return { ...memoryJson(m), status: s.status, superseded_by: s.supersededBy, supersedes: s.supersedes, revised: s.revised };
    }),
    edges,
  };
}

export async function listMemories(store: Store, now: number, options: ListOptions = {}): Promise<ListJson> {
  const o = parseWith(listOptionsSchema, options);
  const since = o.since !== undefined ? parseInstant("since", o.since) : undefined;
  const until = o.until !== undefined ? parseInstant("until", o.until) : undefined;
  if (since !== undefined && until !== undefined && since >= until) throw invalidInput("since", "must be earlier than until");
  const under = o.under !== undefined && o.under !== "" ? validateTopicPath("under", o.under) : undefined;
  const time = {
    asOf: o.asOf !== undefined ? parseInstant("asOf", o.asOf) : now,
    knownAt: o.knownAt !== undefined ? parseInstant("knownAt", o.knownAt) : now,
  };
  const limit = o.limit ?? defaultListLimits.limit;
  const page = await store.listMemories({
    filter: {
      since,
      until,
      under,
      kinds: o.kinds?.length ? [...new Set(o.kinds)] : undefined,
      // summary nodes are the pyramid's (see `pyramid show`); they are listed only when asked for by kind
      excludeKinds: o.kinds?.includes("summary") ? undefined : ["summary"],
      where: whereOf(o),
      liveAt: o.includeExpired ? undefined : time.asOf,
    },
    speakers: o.speakers?.length ? [...new Set(o.speakers)] : undefined,
    limit,
    order: o.order ?? "asc",
    after: o.cursor !== undefined ? decodeCursor(o.cursor) : undefined,
  });
  const { memories, edges } = await withStatus(store, page.memories, time);
  const last = page.memories.at(-1);
  return {
    memories,
    edges: edges.sort((a, b) => a.validFrom - b.validFrom || a.recordedAt - b.recordedAt).map((e) => ({ ...edgeJson(e), in_force: edgeCounts(e, time) })),
    next_cursor: page.more && last ? encodeCursor({ at: Date.parse(last.at), id: last.id }) : null,
  };
}
