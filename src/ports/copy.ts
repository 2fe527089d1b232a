/**
 * @module ports/copy
 * A whole store, read out in pages and written into another, empty store (`cascade migrate`, api/migrate):
 * every record keeps its id and its times, so the copy answers every question as the original did. What the
 * store derives from these records (word indexes, vocabulary, corpus counts, metadata fields, the dense index)
 * the receiving backend rebuilds as it writes them, in its own way.
 */
import type { Edge, Suggestion } from "../model/graph.js";
import type { NodeLevel } from "../model/pyramid.js";
import type { Memory, PreparedChunk } from "../model/types.js";
import type { WindowLevel } from "../time/windows.js";

/** The stamp, the pyramid's time zone and the values the engine keeps with the store (getMeta/setMeta). */
export interface StoredSettings {
  embedder: { id: string; dimensions: number } | null;
  zone: string;
  meta: Record<string, string>;
}

export interface StoredTopic {
  path: string;
  description: string | null;
  createdAt: number;
}

/** An entity with the normalised keys merged into it and the number of memories mentioning it. */
export interface StoredEntity {
  id: string;
  key: string;
  name: string;
  kind: string;
  createdAt: number;
  mentionedBy: number;
  aliases: string[];
}

/** A memory (summary nodes included) whole: its chunks as indexed, its corrections, its place in the pyramid, its mentions. */
export interface StoredMemory {
  memory: Omit<Memory, "chunks">;
  /** Its chunks as indexed (a turn's first chunk ends with the turn before it: see the `contexts` section). */
  chunks: PreparedChunk[];
  importKey?: string;
  /** What it said before each correction, oldest first. */
  revisions: { recordedAt: number; memory: Memory }[];
  /** A summary node's level, window and children (which are always written before their parent). */
  node: { level: NodeLevel; start: number; end: number; children: string[] } | null;
  /** Ids of the entities it mentions. */
  mentions: string[];
}

export interface StoredSuggestion extends Suggestion {
  decidedAt: number | null;
}

export interface CopySections {
  settings: StoredSettings;
  topics: StoredTopic;
  entities: StoredEntity;
  memories: StoredMemory;
  /**
   * Which turn a memory indexes as its context (forgetting that turn strips its words from this one). Apart from
   * the memories because a context may have been written after the memory naming it (later in the same batch).
   */
  contexts: { memory: string; contextOf: string };
  edges: Edge;
  suggestions: StoredSuggestion;
  /** Windows whose summaries are out of date. Writing memories marks windows, so this section replaces them. */
  dirtyWindows: { level: WindowLevel; start: number };
}

export type CopySection = keyof CopySections;

/** The order a copy writes the sections in: what a record names exists before it (entities before mentions, memories before edges). */
export const COPY_ORDER: readonly CopySection[] = ["settings", "topics", "entities", "memories", "contexts", "edges", "suggestions", "dirtyWindows"];

/** How many records of each kind a store holds: what a copy must carry over, compared on both sides. */
export interface CopyCounts {
  memories: number;
  summaries: number;
  chunks: number;
  revisions: number;
  contexts: number;
  edges: number;
  suggestions: number;
  topics: number;
  entities: number;
  mentions: number;
}

export interface StoreCopy {
  /**
   * The next page of a section, in insertion order (summary nodes after their children), after the cursor of the
   * previous page (null for the first); `next` is null after the last. `settings` and `dirtyWindows` come whole.
   */
  read<S extends CopySection>(section: S, page: { after: string | null; limit: number }): Promise<{ records: CopySections[S][]; next: string | null }>;
  /**
   * Writes one page read from another store, in one transaction, keeping ids and times; refused (nothing written) if
   * an id exists. `mark`, when given, is kept as the store's copy mark in the same transaction, so the mark never
   * names a page that did not commit (api/migrate keeps its cursor there to resume an interrupted copy).
   */
  write<S extends CopySection>(section: S, records: CopySections[S][], mark?: string): Promise<void>;
  /** The copy mark (see write): set while a copy into this store has not finished; null on every other store. */
  mark(): Promise<string | null>;
  /** Sets the copy mark on its own (a copy marks its target before the first page), or removes it (null: the copy is whole). */
  setMark(mark: string | null): Promise<void>;
  counts(): Promise<CopyCounts>;
  /**
   * What a resumed copy checks its source by (api/migrate): numbers that move with every change a write can make
   * (rows of each kind, the highest row number of memories, chunks, revisions, edges and suggestions, retracted
   * edges, decided suggestions; SQLite's chunk generation too), each named. Cheap: counts and maxima by index.
   */
  fingerprint(): Promise<Record<string, number>>;
  /** The namespaces this store's tables hold (a SQLite file holds one: its others are files beside it). */
  namespaces(): Promise<string[]>;
}
