/**
 * @module ingest/prepare
 * parse → chunk → embed: everything that can be done before a write transaction opens, so the transaction
 * itself is short and never waits on a model.
 */
import { withSpeaker } from "../text/speaker.js";
import { segmentScripts } from "../text/segment.js";
import { randomBytes } from "node:crypto";
import { monotonicFactory } from "ulid";
import { defaultChunking } from "../config/defaults.js";
import type { ChunkDraft, PreparedChunk, PreparedMemory, TurnContext } from "../model/types.js";
import { contextSuffix } from "./context.js";
import type { Embedder } from "../ports/embedder.js";
import { chunkText } from "../text/chunk.js";
import { distinctContentWords } from "../text/tokenize.js";
import { formatInstant } from "../time/iso.js";
import { normalizeInPlace } from "../vectors/math.js";
import type { ValidMemory } from "./validate-memory.js";
import { letIoIn, letIoInEvery, pacer } from "../event-loop.js";
import { pacedSentenceSpans } from "../text/sentences.js";

/**
 * ulid's default generator asks the OS for randomness once per character, which cost a third of import time;
 * drawing from a 4 KB pool of the same crypto randomness keeps ids unpredictable at a fraction of the cost.
 */
let pool = randomBytes(4096);
let poolAt = 0;
function pooledRandom(): number {
  if (poolAt >= pool.length) {
    pool = randomBytes(4096);
    poolAt = 0;
  }
  return pool[poolAt++] / 256;
}

/** Chunks embedded per call: one call of the offline embedder on 256 chunks is about 15 ms. */
const EMBED_SLICE = 256;

/** Monotonic within a millisecond, so ids sort in insertion order. */
const nextUlid = monotonicFactory(pooledRandom);

export function newMemoryId(): string {
  return `m_${nextUlid()}`;
}

/**
 * The text the indexes see for a chunk. The speaker is written in front ("Caroline: ...") because questions
 * name people: on LoCoMo this raised late interaction's nDCG@10 from 0.33 to 0.49 and BM25's from 0.46 to 0.48.
 */
function indexedText(memory: ValidMemory, text: string): string {
  return withSpeaker(memory.speaker, text);
}

/** A memory chunked and embedded on its own text: all of preparing that reads nothing from the store. */
export interface DraftMemory {
  memory: ValidMemory;
  chunks: (ChunkDraft & { ownText: string; vector: Float32Array })[];
}

/**
 * Chunks memories and embeds each chunk's own text, in one embedder batch. Needs nothing from the store, so a
 * bulk write drafts its next batch while the current one is written (api/write-path.ts).
 */
export async function draftMemories(memories: ValidMemory[], embedder: Embedder): Promise<DraftMemory[]> {
  // Chunking, embedding and writing a large input take tens of milliseconds each on the one thread: a server
  // answers other requests between them (an await alone would resume before any I/O is read). Splitting even a
  // 1,000,000-character text into sentences is one linear pass (25-140 ms, text/sentences).
  const chunks: (ChunkDraft & { ownText: string })[][] = [];
  for (const [i, m] of memories.entries()) {
    await letIoInEvery(i);
    // scripts without spaces are cut into words here, so every backend's index sees the words a query will use
    chunks.push(chunkText(m.text, defaultChunking, await pacedSentenceSpans(m.text)).map((c) => ({ ...c, ownText: segmentScripts(indexedText(m, c.text)) })));
  }
  const texts = chunks.flat().map((c) => c.text);
  const vectors: Float32Array[] = [];
  for (let at = 0; at < texts.length; at += EMBED_SLICE) {
    if (texts.length > EMBED_SLICE) await letIoIn();
    vectors.push(...(await embedder.embed(texts.slice(at, at + EMBED_SLICE))));
  }
  let next = 0;
  return memories.map((memory, i) => ({ memory, chunks: chunks[i].map((c) => ({ ...c, vector: vectors[next++] })) }));
}

/**
 * Drafts made ready to store: ids, the context (the turn before it in its session) appended to a first chunk's
 * indexed text for the lexical indexes, and terms. The vector stays the chunk's own text, so forgetting the
 * context's memory can strip it without a model, unless `contextWeight` leans it towards the context turn.
 * Vectors are taken over, not copied: a draft is finished once.
 */
export async function finishMemories(
  drafts: DraftMemory[],
  embedder: Embedder,
  recordedAt: number,
  contexts: (TurnContext | null)[] = [],
  /** Weight of the context turn's vector in a first chunk's vector (0: the chunk's own text only). */
  contextWeight = 0,
): Promise<PreparedMemory[]> {
  if (contextWeight > 0) {
    // a first chunk's vector leans towards the turn it answers (see contextWeight)
    const leaning = drafts.flatMap((d, i) => (contexts[i] && d.chunks.length ? [{ v: d.chunks[0].vector, text: contexts[i]!.text }] : []));
    const contextVectors = leaning.length ? await embedder.embed(leaning.map((x) => x.text)) : [];
    leaning.forEach(({ v }, n) => {
      const c = contextVectors[n];
      for (let x = 0; x < v.length; x++) v[x] += contextWeight * c[x];
      normalizeInPlace(v);
    });
  }
  if (drafts.length > EMBED_SLICE) await letIoIn();
  // a megabyte's chunks take tens of milliseconds to split into words: paced, like drafting them
  const pause = pacer();
  const out: PreparedMemory[] = [];
  for (const [i, d] of drafts.entries()) {
    const chunks: PreparedChunk[] = [];
    for (const { ownText, ...c } of d.chunks) {
      const paused = pause();
      if (paused) await paused;
      const suffix = c.ord === 0 && contexts[i] ? segmentScripts(contextSuffix(contexts[i]!)) : "";
      const indexed = ownText + suffix;
      chunks.push({ ...c, indexedText: indexed, contextChars: suffix.length, terms: distinctContentWords(indexed) });
    }
    out.push({ ...(contexts[i] ? { contextOf: contexts[i]!.id } : {}), memory: { id: newMemoryId(), ...d.memory, recordedAt: formatInstant(recordedAt) }, chunks });
  }
  return out;
}

/** Drafts and finishes in one go, without a context: a correction, a restored memory, a summary. */
export async function prepareMemories(memories: ValidMemory[], embedder: Embedder, recordedAt: number): Promise<PreparedMemory[]> {
  return finishMemories(await draftMemories(memories, embedder), embedder, recordedAt);
}
