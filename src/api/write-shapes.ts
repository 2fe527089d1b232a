/**
 * @module api/write-shapes
 * What the write path (write-path.ts) takes and answers: remember's and rememberMany's results and options, what
 * `update` may change (validated by its schema), what a retry of failed enrichment reports, and what the path is
 * built from. Apart from the path so its callers (engine, fact actions, restore, surfaces) read the shapes without
 * the pipeline.
 */
import { z } from "zod";
import type { EnrichmentWarning } from "../ingest/enrichment.js";
import type { Edge, Suggestion } from "../model/graph.js";
import type { PreparedMemory } from "../model/types.js";
import type { Clock } from "../ports/clock.js";
import type { Embedder } from "../ports/embedder.js";
import type { EmbedderStamp, Store } from "../ports/store.js";
import type { PyramidKeeper } from "../pyramid/keeper.js";
import type { EdgeJson, SuggestionJson } from "./present.js";

/** What `remember` answers: enough to refer to the memory later, and what it changed in the graph. */
export interface Remembered {
  id: string;
  kind: string;
  topic: string | null;
  at: string;
  /** The edges this write created: the `supersedes` it named, and those revision detection was sure of. */
  edges: EdgeJson[];
  /** Possible revisions detection was not sure of, waiting for a person (accept with decideSuggestion). */
  suggestions: SuggestionJson[];
  /** True when the memory's `ref` was already stored: nothing was written and `id` names the memory holding it. */
  existing?: true;
  /** Optional steps that failed on this memory (ingest/enrichment.ts): it is stored without what they would add. */
  warnings?: EnrichmentWarning[];
}

export interface BatchResult {
  imported: number;
  /** Items left out because the store (or an earlier item) already held them (with `dedupe`). */
  skipped: number;
  ids: (string | null)[];
  failed: { index: number; error: string }[];
  /** Stored items an optional step failed on (entities, topic, revisions): stored without what it would add. */
  warnings: (EnrichmentWarning & { index: number })[];
}

export interface BatchOptions {
  /** Memories per write transaction. */
  batchSize?: number;
  /** Look for earlier memories each new one revises (default true; a bulk load of old data may skip it). */
  detect?: boolean;
  onProgress?: (done: number, total: number) => void;
  /** Skip items the store already holds, by `metadata.ref` or a hash of the item (see ingest/dedupe.ts). */
  dedupe?: boolean;
}

/** What rememberMany takes besides BatchOptions: who wrote it, and how the one-memory `remember` listens. */
export interface WriteOptions extends BatchOptions {
  provenance?: "user" | "api";
  /** Throw the first error instead of reporting it (one memory at a time). */
  failFast?: boolean;
  /** Told of each memory as its transaction commits, so a caller needs no second read. */
  onWritten?: (index: number, memory: PreparedMemory["memory"]) => void;
  /** Told, batch by batch, of the edges the batch created (named or detected) and the suggestions it left. */
  onRevisions?: (found: { edges: Edge[]; suggestions: Suggestion[] }) => void;
}

export interface WriteDeps {
  store: Store;
  embedder: Embedder;
  clock: Clock;
  stamp: EmbedderStamp;
  keeper: PyramidKeeper;
}

/** What `update` may change: what a memory says, not when it happened or who said it (that is a new memory). */
export const memoryChangesSchema = z
  .object({
    text: z.string().optional(),
    title: z.string().nullable().optional(),
    description: z.string().nullable().optional(),
    tags: z.array(z.string()).optional(),
    topic: z.string().nullable().optional(),
    metadata: z.custom<Record<string, unknown>>(() => true).optional(),
    expires: z.string().nullable().optional(),
    ttl: z.string().optional(),
  })
  .strict();
export type MemoryChanges = z.input<typeof memoryChangesSchema>;

/** What a retry of failed enrichment did (see WritePath.retryEnrichment). */
export interface RetryReport {
  tried: number;
  cleared: number;
  failedAgain: number;
  /** Failures left as they were: topic placement, or entities with no extractor configured. */
  notRetried: number;
}
