/**
 * @module query/options
 * Search options at the boundary: validated, then merged once over the named defaults into a resolved
 * object with no optional fields. The caller's object is never modified.
 */
import { z } from "zod";
import { defaultLimits, TIME_MODES, type SearchOptions, type TimeMode } from "../config/defaults.js";
import { invalidInput } from "../errors.js";
import { CHANNEL_NAMES, STEP_NAMES, type ChannelName, type SearchFilter, type StepName } from "../model/types.js";
import { parseInstant } from "../time/iso.js";
import { parseLquery } from "../topics/lquery.js";
import { validateTopicPath } from "../topics/path.js";
import { parseWith } from "../validate.js";
import { whereOf, whereSchema, type FieldCondition } from "./where.js";

const channelName = z.enum(CHANNEL_NAMES as [ChannelName, ...ChannelName[]], {
  error: `a channel is one of ${CHANNEL_NAMES.join(", ")}`,
});

/** Read-time steps by name, on or off; a name that is not a step is refused with the list of those that are. */
export const stepsSchema = z.partialRecord(z.enum(STEP_NAMES as unknown as [StepName, ...StepName[]]), z.boolean({ error: "a step is switched with true or false" }), {
  // (zod's types for a record's issues leave out the unknown keys it reports for an enum's record)
  error: (issue) => {
    const i = issue as { code: string; keys?: string[] };
    return i.code === "unrecognized_keys" ? `unknown step ${(i.keys ?? []).map((k) => JSON.stringify(k)).join(", ")}: a step is one of ${STEP_NAMES.join(", ")}` : undefined;
  },
});

/** Kinds a search may name (to keep or to leave out); a store uses a handful. */
export const MAX_KINDS = 32;

export const recallOptionsSchema = z
  .object({
    k: z.number().int().min(1).max(defaultLimits.maxK).optional().describe("how many hits (default 10)"),
    channels: z.array(channelName).min(1, "name at least one channel").max(64).optional().describe(`the channels to fuse, a subset of ${CHANNEL_NAMES.join(", ")}`),
    weights: z
      .partialRecord(channelName, z.number().min(0, "a weight cannot be negative").max(100))
      .optional()
      .describe("a channel's RRF weight, e.g. {\"bm25\": 1.5}"),
    rrfK: z.number().min(0).max(10_000).optional().describe("the RRF constant (default 60)"),
    depth: z.number().int().min(1).max(10_000).optional().describe("how deep each channel ranks (default 100)"),
    since: z.string().optional().describe("only memories that happened at or after this time (ISO 8601)"),
    until: z.string().optional().describe("only memories that happened before this time (ISO 8601)"),
    under: z.string().optional().describe("only memories at this topic path or below it, e.g. ops.config"),
    match: z.string().optional().describe("only memories whose topic matches an ltree lquery, e.g. *.fusion.*"),
    // bounded: each kind is a bound parameter of every channel's query
    kinds: z.array(z.string().min(1).max(64)).max(MAX_KINDS, `at most ${MAX_KINDS} kinds`).optional().describe("only memories of these kinds, e.g. [\"decision\"]"),
    excludeKinds: z.array(z.string().min(1).max(64)).max(MAX_KINDS, `at most ${MAX_KINDS} kinds`).optional().describe("leave out memories of these kinds, e.g. [\"summary\"]"),
    time: z
      .enum(TIME_MODES as [TimeMode, ...TimeMode[]], { error: `time is one of ${TIME_MODES.join(", ")}` })
      .optional()
      .describe("what a time expression in the query does: boost what falls in its window (default), restrict to it, or off"),
    now: z.string().optional().describe("the reference for relative time (\"last Tuesday\", recency); default: the clock"),
    asOf: z.string().optional().describe("read the graph as the world stood then; later memories are not returned"),
    knownAt: z.string().optional().describe("what Cascade knew then: only memories and edges recorded (and not retracted) by then"),
    currentOnly: z.boolean().optional().describe("leave out superseded memories entirely"),
    pyramid: z.boolean().optional().describe("false: no summaries, neither in the hits nor as context"),
    coverage: z
      .boolean()
      .optional()
      .describe("false: a question asking for a summary, an order or every mention is ranked like any other (default true: one hit per moment first)"),
    agreement: z
      .boolean()
      .optional()
      .describe("true: each channel's weight is scaled by how many of its top hits the other channels share on this query (the trace shows why); false: the configured weights"),
    steps: stepsSchema
      .optional()
      .describe(`read-time steps that move hits after fusion, each on by default: false switches one off, e.g. {"echoes": false}; one of ${STEP_NAMES.join(", ")}`),
    includeExpired: z.boolean().optional().describe("also memories whose expiry has passed (left out by default)"),
    filter: whereSchema
      .optional()
      .describe('scope, tag and metadata conditions that must all hold: {"user": "alice"}, {"tags": "travel"}, {"priority": {"gte": 2}}, {"lang": {"in": ["en", "de"]}}'),
    /** The same conditions already parsed (the CLI's `--filter` arguments); not on the wire. */
    where: z.array(z.custom<FieldCondition>()).optional(),
  })
  .strict();

