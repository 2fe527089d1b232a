/**
 * @module api/remember-actions
 * `remember` as the SDK answers it: one memory through the write path (write-path.ts), answered with its id, kind,
 * topic and time, the edges and suggestions the write left, and the warnings of optional steps; or, when its `ref`
 * was already stored, the memory that holds it with `existing: true`. Called by the Engine.
 */
import { refOf } from "../ingest/dedupe.js";
import type { MemoryInput } from "../model/types.js";
import type { Store } from "../ports/store.js";
import { edgeJson, suggestionJson } from "./present.js";
import type { Remembered, WritePath } from "./write-path.js";

/** Stores one memory (fail fast, deduplicated by its ref when it has one) and says what the write did. */
export async function rememberOne(deps: { store: Store; writes: WritePath }, input: MemoryInput, options: { provenance?: "user" | "api" }): Promise<Remembered> {
  let memory: { id: string; kind: string; topic: string | null; at: string } | undefined;
  const changed: Pick<Remembered, "edges" | "suggestions"> = { edges: [], suggestions: [] };
  const { ids, warnings } = await deps.writes.write([input], {
    ...options,
    dedupe: refOf(input) !== undefined,
    failFast: true,
    onWritten: (_, m) => (memory = m),
    onRevisions: (found) => {
      changed.edges.push(...found.edges.map(edgeJson));
      changed.suggestions.push(...found.suggestions.map(suggestionJson));
    },
  });
  const warned = warnings.length ? { warnings: warnings.map(({ step, reason }) => ({ step, reason })) } : {};
  if (memory) return { id: memory.id, kind: memory.kind, topic: memory.topic, at: memory.at, ...changed, ...warned };
  const held = (await deps.store.getMemory(ids[0]!))!;
  return { id: held.id, kind: held.kind, topic: held.topic, at: held.at, ...changed, existing: true };
}
