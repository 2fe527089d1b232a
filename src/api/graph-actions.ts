/**
 * @module api/graph-actions
 * The graph's public actions, one function each, called by the Engine: `link` (a typed relation between two
 * memories), `graphAround` (the neighbourhood of a memory: memories and entities, with every edge's type,
 * validity and provenance) and `listEntities`. Input is validated here, before anything is written.
 */
import { z } from "zod";
import { invalidInput, notFound } from "../errors.js";
import { supersessionOf } from "../graph/status.js";
import { entityCurrent, mentionValidity, relationCurrent, supersededAt } from "../graph/invalidation.js";
import { EDGE_TYPES, type Edge, type EdgeType, type GraphTime } from "../model/graph.js";
import type { EntityInfo } from "../model/entity.js";
import type { FieldCondition } from "../model/filter.js";
import { scopeOf } from "../model/scope.js";
import type { SearchFilter } from "../model/types.js";
import { whereOf, whereSchema } from "../query/where.js";
import type { Store } from "../ports/store.js";
import { formatInstant, parseInstant } from "../time/iso.js";
import { parseWith } from "../validate.js";
import { edgeJson, type EdgeJson } from "./present.js";

/** Deepest neighbourhood `graph` walks: each step through an entity can multiply the nodes by `PER_ENTITY`. */
export const MAX_GRAPH_DEPTH = 4;
/** Memories listed per entity in a neighbourhood (most recently written first). */
const PER_ENTITY = 25;
/** Mentioners read to decide whether an entity is still current. */
const STATUS_SAMPLE = 200;
/** Largest neighbourhood returned; the walk stops adding nodes there and says so (`truncated`). */
const MAX_NODES = 500;

const edgeType = z.enum(EDGE_TYPES, { error: `type: one of ${EDGE_TYPES.join(", ")}` });

const linkSchema = z
  .object({
    from: z.string().min(1, "a memory id"),
    to: z.string().min(1, "a memory id"),
    type: edgeType,
    reason: z.string().max(1000).optional(),
    at: z.string().optional(),
    provenance: z.enum(["user", "api"]).optional(),
  })
  .strict();

export type LinkInput = z.input<typeof linkSchema>;

/** Records `from --type--> to`, valid from `at` (default: from's event time). Refuses what would be wrong. */
export async function link(store: Store, input: unknown, now: number): Promise<EdgeJson> {
  const o = parseWith(linkSchema, input);
  const from = await store.getMemory(o.from);
  if (!from) throw invalidInput("from", `no memory with id ${JSON.stringify(o.from)}`);
  if (!(await store.getMemory(o.to))) throw invalidInput("to", `no memory with id ${JSON.stringify(o.to)}`);
  if (o.from === o.to) throw invalidInput("to", "a memory cannot relate to itself");
  if (o.type !== "supersedes") {
    const live = (await store.edgesTouching([o.from], o.type)).find((e) => e.from === o.from && e.to === o.to && e.retractedAt === null);
    if (live) throw invalidInput("to", `${o.from} already ${o.type} ${o.to} (edge ${live.id})`);
  }
  const [edge] = await store.addEdges([
    {
      type: o.type,
      from: o.from,
      to: o.to,
      validFrom: o.at !== undefined ? parseInstant("at", o.at) : Date.parse(from.at),
      validTo: null,
      recordedAt: now,
      provenance: o.provenance ?? "api",
      confidence: 1,
      reason: o.reason ?? null,
    },
  ]);
  return edgeJson(edge);
}

const graphSchema = z
  .object({
    depth: z.number().int().min(1, "at least 1").max(MAX_GRAPH_DEPTH, `at most ${MAX_GRAPH_DEPTH}`).optional(),
    types: z.array(z.union([edgeType, z.literal("mentions")], { error: `type: one of ${[...EDGE_TYPES, "mentions"].join(", ")}` })).optional(),
    asOf: z.string().optional(),
    knownAt: z.string().optional(),
  })
  .strict();

