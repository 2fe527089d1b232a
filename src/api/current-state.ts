/**
 * @module api/current-state
 * "What is true now" for one scope: the statements that stand at (asOf, knownAt), newest first, each with when it
 * became true, what it replaced (the older memory or the one sentence of it, with the edge's reason and
 * confidence) and, on request, the older versions behind it. A superseded memory is never listed; a partly current
 * one is listed with only its still-current sentences. The status rule is search's (graph/status.ts), so a view
 * as of a time before a change gives the old value, and knowing only what was recorded by `knownAt` hides later
 * edges. `about` narrows to the memories mentioning an entity of that name (the entity index, as `cascade
 * entities` counts them) or, when no entity has that name, to the memories search finds for it. Beside the facts,
 * `attributes` gives each standing attribute's value now (api/current-attributes.ts).
 */
import { z } from "zod";
import { sentences } from "../graph/statements.js";
import { edgeCounts, supersessionOf, type RevisedStatement } from "../graph/status.js";
import type { Edge, GraphTime } from "../model/graph.js";
import type { Memory, SearchFilter } from "../model/types.js";
import type { Store } from "../ports/store.js";
import { memoryPassesFilter } from "../model/matching.js";
import { whereOf, whereSchema, type FieldCondition } from "../query/where.js";
import { formatInstant, parseInstant } from "../time/iso.js";
import { parseWith } from "../validate.js";
import { attributeStates, type AttributeStateJson } from "./current-attributes.js";

export const currentStateLimits = Object.freeze({
  limit: 50, // a screenful of facts
  maxLimit: 1000,
  /** Memories read (newest first) looking for current ones, when no `about` narrows them. */
  scan: 5000,
  /** Memories search is asked for when `about` is free text. */
  searchK: 50,
  /** Older versions followed behind one fact. */
  maxHistory: 20,
});

export const currentStateSchema = z
  .object({
    /** Scope and metadata conditions, as search takes them (query/where.ts). */
    filter: whereSchema.optional(),
    where: z.array(z.custom<FieldCondition>()).optional(),
    about: z.string().trim().min(1, "must not be empty: name an entity or say what about").max(200, "at most 200 characters").optional(),
    asOf: z.string().optional(),
    knownAt: z.string().optional(),
    now: z.string().optional(),
    limit: z.number({ error: "a whole number" }).int("a whole number").min(1, "at least 1").max(currentStateLimits.maxLimit, `at most ${currentStateLimits.maxLimit}`).optional(),
    history: z.boolean({ error: "true or false" }).optional(),
  })
  .strict();

export type CurrentStateOptions = z.input<typeof currentStateSchema>;

/** An older memory (or one sentence of it) that a current fact replaced. */
export interface ReplacedJson {
  id: string;
  /** The replaced sentence when the edge named one, otherwise the older memory's text. */
  text: string;
  /** True when only that sentence of the older memory was replaced (the rest of it may still stand). */
  statement: boolean;
  /** When the older value became true (its event time). */
  since: string;
  /** When the replacement took effect (the edge's valid-from). */
  until: string;
  reason: string | null;
  confidence: number;
  provenance: string;
  edge: string;
}

export interface CurrentFactJson {
  /** The memory that says it. */
  id: string;
  /** What is true: the memory's text, or for a partly current memory only its sentences that still stand. */
  text: string;
  /** When it became true (the memory's event time). */
  since: string;
  kind: string;
  user: string | null;
  agent: string | null;
  speaker: string | null;
  /** Sentences of this memory that later memories replaced (left out of `text`), with the memory that did. */
  revised: RevisedStatement[];
  /** What this fact replaced, newest first; empty when it is the first value known. */
  replaced: ReplacedJson[];
  /** With `history`: every older version behind it, newest first (the chain `replaced` starts). */
  history?: ReplacedJson[];
}

export interface CurrentStateJson {
  as_of: string;
  known_at: string;
  /** What `about` resolved to: an entity of the index, or a search. */
  about: { entity: { id: string; name: string; kind: string } } | { query: string } | null;
  facts: CurrentFactJson[];
  /** Each standing attribute a holder stated (a diet, an employer, …), its value now and the values before it. */
  attributes: AttributeStateJson[];
  /** More current facts exist than `limit` (or than were scanned). */
  truncated: boolean;
}

