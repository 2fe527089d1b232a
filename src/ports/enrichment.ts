/**
 * @module ports/enrichment
 * Enrichment steps that failed on a stored memory, kept by the store until a retry succeeds. A write records the
 * failures of entity extraction and topic placement in the memory's own transaction (and revision detection's,
 * which runs once the memory is committed, right after it); `cascade doctor` lists them and `--repair` retries them.
 */
import type { ExtractedEntity } from "../model/entity.js";

/** The optional steps of a write. */
export type EnrichmentStep = "entities" | "topic" | "revisions";

/** One failed step of one memory: why it failed last, when (ms), and how many times it has failed. */
export interface EnrichmentFailure {
  memoryId: string;
  step: EnrichmentStep;
  reason: string;
  at: number;
  attempts: number;
}

export interface EnrichmentFailures {
  /**
   * Records failures of stored memories. A row already there for the memory and step takes the new reason and
   * time and counts one more attempt; a memory that no longer exists is left out.
   */
  record(rows: Omit<EnrichmentFailure, "attempts">[]): Promise<void>;
  /** How many failures wait, by step, and the oldest `limit` of them (by time, then memory id). */
  pending(limit: number): Promise<{ byStep: Partial<Record<EnrichmentStep, number>>; first: EnrichmentFailure[] }>;
  /** The step succeeded on a retry: its row goes. */
  clear(memoryId: string, step: EnrichmentStep): Promise<void>;
  /** The retry of entity extraction succeeded: adds what it found to the stored memory and clears its row, in one transaction. */
  attachEntities(memoryId: string, entities: ExtractedEntity[]): Promise<void>;
}
