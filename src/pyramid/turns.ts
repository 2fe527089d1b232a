/**
 * @module pyramid/turns
 * The turn level, the pyramid's lowest: a memory longer than one chunk (a meeting transcript, a long design note)
 * gets a summary node of level `turn`, indexed like every other node, whose sentences name the memory and the
 * chunk they came from. A short memory is its own summary and gets none. Turn nodes are written right after the
 * memory (no calendar window to wait for) and removed with it.
 */
import type { Memory } from "../model/types.js";
import type { SummarySentence } from "../model/pyramid.js";
import { defaultChunking } from "../config/defaults.js";
import { chunkText } from "../text/chunk.js";
import { sentenceSpans } from "../text/sentences.js";
import { formatInstant } from "../time/iso.js";
import { prepareNode, type BuildDeps, type PyramidOptions } from "./build.js";

/** The stable id of a memory's turn node. */
export const turnNodeId = (memoryId: string): string => `p_turn_${memoryId}`;

/** Summarises each memory (longer than one chunk) into its turn node; returns how many nodes were written. */
export async function buildTurnNodes(deps: BuildDeps, opts: PyramidOptions, memoryIds: string[], onProgress?: (done: number, total: number) => void): Promise<number> {
  let written = 0;
  for (const [i, id] of memoryIds.entries()) {
    const memory = await deps.store.getMemory(id);
    if (memory && memory.kind !== "summary" && memory.chunks > 1) {
      const summary = await deps.summarizer.summarize({
        window: { level: "day", start: Date.parse(memory.at), end: Date.parse(memory.at) + 1 },
        title: memory.title ?? `Summary of ${id}`,
        sentences: sentencesOf(memory),
        limits: opts.limits.turn,
      });
      if (summary.length > 0) {
        const window = { level: "turn" as const, start: Date.parse(memory.at), end: Date.parse(memory.at) + 1 };
        const node = await prepareNode(deps, window, opts.zone, summary, { id: turnNodeId(id), title: memory.title ? `Summary: ${memory.title}` : `Summary of ${id}` });
        node.memory.metadata = { ...node.memory.metadata, start: formatInstant(window.start), end: formatInstant(window.end) };
        // refused when the memory was forgotten while it was being summarised
        if (await deps.store.writeSummary(node, window, [id], deps.stamp)) written++;
      }
    }
    onProgress?.(i + 1, memoryIds.length);
  }
  return written;
}

/** The memory's sentences, each naming the memory and the chunk it starts in. */
function sentencesOf(m: Memory): SummarySentence[] {
  const chunks = chunkText(m.text, defaultChunking);
  return sentenceSpans(m.text).map((s) => ({
    text: m.text.slice(s.start, s.end),
    speaker: m.speaker,
    at: m.at,
    sources: [m.id],
    chunk: Math.max(0, chunks.findIndex((c) => s.start >= c.start && s.start < c.end)),
  }));
}
