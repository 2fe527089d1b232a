/**
 * @module ingest/entities
 * The extract step of ingest: each prepared memory gets the entities its text and speaker mention, before the
 * write transaction opens (an LLM extractor may take its time here; the transaction never waits on it).
 *
 * A tentative name (a capitalised English word opening a sentence: "Sam is pescatarian", but also "Painting is
 * fun") is kept only when the name is already known: an entity of the store, or named for sure by a memory of
 * the same batch. Without this, a person named at the start of most sentences was counted in a few memories.
 */
import type { EntityExtractor } from "../entities/extract.js";
import type { ExtractedEntity } from "../model/entity.js";
import { scopeOf, type Scope } from "../model/scope.js";
import type { PreparedMemory } from "../model/types.js";
import type { ValidMemory } from "./validate-memory.js";
import { letIoInEvery } from "../event-loop.js";
import { enrich, type EnrichmentLog } from "./enrichment.js";

/** Which of these normalised keys name an entity that memories of this scope already mention. */
export type KnownKeys = (keys: string[], scope: Scope) => Promise<Set<string>>;

/**
 * What the extractor finds in each memory, tentative names included: reads nothing from the store. A memory the
 * extractor fails on gets no entities and a warning in `log` (by its position in `indexes`, or in the list).
 */
export async function extractEntities(
  memories: Pick<ValidMemory, "text" | "speaker">[],
  extractor: EntityExtractor | null,
  log?: EnrichmentLog,
  indexes?: number[],
): Promise<ExtractedEntity[][] | null> {
  if (!extractor) return null;
  const found: ExtractedEntity[][] = [];
  for (const [i, m] of memories.entries()) {
    await letIoInEvery(i); // the rule-based extractor is synchronous
    found.push(await enrich(log, indexes?.[i] ?? i, "entities", () => extractor.extract(m.text, m.speaker), []));
  }
  return found;
}

/** Gives each memory the entities `found` in it, a tentative name only when it is known (see the module). */
export async function keepKnownEntities(prepared: PreparedMemory[], found: ExtractedEntity[][] | null, known: KnownKeys): Promise<PreparedMemory[]> {
  if (!found) return prepared;
  // a name is known inside one scope only (model/scope): the batch's memories of that scope, or the store's
  const scopes = new Map<string, number[]>();
  prepared.forEach((p, i) => {
    const key = JSON.stringify(scopeOf(p.memory));
    const members = scopes.get(key);
    if (members) members.push(i);
    else scopes.set(key, [i]);
  });
  const kept: ExtractedEntity[][] = [];
  for (const members of scopes.values()) {
    const sure = new Set(members.flatMap((i) => found[i].filter((e) => !e.tentative).map((e) => e.key)));
    const open = [...new Set(members.flatMap((i) => found[i].filter((e) => e.tentative && !sure.has(e.key)).map((e) => e.key)))];
    const stored = open.length ? await known(open, scopeOf(prepared[members[0]].memory)) : new Set<string>();
    for (const i of members) kept[i] = found[i].filter((e) => !e.tentative || sure.has(e.key) || stored.has(e.key)).map(({ tentative: _, ...e }) => e);
  }
  return prepared.map((p, i) => (kept[i].length ? { ...p, entities: kept[i] } : p));
}

export async function attachEntities(prepared: PreparedMemory[], extractor: EntityExtractor | null, known: KnownKeys, log?: EnrichmentLog): Promise<PreparedMemory[]> {
  return keepKnownEntities(prepared, await extractEntities(prepared.map((p) => p.memory), extractor, log), known);
}