/**
 * The wire's name for each recall option (snake_case: HTTP bodies, MCP arguments), the SDK's camelCase on the
 * left. The surfaces' inputs and the OpenAPI document are derived from recallOptionsSchema through this table,
 * so an option is defined, checked and described once.
 */
export const RECALL_WIRE_NAMES = {
  k: "k",
  channels: "channels",
  weights: "weights",
  rrfK: "rrf_k",
  depth: "depth",
  since: "since",
  until: "until",
  under: "under",
  match: "match",
  kinds: "kinds",
  excludeKinds: "exclude_kinds",
  time: "time",
  now: "now",
  asOf: "as_of",
  knownAt: "known_at",
  currentOnly: "current_only",
  pyramid: "pyramid",
  coverage: "coverage",
  agreement: "agreement",
  steps: "steps",
  includeExpired: "include_expired",
  filter: "filter",
} as const satisfies Partial<Record<keyof typeof recallOptionsSchema.shape, string>>;

type WireKey = keyof typeof RECALL_WIRE_NAMES;
type WireName = (typeof RECALL_WIRE_NAMES)[WireKey];
type WireShape = { [K in WireKey as (typeof RECALL_WIRE_NAMES)[K]]: (typeof recallOptionsSchema.shape)[K] };

/** Recall options as the wire spells them, each field the SDK's own schema (same bounds, same description). */
export const recallWireShape = Object.fromEntries(
  (Object.entries(RECALL_WIRE_NAMES) as [WireKey, WireName][]).map(([sdk, wire]) => [wire, recallOptionsSchema.shape[sdk]]),
) as WireShape;

export type RecallWire = { [K in keyof WireShape]?: z.input<WireShape[K]> };

/** Wire-spelled options → the SDK's RecallOptions (absent fields stay absent). */
export function recallOptionsFromWire(wire: RecallWire): RecallOptions {
  const out: Record<string, unknown> = {};
  for (const [sdk, name] of Object.entries(RECALL_WIRE_NAMES)) if (wire[name as WireName] !== undefined) out[sdk] = wire[name as WireName];
  return out as RecallOptions;
}

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
  // an expired memory is left out as of the time the search is read at
  if (!o.includeExpired) filter.liveAt = asOf;
  const where = whereOf(o);
  if (where) filter.where = where;
  const k = o.k ?? base.k;
  // coverage runs when neither its own switch nor the steps switch it off
  const steps = { ...base.steps, ...o.steps };
  const coverage = (o.coverage ?? base.coverage) && steps.coverage;
  return {
    k,
    rrfK: o.rrfK ?? base.rrfK,
    // each channel must look at least k deep, or fusion could not fill k results
    depth: Math.max(o.depth ?? base.depth, k),
    recencyPool: base.recencyPool,
    channels: o.channels ? [...new Set(o.channels)] : base.channels,
    weights: { ...base.weights, ...o.weights },
    time: o.time ?? base.time,
    coverage,
    agreement: o.agreement ?? base.agreement,
    steps: { ...steps, coverage },
    filter,
    now,
    asOf,
    knownAt,
    currentOnly: o.currentOnly ?? false,
    pyramid: o.pyramid ?? true,
    match: o.match !== undefined ? parseLquery(o.match) : null,
  };
}

