/**
 * @module api/revision-actions
 * What replaced what, as the SDK records and reads it: supersede, retract, history, and the suggestions that
 * revision detection left for a person to decide. Each write is followed by the pyramid's refresh (`afterWrite`),
 * since edges change which summaries are current.
 */
import { z } from "zod";
import { historyOf } from "../graph/history.js";
import type { EdgeDraft, Suggestion } from "../model/graph.js";
import type { Memory } from "../model/types.js";
import type { Store } from "../ports/store.js";
import { parseInstant } from "../time/iso.js";
import { parseWith } from "../validate.js";
import { edgeJson, historyJson, suggestionJson, type EdgeJson, type HistoryJson, type MemoryJson } from "./present.js";

export interface RevisionDeps {
  store: Store;
  now: () => number;
  /** The memory, or NOT_FOUND. */
  show: (id: string) => Promise<MemoryJson>;
  /** Keeps the pyramid current after an edge changed. */
  afterWrite: () => Promise<void>;
}

const supersedeSchema = z
  .object({
    newId: z.string().min(1),
    oldId: z.string().min(1),
    reason: z.string().max(1000).optional(),
    at: z.string().optional(),
    provenance: z.enum(["user", "api"]).optional(),
  })
  .strict();

export type SupersedeOptions = { reason?: string; at?: string; provenance?: "user" | "api" };

/**
 * Records that NEW replaces OLD from `at` on (default: NEW's event time). Idempotent: when NEW already supersedes
 * OLD (said before, or found by revision detection), that edge is returned and nothing is written.
 */
export async function supersede(deps: RevisionDeps, newId: string, oldId: string, options: SupersedeOptions): Promise<EdgeJson> {
  const o = parseWith(supersedeSchema, { newId, oldId, ...options });
  const newer = await deps.show(o.newId);
  await deps.show(o.oldId);
  const existing = (await deps.store.edgesTouching([o.newId], "supersedes")).find((e) => e.from === o.newId && e.to === o.oldId && e.retractedAt === null);
  if (existing) return edgeJson(existing);
  const [edge] = await deps.store.addEdges([
    {
      type: "supersedes",
      from: o.newId,
      to: o.oldId,
      validFrom: o.at !== undefined ? parseInstant("at", o.at) : Date.parse(newer.at),
      validTo: null,
      recordedAt: deps.now(),
      provenance: o.provenance ?? "api",
      confidence: 1,
      reason: o.reason ?? null,
    },
  ]);
  await deps.afterWrite();
  return edgeJson(edge);
}

/** Takes an edge back (it stays in the history, marked retracted now). */
export async function retract(deps: RevisionDeps, edgeId: string): Promise<EdgeJson> {
  const edge = edgeJson(await deps.store.retractEdge(edgeId, deps.now()));
  await deps.afterWrite();
  return edge;
}

/** The supersession chain of a memory, oldest to newest, with every edge touching it. */
export async function history(deps: RevisionDeps, id: string, options: { asOf?: string; knownAt?: string }): Promise<HistoryJson> {
  await deps.show(id);
  const now = deps.now();
  const time = {
    asOf: options.asOf !== undefined ? parseInstant("asOf", options.asOf) : now,
    // knowledge time defaults to everything recorded, as in search (query/options.ts)
    knownAt: options.knownAt !== undefined ? parseInstant("knownAt", options.knownAt) : Infinity,
  };
  return historyJson(id, await historyOf(deps.store, id, time), await deps.store.memoryRevisions(id));
}

export async function suggestions(store: Store, status: Suggestion["status"] | "all") {
  return (await store.listSuggestions(status === "all" ? undefined : status)).map(suggestionJson);
}

/** Accepts a suggestion (its edge is added, provenance user) or rejects it. */
export async function decideSuggestion(deps: RevisionDeps, id: string, decision: "accepted" | "rejected") {
  const now = deps.now();
  const open = (await deps.store.listSuggestions("open")).find((s) => s.id === id);
  const edge: EdgeDraft | undefined =
    open && decision === "accepted"
      ? { type: "supersedes", from: open.from, to: open.to, validFrom: Date.parse((await deps.show(open.from)).at), validTo: null, recordedAt: now, provenance: "user", confidence: open.confidence, reason: open.reason }
      : undefined;
  const decided = suggestionJson(await deps.store.decideSuggestion(id, decision, now, edge));
  await deps.afterWrite();
  return decided;
}
