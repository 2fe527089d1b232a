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
import { pacedSentenceSpans } from "../text/sentences.js";
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
        sentences: await sentencesOf(memory),
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

/**
 * The memory's sentences, each naming the memory and the first chunk that holds its start. A megabyte's 10,000
 * sentences and 1,252 chunks: the sentences are split with pauses for I/O (pyramid refreshes run on a server's
 * thread), and the chunk is found by one walk along both (chunks' starts and ends only grow: text/chunk), where a
 * search of every chunk per sentence held the thread ~30 ms more.
 */
async function sentencesOf(m: Memory): Promise<SummarySentence[]> {
  const spans = await pacedSentenceSpans(m.text);
  const chunks = chunkText(m.text, defaultChunking, spans);
  let j = 0;
  return spans.map((s) => {
    while (j < chunks.length && chunks[j].end <= s.start) j++;
    return {
      text: m.text.slice(s.start, s.end),
      speaker: m.speaker,
      at: m.at,
      sources: [m.id],
      chunk: j < chunks.length && chunks[j].start <= s.start ? j : 0,
    };
  });
}