export interface CurrentStateDeps {
  store: Store;
  now: number;
  /** Memory ids search finds for a free-text `about`, in the same scope and times. */
  search: (query: string, options: { filter?: z.infer<typeof whereSchema>; where?: FieldCondition[]; asOf?: string; knownAt?: string; now?: string; k: number }) => Promise<string[]>;
}

export async function currentState(deps: CurrentStateDeps, options: unknown): Promise<CurrentStateJson> {
  const o = parseWith(currentStateSchema, options ?? {});
  const { store } = deps;
  const now = o.now !== undefined ? parseInstant("now", o.now) : deps.now;
  const t: GraphTime = {
    asOf: o.asOf !== undefined ? parseInstant("asOf", o.asOf) : now,
    knownAt: o.knownAt !== undefined ? parseInstant("knownAt", o.knownAt) : Infinity,
  };
  const where = whereOf(o);
  // the scope alone (no times): what replaced or older versions may be shown from
  const scope: SearchFilter = { excludeKinds: ["summary"], ...(where ? { where } : {}) };
  // what had happened by asOf, was known by knownAt and had not expired by asOf
  const visible: SearchFilter = { ...scope, until: t.asOf + 1, liveAt: t.asOf, ...(Number.isFinite(t.knownAt) ? { recordedBy: t.knownAt } : {}) };
  const limit = o.limit ?? currentStateLimits.limit;

  let about: CurrentStateJson["about"] = null;
  let candidates: Memory[];
  let more = false;
  if (o.about !== undefined) {
    const entity = await entityNamed(store, o.about, visible);
    if (entity) {
      about = { entity: { id: entity.id, name: entity.name, kind: entity.kind } };
      const rows = await store.entities.mentioning({ entityIds: [entity.id], limit: currentStateLimits.scan, filter: visible });
      candidates = [...(await store.getMemories([...new Set(rows.map((r) => r.memoryId))])).values()];
    } else {
      about = { query: o.about };
      const ids = await deps.search(o.about, {
        ...(o.filter ? { filter: o.filter } : {}),
        ...(o.where ? { where: o.where } : {}),
        ...(o.asOf !== undefined ? { asOf: o.asOf } : {}),
        ...(o.knownAt !== undefined ? { knownAt: o.knownAt } : {}),
        now: formatInstant(now),
        k: currentStateLimits.searchK,
      });
      candidates = [...(await store.getMemories(ids)).values()];
    }
    candidates = candidates.filter((m) => memoryPassesFilter(m, visible)).sort(newestFirst);
  } else {
    const page = await store.listMemories({ filter: visible, limit: currentStateLimits.scan, order: "desc" });
    candidates = page.memories;
    more = page.more;
  }

  const ids = candidates.map((m) => m.id);
  const edges = ids.length ? (await store.edgesTouching(ids, "supersedes")).filter((e) => e.recordedAt <= t.knownAt) : [];
  const status = supersessionOf(ids, edges, t);
  const facts: CurrentFactJson[] = [];
  let truncated = more;
  for (const m of candidates) {
    const s = status.get(m.id)!;
    if (s.status === "superseded") continue;
    const text = standing(m.text, s.revised);
    if (text === "") continue; // every sentence of it was replaced one by one
    if (facts.length === limit) {
      truncated = true;
      break;
    }
    facts.push({
      id: m.id,
      text,
      since: m.at,
      kind: m.kind,
      user: m.user,
      agent: m.agent,
      speaker: m.speaker,
      revised: s.revised,
      replaced: [],
    });
  }
  await describeReplaced(store, facts, edges, t, scope, Boolean(o.history));
  const attributes = attributeStates(candidates, status);
  return { as_of: formatInstant(t.asOf), known_at: Number.isFinite(t.knownAt) ? formatInstant(t.knownAt) : formatInstant(now), about, facts, attributes, truncated };
}

const newestFirst = (a: Memory, b: Memory) => Date.parse(b.at) - Date.parse(a.at) || (a.id < b.id ? 1 : -1);

