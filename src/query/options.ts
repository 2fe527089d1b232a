/**
 * @module query/options
 * Search options at the boundary: validated, then merged once over the named defaults into a resolved
 * object with no optional fields. The caller's object is never modified.
 */
import { z } from "zod";
import { defaultLimits, TIME_MODES, type SearchOptions, type TimeMode } from "../config/defaults.js";
import { invalidInput } from "../errors.js";
import { CHANNEL_NAMES, type ChannelName, type SearchFilter } from "../model/types.js";
import { parseInstant } from "../time/iso.js";
import { parseLquery } from "../topics/lquery.js";
import { validateTopicPath } from "../topics/path.js";
import { parseWith } from "../validate.js";
import { whereOf, whereSchema, type FieldCondition } from "./where.js";

const channelName = z.enum(CHANNEL_NAMES as [ChannelName, ...ChannelName[]], {
  error: `a channel is one of ${CHANNEL_NAMES.join(", ")}`,
});

/** Kinds a search may name (to keep or to leave out); a store uses a handful. */
export const MAX_KINDS = 32;

export const recallOptionsSchema = z
  .object({
    k: z.number().int().min(1).max(defaultLimits.maxK).optional(),
    channels: z.array(channelName).min(1, "name at least one channel").max(64).optional(),
    weights: z.partialRecord(channelName, z.number().min(0, "a weight cannot be negative").max(100)).optional(),
    rrfK: z.number().min(0).max(10_000).optional(),
    depth: z.number().int().min(1).max(10_000).optional(),
    since: z.string().optional(),
    until: z.string().optional(),
    under: z.string().optional(),
    match: z.string().optional(),
    // bounded: each kind is a bound parameter of every channel's query
    kinds: z.array(z.string().min(1).max(64)).max(MAX_KINDS, `at most ${MAX_KINDS} kinds`).optional(),
    excludeKinds: z.array(z.string().min(1).max(64)).max(MAX_KINDS, `at most ${MAX_KINDS} kinds`).optional(),
    time: z.enum(TIME_MODES as [TimeMode, ...TimeMode[]], { error: `time is one of ${TIME_MODES.join(", ")}` }).optional(),
    now: z.string().optional(),
    asOf: z.string().optional(),
    knownAt: z.string().optional(),
    currentOnly: z.boolean().optional(),
    /** False: no summaries in hits and no `context` (the pyramid off for this search). */
    pyramid: z.boolean().optional(),
    /** Scope and metadata conditions (query/where.ts): `{"user": "alice", "priority": {"gte": 2}}`. */
    filter: whereSchema.optional(),
    /** The same conditions already parsed (the CLI's `--filter` arguments). */
    where: z.array(z.custom<FieldCondition>()).optional(),
  })
  .strict();

export type RecallOptions = z.input<typeof recallOptionsSchema>;

export interface ResolvedRecall extends SearchOptions {
  /** The parsed lquery, still to be resolved against the store's topics. */
  match: ReturnType<typeof parseLquery> | null;
  filter: SearchFilter;
  now: number;
  /** The world time the graph is read at; when given, memories that happened later are not returned. */
  asOf: number;
  /** What Cascade knew: memories and edges recorded by then (edges not retracted by then); default Infinity. */
  knownAt: number;
  currentOnly: boolean;
  /** Summaries in hits (for a time span) and as `context`. */
  pyramid: boolean;
}

export function resolveRecallOptions(options: unknown, base: SearchOptions, clockNow: number): ResolvedRecall {
  const o = parseWith(recallOptionsSchema, options ?? {});
  const filter: SearchFilter = {};
  if (o.since !== undefined) filter.since = parseInstant("since", o.since);
  if (o.until !== undefined) filter.until = parseInstant("until", o.until);
  if (filter.since !== undefined && filter.until !== undefined && filter.since >= filter.until) {
    throw invalidInput("since", "must be earlier than until");
  }
  if (o.under !== undefined) filter.under = validateTopicPath("under", o.under);
  if (o.kinds !== undefined) filter.kinds = [...new Set(o.kinds)];
  if (o.excludeKinds !== undefined) filter.excludeKinds = [...new Set(o.excludeKinds)];
  // `now` is the reference for relative time: recency, "last Tuesday", and the world time statuses are read at
  // unless `asOf` says otherwise. It never narrows what Cascade knows: knowledge time defaults to everything
  // recorded, and `knownAt` filters memories by record time exactly as it filters edges.
  const now = o.now !== undefined ? parseInstant("now", o.now) : clockNow;
  const asOf = o.asOf !== undefined ? parseInstant("asOf", o.asOf) : now;
  if (o.asOf !== undefined) filter.until = Math.min(filter.until ?? Infinity, asOf + 1);
  const knownAt = o.knownAt !== undefined ? parseInstant("knownAt", o.knownAt) : Infinity;
  if (o.knownAt !== undefined) filter.recordedBy = knownAt;
  const where = whereOf(o);
  if (where) filter.where = where;
  const k = o.k ?? base.k;
  return {
    k,
    rrfK: o.rrfK ?? base.rrfK,
    // each channel must look at least k deep, or fusion could not fill k results
    depth: Math.max(o.depth ?? base.depth, k),
    recencyPool: base.recencyPool,
    channels: o.channels ? [...new Set(o.channels)] : base.channels,
    weights: { ...base.weights, ...o.weights },
    time: o.time ?? base.time,
    filter,
    now,
    asOf,
    knownAt,
    currentOnly: o.currentOnly ?? false,
    pyramid: o.pyramid ?? true,
    match: o.match !== undefined ? parseLquery(o.match) : null,
  };
}

