/**
 * @module api/present
 * Memories and graph records as the contract's JSON shows them (ISO times, snake_case keys).
 */
import type { History } from "../graph/history.js";
import type { Edge, Suggestion } from "../model/graph.js";
import type { Memory } from "../model/types.js";
import { formatInstant } from "../time/iso.js";

const iso = (ms: number | null) => (ms === null ? null : formatInstant(ms));

/** A memory as the SDK answers and the wire carries it: `recorded_at` beside `superseded_by`, not `recordedAt`. */
export type MemoryJson = Omit<Memory, "recordedAt"> & { recorded_at: string };

export function memoryJson<T extends Memory>(m: T): Omit<T, "recordedAt"> & { recorded_at: string } {
  const { recordedAt, ...rest } = m;
  return { ...rest, recorded_at: recordedAt };
}

export interface EdgeJson {
  id: string;
  type: string;
  from: string;
  to: string;
  valid_from: string;
  valid_to: string | null;
  recorded_at: string;
  retracted_at: string | null;
  provenance: string;
  confidence: number;
  reason: string | null;
  /** The statement of `to` this edge replaces; null: all `to` says. */
  statement: string | null;
}

export function edgeJson(e: Edge): EdgeJson {
  return {
    id: e.id,
    type: e.type,
    from: e.from,
    to: e.to,
    valid_from: iso(e.validFrom)!,
    valid_to: iso(e.validTo),
    recorded_at: iso(e.recordedAt)!,
    retracted_at: iso(e.retractedAt),
    provenance: e.provenance,
    confidence: e.confidence,
    reason: e.reason,
    statement: e.statement,
  };
}

export interface HistoryJson {
  id: string;
  chain: { id: string; status: string; valid_from: string; valid_to: string | null; text: string }[];
  edges: EdgeJson[];
  /** Corrections of this memory (`update`): what it said before each, and when Cascade learned the correction. */
  revisions: { recorded_at: string; text: string; title: string | null }[];
}

export function historyJson(id: string, h: History, revisions: { recordedAt: number; memory: Memory }[] = []): HistoryJson {
  return {
    id,
    chain: h.chain.map((c) => ({ id: c.memory.id, status: c.status, valid_from: iso(c.validFrom)!, valid_to: iso(c.validTo), text: c.memory.text })),
    edges: h.edges.map(edgeJson),
    revisions: revisions.map((r) => ({ recorded_at: iso(r.recordedAt)!, text: r.memory.text, title: r.memory.title })),
  };
}

export type SuggestionJson = ReturnType<typeof suggestionJson>;

export function suggestionJson(s: Suggestion) {
  return { id: s.id, from: s.from, to: s.to, confidence: s.confidence, reason: s.reason, created_at: iso(s.createdAt), status: s.status };
}
