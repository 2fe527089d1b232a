/**
 * @module api/export
 * A store's memories as portable records, one JSON object a line (`cascade export`, `GET /v1/export`, the SDK's
 * `exportMemories`), which `cascade import` reads back (api/restore.ts) into an equal store: each memory with its
 * id, its two times, scopes, topic, metadata and tags, what it said before each correction, and every edge it
 * starts (retracted ones too) naming the other memory by id. Summaries are left out: the receiving store builds
 * its own pyramid. Keys are snake_case, as everywhere on the wire; empty fields are left out.
 */
import type { Edge, EdgeType, Provenance } from "../model/graph.js";
import type { Memory } from "../model/types.js";
import type { Store } from "../ports/store.js";
import { formatInstant } from "../time/iso.js";
import { listMemories, type ListOptions } from "./list.js";
import type { MemoryJson } from "./present.js";

/** An edge as exported, from the memory whose line carries it. */
export interface ExportedEdge {
  id: string;
  type: EdgeType;
  to: string;
  valid_from: string;
  valid_to: string | null;
  recorded_at: string;
  retracted_at: string | null;
  provenance: Provenance;
  confidence: number;
  reason: string | null;
  /** The older memory's statement this edge replaces; absent: all it says. */
  statement?: string;
}

/** What a memory said before a correction recorded at `recorded_at` (the fields `update` can change). */
export interface ExportedCorrection {
  recorded_at: string;
  previous: Partial<Pick<Memory, "text" | "title" | "description" | "tags" | "topic" | "expires" | "metadata">>;
}

/** One line of an export. */
export interface ExportedMemory {
  id: string;
  text: string;
  kind: string;
  at: string;
  recorded_at: string;
  title?: string;
  description?: string;
  tags?: string[];
  topic?: string;
  role?: string;
  speaker?: string;
  session?: string;
  user?: string;
  agent?: string;
  expires?: string;
  metadata?: Record<string, unknown>;
  corrections?: ExportedCorrection[];
  edges?: ExportedEdge[];
}

/** Which memories to export: list's filters (scope and metadata conditions, time range); expired ones included. */
export type ExportOptions = Pick<ListOptions, "filter" | "where" | "since" | "until">;

const CORRECTABLE = ["text", "title", "description", "tags", "topic", "expires", "metadata"] as const;

/** The fields of a record that hold something: nulls, empty lists and empty objects are left out. */
function present<T extends object>(record: T): { [K in keyof T]?: NonNullable<T[K]> } {
  return Object.fromEntries(
    Object.entries(record).filter(([, v]) => v !== null && v !== undefined && !(Array.isArray(v) && v.length === 0) && !(typeof v === "object" && !Array.isArray(v) && Object.keys(v).length === 0)),
  ) as { [K in keyof T]?: NonNullable<T[K]> };
}

function edgeRecord(e: Edge): ExportedEdge {
  return {
    id: e.id,
    type: e.type,
    to: e.to,
    valid_from: formatInstant(e.validFrom),
    valid_to: e.validTo === null ? null : formatInstant(e.validTo),
    recorded_at: formatInstant(e.recordedAt),
    retracted_at: e.retractedAt === null ? null : formatInstant(e.retractedAt),
    provenance: e.provenance,
    confidence: e.confidence,
    reason: e.reason,
    ...(e.statement !== null ? { statement: e.statement } : {}),
  };
}

async function memoryRecord(store: Store, m: MemoryJson, edges: Edge[]): Promise<ExportedMemory> {
  const corrections = (await store.memoryRevisions(m.id)).map((r) => ({
    recorded_at: formatInstant(r.recordedAt),
    previous: Object.fromEntries(CORRECTABLE.map((k) => [k, r.memory[k]])) as ExportedCorrection["previous"],
  }));
  const { id, text, kind, at, recorded_at, title, description, tags, topic, role, speaker, session, user, agent, expires, metadata } = m;
  return {
    id,
    text,
    kind,
    at,
    recorded_at,
    ...present({ title, description, tags, topic, role, speaker, session, user, agent, expires, metadata }),
    ...present({ corrections, edges: edges.filter((e) => e.from === id).map(edgeRecord) }),
  };
}

/** The memories matching `options`, oldest first, a page at a time. */
export async function* exportMemories(store: Store, now: number, options: ExportOptions = {}): AsyncGenerator<ExportedMemory> {
  let cursor: string | undefined;
  do {
    const page = await listMemories(store, now, { ...options, limit: 1000, cursor, order: "asc", includeExpired: true });
    const memories = page.memories.filter((m) => m.kind !== "summary");
    const edges = memories.length ? await store.edgesTouching(memories.map((m) => m.id)) : [];
    for (const listed of memories) {
      const { status: _s, superseded_by: _b, supersedes: _p, revised: _r, ...memory } = listed;
      yield await memoryRecord(store, memory, edges);
    }
    cursor = page.next_cursor ?? undefined;
  } while (cursor);
}
