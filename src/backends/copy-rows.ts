/**
 * @module backends/copy-rows
 * The rows both stores read a whole-store copy out in (ports/copy), and their conversion to the copy's
 * records. The SQL that selects them differs by dialect (each backend's copy-sql.ts); what the rows mean does
 * not, so it is written once here, next to backends/rows.
 */
import type { Memory, PreparedChunk } from "../model/types.js";
import type { NodeLevel } from "../model/pyramid.js";
import type { StoredEntity, StoredMemory } from "../ports/copy.js";
import { toMemory, type MemoryRow } from "./rows.js";

/** A page of a section and the cursor after it: the last row's insertion order, or null after the last page. */
export interface Page<T> {
  records: T[];
  next: string | null;
}

export function paged<R extends { rowid: number }, T>(rows: R[], limit: number, map: (rows: R[]) => T[]): Page<T> {
  return { records: map(rows), next: rows.length === limit && rows.length > 0 ? String(rows[rows.length - 1].rowid) : null };
}

/** Rows of a page's parts (chunks, revisions, ...) by the memory (`owner`) they belong to, in the order selected. */
export function byOwner<T extends { owner: number }>(rows: T[]): Map<number, T[]> {
  const out = new Map<number, T[]>();
  for (const r of rows) {
    const list = out.get(r.owner);
    if (list) list.push(r);
    else out.set(r.owner, [r]);
  }
  return out;
}

export type CopiedMemoryRow = MemoryRow & { import_key: string | null };
export interface CopiedChunkRow {
  owner: number;
  ord: number;
  start: number;
  end: number;
  indexed_text: string;
  terms: string;
  context_chars: number;
}
export interface CopiedNodeRow {
  owner: number;
  level: NodeLevel;
  start_ms: number;
  end_ms: number;
}

/** A page of memory rows with their parts, as StoredMemory records; `vector` reads a chunk row's vector in the backend's encoding. */
export function toStoredMemories<C extends CopiedChunkRow>(
  rows: CopiedMemoryRow[],
  parts: {
    chunks: C[];
    vector: (chunk: C) => Float32Array;
    revisions: { owner: number; recorded_at_ms: number; previous: string }[];
    nodes: CopiedNodeRow[];
    children: { owner: number; id: string }[];
    mentions: { owner: number; id: string }[];
  },
): StoredMemory[] {
  const chunks = byOwner(parts.chunks);
  const revisions = byOwner(parts.revisions);
  const nodes = new Map(parts.nodes.map((n) => [n.owner, n]));
  const children = byOwner(parts.children);
  const mentions = byOwner(parts.mentions);
  return rows.map((r) => {
    const { chunks: _count, ...memory } = toMemory(r);
    const node = nodes.get(r.rowid);
    return {
      memory,
      chunks: (chunks.get(r.rowid) ?? []).map(
        (c): PreparedChunk => ({
          ord: c.ord,
          start: c.start,
          end: c.end,
          text: memory.text.slice(c.start, c.end),
          indexedText: c.indexed_text,
          contextChars: c.context_chars,
          vector: parts.vector(c),
          terms: c.terms.split(" ").filter(Boolean),
        }),
      ),
      ...(r.import_key === null ? {} : { importKey: r.import_key }),
      revisions: (revisions.get(r.rowid) ?? []).map((v) => ({ recordedAt: v.recorded_at_ms, memory: JSON.parse(v.previous) as Memory })),
      node: node ? { level: node.level, start: node.start_ms, end: node.end_ms, children: (children.get(r.rowid) ?? []).map((c) => c.id) } : null,
      mentions: (mentions.get(r.rowid) ?? []).map((m) => m.id),
    };
  });
}

/** An entity row with its aliases (a JSON array of keys) as a StoredEntity. */
export interface CopiedEntityRow {
  rowid: number;
  id: string;
  key: string;
  name: string;
  kind: string;
  created_at_ms: number;
  mentioned_by: number;
  aliases: string | string[];
}

export const toStoredEntity = (e: CopiedEntityRow): StoredEntity => ({
  id: e.id,
  key: e.key,
  name: e.name,
  kind: e.kind,
  createdAt: e.created_at_ms,
  mentionedBy: e.mentioned_by,
  aliases: typeof e.aliases === "string" ? (JSON.parse(e.aliases) as string[]) : e.aliases,
});

/** The prefix the engine's own meta keys (getMeta/setMeta) are stored under, in both stores. */
export const ENGINE_META = "engine.";

/**
 * The meta key of a copy's mark (StoreCopy.write): outside ENGINE_META, so a copy never carries it along with the
 * settings and getMeta never sees it.
 */
export const COPY_MARK = "copy.incomplete";
