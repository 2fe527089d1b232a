/**
 * @module api/list-page
 * A page of memories in time order with their supersession status at (as_of, known_at), read by the same rule
 * search uses, and every edge touching them (retracted ones included, with their times) so a viewer can draw them.
 * The options arrive checked: by their schema (api/list.ts), or by `plainListOptions` below when they are plain
 * enough to need no schema (a read-only command then loads no zod).
 */
import { invalidInput } from "../errors.js";
import { edgeCounts, supersessionOf } from "../graph/status.js";
import type { Edge, GraphTime } from "../model/graph.js";
import type { FieldCondition } from "../model/filter.js";
import type { Memory } from "../model/types.js";
import type { ListPosition, Store } from "../ports/store.js";
import { parseInstant } from "../time/iso.js";
import { validateTopicPath } from "../topics/path.js";
import { edgeJson, memoryJson, type EdgeJson, type MemoryJson } from "./present.js";

/** Page size when none is given, and the most one page may hold. */
export const defaultListLimits = Object.freeze({
  limit: 50, // a screenful of a timeline
  maxLimit: 1000, // one page stays well under a megabyte of JSON for ordinary memories
});

/** List options as their schema (api/list.ts) returns them, filters aside. */
export interface CheckedListOptions {
  kinds?: string[];
  under?: string;
  speakers?: string[];
  since?: string;
  until?: string;
  asOf?: string;
  knownAt?: string;
  limit?: number;
  cursor?: string;
  order?: "asc" | "desc";
  includeExpired?: boolean;
}

const STRING_OPTIONS = ["under", "since", "until", "asOf", "knownAt", "cursor"];
const NAME_LISTS = ["kinds", "speakers"];

/**
 * The options unchanged when the schema of api/list.ts would accept them as they are and they name no filter
 * (`filter`, `where`), else null: the caller then checks them with the schema, which names what is wrong. So this
 * check refuses nothing itself and every mistake gets the schema's one message.
 */
export function plainListOptions(options: unknown): CheckedListOptions | null {
  if (typeof options !== "object" || options === null || Array.isArray(options)) return null;
  for (const [key, value] of Object.entries(options)) {
    if (value === undefined) {
      if (key === "filter" || key === "where" || key === "includeExpired" || key === "limit" || key === "order" || STRING_OPTIONS.includes(key) || NAME_LISTS.includes(key)) continue;
      return null;
    }
    if (STRING_OPTIONS.includes(key)) {
      if (typeof value !== "string") return null;
    } else if (NAME_LISTS.includes(key)) {
      if (!Array.isArray(value) || !value.every((v) => typeof v === "string" && v.length > 0)) return null;
    } else if (key === "limit") {
      if (typeof value !== "number" || !Number.isInteger(value) || value < 1 || value > defaultListLimits.maxLimit) return null;
    } else if (key === "order") {
      if (value !== "asc" && value !== "desc") return null;
    } else if (key === "includeExpired") {
      if (typeof value !== "boolean") return null;
    } else return null;
  }
  return options as CheckedListOptions;
}

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

/** A page of memories, its options checked (see above) and its filter conditions parsed (query/where.ts). */
export async function listPage(store: Store, now: number, o: CheckedListOptions, where: FieldCondition[] | undefined): Promise<ListJson> {
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
      where,
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
