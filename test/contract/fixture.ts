/**
 * Memories ready for a store, made the engine's way (validate → chunk → embed) with a tiny embedder built here:
 * each word adds one to a dimension picked by its hash, so texts sharing words are near and the vectors are the
 * same on every machine.
 */
import { createHash } from "node:crypto";
import { prepareMemories } from "../../src/ingest/prepare.js";
import { validateMemoryInput } from "../../src/ingest/validate-memory.js";
import type { MemoryInput, PreparedMemory } from "../../src/model/types.js";
import type { Embedder } from "../../src/ports/embedder.js";
import type { EmbedderStamp } from "../../src/ports/store.js";

const DIMENSIONS = 32;

function wordVector(text: string): Float32Array {
  const v = new Float32Array(DIMENSIONS);
  for (const word of text.toLowerCase().match(/\p{L}+|\p{N}+/gu) ?? []) v[createHash("sha1").update(word).digest()[0] % DIMENSIONS] += 1;
  const norm = Math.hypot(...v);
  return norm === 0 ? v : v.map((x) => x / norm);
}

export const hashEmbedder: Embedder = { id: "contract-hash-32", dimensions: DIMENSIONS, embed: async (texts) => texts.map(wordVector) };
export const stamp: EmbedderStamp = { id: hashEmbedder.id, dimensions: DIMENSIONS };
export const RECORDED = Date.UTC(2026, 0, 10);

export async function prepared(inputs: MemoryInput[]): Promise<PreparedMemory[]> {
  return prepareMemories(inputs.map((m) => validateMemoryInput(m, RECORDED)), hashEmbedder, RECORDED);
}

export const queryVector = wordVector;