export type GraphOptions = z.input<typeof graphSchema>;

export interface GraphNodeJson {
  id: string;
  type: "memory" | "entity";
  /** Hops from the memory asked about. */
  depth: number;
  /** A memory: current or superseded at as_of; an entity: current while a current memory mentions it. */
  status: "current" | "superseded";
  text?: string;
  at?: string;
  name?: string;
  kind?: string;
  memories?: number;
}

export type GraphEdgeJson = (EdgeJson & { current: boolean }) | { type: "mentions"; from: string; to: string; valid_from: string; valid_to: string | null; provenance: "extractor"; current: boolean };

export interface GraphJson {
  id: string;
  as_of: string;
  known_at: string;
  nodes: GraphNodeJson[];
  edges: GraphEdgeJson[];
  truncated: boolean;
}

/**
 * The neighbourhood of a memory out to `depth` hops over typed edges and entity mentions. Typed edges are followed
 * as they were stated; a hop through an entity reaches only memories of the memory's own scope, and entities are
 * counted there (model/scope.ts).
 */
export async function graphAround(store: Store, id: string, options: unknown, now: number): Promise<GraphJson> {
  const o = parseWith(graphSchema, options ?? {});
  const start = await store.getMemory(id);
  if (!start) throw notFound("memory", id);
  const within: SearchFilter = { scope: scopeOf(start) };
  const t: GraphTime = { asOf: o.asOf !== undefined ? parseInstant("asOf", o.asOf) : now, knownAt: o.knownAt !== undefined ? parseInstant("knownAt", o.knownAt) : now };
  const types = new Set<string>(o.types ?? [...EDGE_TYPES, "mentions"]);
  const depth = o.depth ?? 1;

  const memoryDepth = new Map<string, number>([[id, 0]]);
  const entityDepth = new Map<string, number>();
  const entities = new Map<string, EntityInfo>();
  const edges = new Map<string, Edge>();
  const mentions: { memory: string; entity: string }[] = [];
  const mentionSeen = new Set<string>();
  let truncated = false;
  let frontier = [id];
  let entityFrontier: string[] = [];
  const size = () => memoryDepth.size + entityDepth.size;

  // breadth first over memories and entities alike: memory → memory (an edge), memory → entity (a mention) and
  // entity → memory (another mention) are one hop each
  for (let d = 1; d <= depth && frontier.length + entityFrontier.length > 0; d++) {
    const next: string[] = [];
    const nextEntities: string[] = [];
    const reach = (m: string) => {
      if (memoryDepth.has(m)) return;
      if (size() >= MAX_NODES) return void (truncated = true);
      memoryDepth.set(m, d);
      next.push(m);
    };
    if (frontier.length) {
      // edges recorded by knownAt (retracted ones are history, not neighbours)
      for (const e of await store.edgesTouching(frontier)) {
        if (!types.has(e.type) || e.recordedAt > t.knownAt || (e.retractedAt !== null && e.retractedAt <= t.knownAt)) continue;
        edges.set(e.id, e);
        reach(e.from);
        reach(e.to);
      }
    }
    if (types.has("mentions")) {
      if (frontier.length) {
        for (const [m, list] of await store.entities.mentionsOf(frontier, within)) {
          for (const e of list) {
            entities.set(e.id, e);
            if (!entityDepth.has(e.id)) {
              if (size() >= MAX_NODES) {
                truncated = true;
                continue;
              }
              entityDepth.set(e.id, d);
              nextEntities.push(e.id);
            }
            addMention(m, e.id);
          }
        }
      }
      if (entityFrontier.length) {
        for (const r of await store.entities.mentioning({ entityIds: entityFrontier, limit: PER_ENTITY, filter: within })) {
          if (entities.get(r.entityId)!.memories > PER_ENTITY) truncated = true;
          reach(r.memoryId);
          if (memoryDepth.has(r.memoryId)) addMention(r.memoryId, r.entityId);
        }
      }
    }
    frontier = next;
    entityFrontier = nextEntities;
  }

  function addMention(memory: string, entity: string) {
    const key = `${memory}>${entity}`;
    if (!mentionSeen.has(key)) {
      mentionSeen.add(key);
      mentions.push({ memory, entity });
    }
  }

  const memoryIds = [...memoryDepth.keys()];
  const supersedes = (await store.edgesTouching(memoryIds, "supersedes")).filter((e) => e.recordedAt <= t.knownAt);
  const status = supersessionOf(memoryIds, supersedes, t);
  const gone = supersededAt(memoryIds, supersedes, t);
  const allEdges = [...edges.values()].filter((e) => memoryDepth.has(e.from) && memoryDepth.has(e.to));
  const nodes: GraphNodeJson[] = [];
  for (const m of memoryIds) {
    const memory = (await store.getMemory(m))!;
    nodes.push({ id: m, type: "memory", depth: memoryDepth.get(m)!, status: status.get(m)!.status, text: memory.text, at: memory.at });
  }
  // An entity is current while any current memory mentions it, in the store (not just in this neighbourhood):
  // its most recent mentioners are read; when more exist than were read, it is never called stale.
  const mentioners = entityDepth.size ? await store.entities.mentioning({ entityIds: [...entityDepth.keys()], limit: STATUS_SAMPLE, filter: within }) : [];
  const byEntity = new Map<string, string[]>();
  for (const r of mentioners) byEntity.set(r.entityId, [...(byEntity.get(r.entityId) ?? []), r.memoryId]);
  const mentionerIds = [...new Set(mentioners.map((r) => r.memoryId))];
  const mentionersGone = supersededAt(mentionerIds, (await store.edgesTouching(mentionerIds, "supersedes")).filter((e) => e.recordedAt <= t.knownAt), t);
  for (const [e, d] of entityDepth) {
    const info = entities.get(e)!;
    const current = info.memories > STATUS_SAMPLE || entityCurrent(byEntity.get(e) ?? [], mentionersGone);
    nodes.push({ id: e, type: "entity", depth: d, status: current ? "current" : "superseded", name: info.name, kind: info.kind, memories: info.memories });
  }
  const atOf = new Map(nodes.filter((n) => n.type === "memory").map((n) => [n.id, n.at!]));
  const edgeList: GraphEdgeJson[] = [
    ...allEdges.map((e) => ({ ...edgeJson(e), current: relationCurrent(e, allEdges, gone, t) })),
    ...mentions.map(({ memory, entity }) => {
      const v = mentionValidity(memory, gone);
      return { type: "mentions" as const, from: memory, to: entity, valid_from: atOf.get(memory)!, valid_to: v.validTo === null ? null : formatInstant(v.validTo), provenance: "extractor" as const, current: v.current };
    }),
  ];
  return { id, as_of: formatInstant(t.asOf), known_at: formatInstant(t.knownAt), nodes, edges: edgeList, truncated };
}

const entitiesSchema = z
  .object({
    query: z.string().max(200, "at most 200 characters").optional(),
    top: z.number().int().min(1, "at least 1").max(10_000, "at most 10000").optional(),
    /** Scope and metadata conditions (query/where.ts), as JSON or as parsed `--filter` arguments. */
    filter: whereSchema.optional(),
    where: z.array(z.custom<FieldCondition>()).optional(),
  })
  .strict();
export type EntitiesOptions = z.input<typeof entitiesSchema>;

/** Entities by mentions; with a filter, those the memories passing it mention, counted over those memories only. */
export async function listEntities(store: Store, options: unknown): Promise<{ entities: EntityInfo[] }> {
  const o = parseWith(entitiesSchema, options ?? {});
  const where = whereOf(o);
  return { entities: await store.entities.list({ query: o.query?.trim() || undefined, top: o.top ?? 20, ...(where ? { filter: { where } } : {}) }) };
}

export type { EdgeType };