/** An entity whose name or key is `name` (letter case and spacing aside), among those the scope's memories mention. */
async function entityNamed(store: Store, name: string, filter: SearchFilter) {
  const norm = (s: string) => s.toLowerCase().replace(/\s+/g, " ").trim();
  const want = norm(name);
  const found = await store.entities.list({ query: name, top: 20, filter });
  return found.find((e) => norm(e.name) === want || norm(e.key) === want) ?? null;
}

/** The memory's text without the sentences later memories replaced (a partly current memory's part that stands). */
function standing(text: string, revised: RevisedStatement[]): string {
  if (revised.length === 0) return text;
  const gone = new Set(revised.map((r) => r.statement.trim()));
  const parts = sentences(text);
  const kept = parts.filter((p) => !gone.has(p.trim()));
  if (kept.length < parts.length) return kept.join(" ").trim();
  // the edge's statement is not one of our sentences exactly: cut it out of the text
  let rest = text;
  for (const g of gone) rest = rest.split(g).join(" ");
  return rest.replace(/\s+/g, " ").trim();
}

/**
 * Fills each fact's `replaced` (the older memories its counting `supersedes` edges point to) and, with `history`,
 * the chain behind them, newest first. Older memories outside the scope are never shown.
 */
async function describeReplaced(store: Store, facts: CurrentFactJson[], known: Edge[], t: GraphTime, scope: SearchFilter, history: boolean): Promise<void> {
  const counting = (e: Edge) => e.type === "supersedes" && edgeCounts(e, t) && e.recordedAt <= t.knownAt;
  const edgesFrom = async (ids: string[], have: Edge[]): Promise<Map<string, Edge[]>> => {
    const edges = have.length ? have : ids.length ? await store.edgesTouching(ids, "supersedes") : [];
    const out = new Map<string, Edge[]>();
    for (const e of edges) if (ids.includes(e.from) && counting(e)) out.set(e.from, [...(out.get(e.from) ?? []), e]);
    return out;
  };
  const memories = new Map<string, Memory>();
  const load = async (ids: string[]) => {
    const missing = ids.filter((id) => !memories.has(id));
    if (missing.length) for (const [id, m] of await store.getMemories(missing)) memories.set(id, m);
  };
  const describe = (e: Edge): ReplacedJson | null => {
    const older = memories.get(e.to);
    if (!older || !memoryPassesFilter(older, scope)) return null;
    return {
      id: older.id,
      text: e.statement ?? older.text,
      statement: e.statement !== null,
      since: older.at,
      until: formatInstant(e.validFrom),
      reason: e.reason,
      confidence: e.confidence,
      provenance: e.provenance,
      edge: e.id,
    };
  };
  const byNewest = (a: Edge, b: Edge) => b.validFrom - a.validFrom || b.recordedAt - a.recordedAt;

  const first = await edgesFrom(facts.map((f) => f.id), known);
  await load([...first.values()].flat().map((e) => e.to));
  for (const f of facts) {
    f.replaced = (first.get(f.id) ?? []).sort(byNewest).map(describe).filter((r): r is ReplacedJson => r !== null);
    if (!history) continue;
    // older versions: walk back from what it replaced, breadth first, each memory once
    const seen = new Set([f.id, ...f.replaced.map((r) => r.id)]);
    const chain = [...f.replaced];
    let frontier = f.replaced.filter((r) => !r.statement).map((r) => r.id);
    while (frontier.length && chain.length < currentStateLimits.maxHistory) {
      const next = await edgesFrom(frontier, []);
      const step = [...next.values()].flat().filter((e) => !seen.has(e.to)).sort(byNewest);
      await load(step.map((e) => e.to));
      frontier = [];
      for (const e of step) {
        const r = describe(e);
        if (!r || seen.has(r.id)) continue;
        seen.add(r.id);
        chain.push(r);
        if (!r.statement) frontier.push(r.id);
      }
    }
    f.history = chain.sort((a, b) => Date.parse(b.since) - Date.parse(a.since)).slice(0, currentStateLimits.maxHistory);
  }
}
