/**
 * @module ingest/mem0
 * Reads Mem0's `get_all` JSON (a list of memories, or `{"results": [...]}` as its v1.1 API answers) into memory
 * inputs, one mapping documented in docs/GUIDE.md:
 *
 *   memory → text · user_id → user · agent_id → agent · created_at → at · metadata → metadata ·
 *   id → metadata.ref "mem0:<id>" (so a second import skips it) · updated_at → metadata.mem0_updated_at
 *
 * Other fields (hash, categories, score…) are not carried over. An item that is not an object with a `memory`
 * string is reported by its position and never costs the others.
 */
import { isPlainObject } from "./metadata.js";
import { invalidInput } from "../errors.js";
import type { MemoryInput } from "../model/types.js";

export interface Mem0Items {
  /** Each convertible item with its 1-based position in the list. */
  items: { line: number; input: MemoryInput }[];
  failed: { line: number; error: string }[];
}

const optionalString = (item: Record<string, unknown>, key: string): string | undefined => {
  const v = item[key];
  if (v === undefined || v === null) return undefined;
  if (typeof v !== "string") throw invalidInput(key, "must be a string");
  return v;
};

function mem0Input(item: unknown): MemoryInput {
  if (!isPlainObject(item)) throw invalidInput("memory", "each item must be an object with a memory string");
  const o = item as Record<string, unknown>;
  if (typeof o.memory !== "string") throw invalidInput("memory", "required, a string");
  const id = optionalString(o, "id");
  const updated = optionalString(o, "updated_at");
  if (o.metadata !== undefined && o.metadata !== null && !isPlainObject(o.metadata)) throw invalidInput("metadata", "must be an object");
  const metadata = { ...(o.metadata as Record<string, unknown> | null | undefined), ...(id ? { ref: `mem0:${id}` } : {}), ...(updated ? { mem0_updated_at: updated } : {}) };
  return {
    text: o.memory,
    user: optionalString(o, "user_id"),
    agent: optionalString(o, "agent_id"),
    at: optionalString(o, "created_at"),
    ...(Object.keys(metadata).length ? { metadata } : {}),
  };
}

export function readMem0Export(json: unknown): Mem0Items {
  const list = Array.isArray(json) ? json : isPlainObject(json) && Array.isArray((json as { results?: unknown }).results) ? (json as { results: unknown[] }).results : null;
  if (!list) throw invalidInput("file", 'a Mem0 export is a JSON list of memories (or {"results": [...]}) as get_all returns');
  const out: Mem0Items = { items: [], failed: [] };
  list.forEach((item, i) => {
    try {
      out.items.push({ line: i + 1, input: mem0Input(item) });
    } catch (err) {
      out.failed.push({ line: i + 1, error: (err as Error).message });
    }
  });
  return out;
}
