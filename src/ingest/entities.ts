/**
 * @module ingest/entities
 * The extract step of ingest: each prepared memory gets the entities its text and speaker mention, before the
 * write transaction opens (an LLM extractor may take its time here; the transaction never waits on it).
 */
import type { EntityExtractor } from "../entities/extract.js";
import type { PreparedMemory } from "../model/types.js";

export async function attachEntities(prepared: PreparedMemory[], extractor: EntityExtractor | null): Promise<PreparedMemory[]> {
  if (!extractor) return prepared;
  const out: PreparedMemory[] = [];
  for (const p of prepared) {
    const entities = await extractor.extract(p.memory.text, p.memory.speaker);
    out.push(entities.length ? { ...p, entities } : p);
  }
  return out;
}
