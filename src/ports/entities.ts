/**
 * @module ports/entities
 * The entity side of a store: entities, their aliases and the `mentions` links from memories. Writes happen
 * with the memories themselves (see Store.writeMemories and PreparedMemory.entities); these are the reads.
 */
import type { EntityInfo } from "../model/entity.js";
import type { SearchFilter } from "../model/types.js";

/** A memory reached through an entity: its id and the chunk to show for it. */
export interface MentioningMemory {
  entityId: string;
  memoryId: string;
  chunkId: number;
}

/**
 * Where a read takes a `filter` (a scope: `user = alice`), an entity is one that a memory passing it mentions, and
 * its `memories` counts only those memories: one user's entities, as her memories know them.
 */
export interface EntityReads {
  /** Entities by how many memories mention them (most first); `query` keeps names or aliases containing it. */
  list(input: { query?: string; top: number; filter?: SearchFilter }): Promise<EntityInfo[]>;
  /** The entities these normalised keys stand for (exact key or a recorded alias). */
  byKeys(keys: string[]): Promise<EntityInfo[]>;
  byId(id: string): Promise<EntityInfo | null>;
  /** For each memory, the entities it mentions. */
  mentionsOf(memoryIds: string[], filter?: SearchFilter): Promise<Map<string, EntityInfo[]>>;
  /**
   * The distinct indexed words of each memory's chunks with how many chunks hold each (the graph channel's
   * concept nodes; see channels/graph).
   */
  wordsOf(memoryIds: string[]): Promise<Map<string, { word: string; df: number }[]>>;
  /** The memories whose body holds each word (at most `limit` each) that pass the filter. */
  holdingWords(input: { words: string[]; limit: number; filter?: SearchFilter }): Promise<{ word: string; memoryId: string; chunkId: number }[]>;
  /** The memories mentioning each entity (most recently written first, at most `limit` each) that pass the filter. */
  mentioning(input: { entityIds: string[]; limit: number; filter?: SearchFilter }): Promise<MentioningMemory[]>;
}
