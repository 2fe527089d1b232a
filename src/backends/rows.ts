/**
 * @module backends/rows
 * The row shapes both stores read memories and edges back in, and their conversion to the engine's types. The
 * SQL that produces them differs by dialect (each backend's *-sql.ts); what a row means does not, so it is
 * written once here.
 */
import type { Edge, EdgeType, Suggestion } from "../model/graph.js";
import type { EntityInfo } from "../model/entity.js";
import type { Memory } from "../model/types.js";
import { formatInstant } from "../time/iso.js";

/** A memory as its backend's MEMORY_COLUMNS select it (tags and metadata as JSON text). */
export interface MemoryRow {
  rowid: number;
  id: string;
  kind: string;
  text: string;
  title: string | null;
  description: string | null;
  tags: string;
  topic: string | null;
  role: string | null;
  speaker: string | null;
  session: string | null;
  user_id: string | null;
  agent_id: string | null;
  at: string;
  recorded_at: string;
  expires_at_ms: number | null;
  metadata: string;
  chunks: number;
}

export function toMemory(row: MemoryRow): Memory {
  return {
    id: row.id,
    kind: row.kind,
    text: row.text,
    title: row.title,
    description: row.description,
    tags: JSON.parse(row.tags) as string[],
    topic: row.topic,
    role: row.role,
    speaker: row.speaker,
    session: row.session,
    user: row.user_id,
    agent: row.agent_id,
    at: row.at,
    recordedAt: row.recorded_at,
    expires: row.expires_at_ms === null ? null : formatInstant(row.expires_at_ms),
    metadata: JSON.parse(row.metadata) as Record<string, unknown>,
    chunks: row.chunks,
  };
}

/** An edge as its backend's EDGE_SELECT selects it (endpoints by memory id, times in ms). */
export interface EdgeRow {
  id: string;
  type: EdgeType;
  from_id: string;
  to_id: string;
  valid_from_ms: number;
  valid_to_ms: number | null;
  recorded_at_ms: number;
  retracted_at_ms: number | null;
  provenance: Edge["provenance"];
  confidence: number;
  reason: string | null;
  statement: string | null;
}

export function toEdge(r: EdgeRow): Edge {
  return {
    id: r.id,
    type: r.type,
    from: r.from_id,
    to: r.to_id,
    validFrom: r.valid_from_ms,
    validTo: r.valid_to_ms,
    recordedAt: r.recorded_at_ms,
    retractedAt: r.retracted_at_ms,
    provenance: r.provenance,
    confidence: r.confidence,
    reason: r.reason,
    statement: r.statement ?? null,
  };
}

/** A suggestion as its backend's SUGGESTION_SELECT selects it. */
export interface SuggestionRow {
  id: string;
  from_id: string;
  to_id: string;
  confidence: number;
  reason: string;
  created_at_ms: number;
  status: Suggestion["status"];
}

export const toSuggestion = (r: SuggestionRow): Suggestion => ({
  id: r.id,
  from: r.from_id,
  to: r.to_id,
  confidence: r.confidence,
  reason: r.reason,
  createdAt: r.created_at_ms,
  status: r.status,
});

/** An entity with how many memories mention it. */
export interface EntityRow {
  rowid: number;
  id: string;
  key: string;
  name: string;
  kind: string;
  mentioned_by: number;
}

export const toEntityInfo = (r: EntityRow): EntityInfo => ({ id: r.id, name: r.name, key: r.key, kind: r.kind as EntityInfo["kind"], memories: r.mentioned_by });
