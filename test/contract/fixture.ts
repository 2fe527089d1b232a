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
import type { EdgeDraft } from "../../src/model/graph.js";
import type { EmbedderStamp, Store } from "../../src/ports/store.js";

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

export const DAY = 86_400_000;
export const at = (day: number) => new Date(Date.UTC(2026, 0, day, 12)).toISOString();

/** Six memories that the cases share: two users, a topic tree, metadata, titles and tags. */
export async function seeded(open: () => Promise<Store>) {
  const store = await open();
  const memories = await prepared([
    { text: "We deployed the billing service to the new cluster.", at: at(1), topic: "ops.deploy", user: "alice", metadata: { priority: 1, team: "core" } },
    { text: "The deployment of billing failed twice with timeouts.", at: at(2), topic: "ops.deploy", user: "bob", metadata: { priority: 3 } },
    { text: "Lunch with Maria about the sourdough starter.", at: at(3), topic: "life", user: "alice", title: "Sourdough notes", tags: ["baking"] },
    { text: "Postgres is the primary store for billing.", at: at(4), topic: "ops.db", user: "alice", kind: "decision", metadata: { priority: 5 } },
    { text: "Billing moves from Postgres to DynamoDB.", at: at(5), topic: "ops.db", user: "bob", kind: "decision", metadata: { priority: 4 } },
    { text: "Feeding the starter twice a day with rye flour.", at: at(6), topic: "life.baking", user: "carol", description: "bread routine" },
  ]);
  await store.writeMemories(memories, stamp);
  const ids = memories.map((m) => m.memory.id);
  return { store, ids };
}

export const memoryIds = (list: { memoryId: string }[]) => [...new Set(list.map((r) => r.memoryId))];
export const edge = (from: string, to: string, type: EdgeDraft["type"] = "supersedes"): EdgeDraft => ({
  type,
  from,
  to,
  validFrom: RECORDED,
  validTo: null,
  recordedAt: RECORDED,
  provenance: "api",
  confidence: 1,
  reason: null,
});
