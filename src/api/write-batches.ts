/**
 * @module api/write-batches
 * How the write path (write-path.ts) cuts and reads its input before anything is stored: where a batch ends (by
 * count and by characters), the `supersedes` taken off an input, and the shapes an item has on its way (validated,
 * drafted, looked ahead). Apart from the pipeline because none of it touches the store.
 */
import { CascadeError, respelled } from "../errors.js";
import type { DraftMemory } from "../ingest/prepare.js";
import type { ValidMemory } from "../ingest/validate-memory.js";
import type { ExtractedEntity } from "../model/entity.js";

/** The edges a write adds come from the items' `supersedes`: a refused edge is named by that field, not the store's `to`. */
export const bySupersedes = (err: unknown) => respelled(err, (field) => (field === "to" ? "supersedes" : undefined));

/** An input that passed validation, by its index in the call, with the edges it names. */
export interface Item {
  index: number;
  memory: ValidMemory;
  supersedes: string[];
}

/** What a batch's item becomes before the store is read: chunks and vectors, and the entities found. */
export interface Drafted {
  draft: DraftMemory;
  entities: ExtractedEntity[] | null;
}

/** A batch validated and drafted ahead of its turn (WritePath.writeMany). */
export interface Lookahead {
  /** The input index after the batch's last. */
  end: number;
  valid: Item[];
  /** Items that failed validation: reported when the batch's turn comes. */
  failures: { index: number; err: unknown }[];
  /** By input index; an item the look ahead took for a duplicate has none. */
  drafts: Map<number, Drafted>;
}

export const DEFAULT_BATCH = 256; // large enough to amortise a commit, small enough that progress moves
/**
 * Characters of text in one batch (beyond its first memory): a transaction cannot pause, and 40 texts of 25,000
 * characters in one held a server's thread ~180 ms (a SQLite store on a file now writes such a batch on its write
 * thread, but another writer still waits for its lock, and PGlite writes on the caller's thread); a batch of short
 * memories is still whole.
 */
const BATCH_CHARS = 262_144;

/** Where the batch starting at `start` ends: `batchSize` inputs, or fewer when their texts pass BATCH_CHARS. */
export function batchEnd(inputs: readonly unknown[], start: number, batchSize: number): number {
  const length = (input: unknown) => {
    const text = (input as { text?: unknown } | null)?.text;
    return typeof text === "string" ? text.length : 0;
  };
  let end = start + 1;
  let chars = length(inputs[start]);
  while (end < inputs.length && end - start < batchSize && chars + length(inputs[end]) <= BATCH_CHARS) chars += length(inputs[end++]);
  return Math.min(end, inputs.length);
}

/** Takes `supersedes` (an id or ref, or a list of them) off a memory input. */
export function splitSupersedes(input: unknown): { supersedes: string[]; rest: unknown } {
  if (typeof input !== "object" || input === null || !("supersedes" in input)) return { supersedes: [], rest: input };
  const { supersedes, ...rest } = input as { supersedes: unknown };
  if (supersedes === undefined) return { supersedes: [], rest };
  const list = typeof supersedes === "string" ? [supersedes] : supersedes;
  if (!Array.isArray(list) || !list.every((s) => typeof s === "string" && s.length > 0)) {
    throw new CascadeError("INVALID_INPUT", "supersedes: a memory id (or ref), or a list of them", { field: "supersedes" });
  }
  // each entry is an edge with a cycle check (a walk of the chain): bounded like every list an input may carry
  if (list.length > 64) throw new CascadeError("INVALID_INPUT", `supersedes: at most 64 memories, got ${list.length}`, { field: "supersedes" });
  return { supersedes: list as string[], rest };
}
