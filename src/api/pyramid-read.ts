/**
 * @module api/pyramid-read
 * The pyramid as `pyramid show` and `show ID` present it: each node's sentences with their status now, and its
 * text re-read from them, so a summary written before a `supersedes` edge shows which of its sentences that
 * edge made stale ("… Berlin in September. [superseded by m_…]").
 */
import { NODE_LEVELS, type NodeLevel, type ShownSentence, type SummarySentence } from "../model/pyramid.js";
import type { Memory } from "../model/types.js";
import type { Store } from "../ports/store.js";
import { readSentences, sentenceLine } from "../query/summary-sentences.js";
import { formatInstant } from "../time/iso.js";
import { invalidInput } from "../errors.js";

/** A pyramid node as `pyramid show` lists it. */
export interface PyramidNodeJson {
  id: string;
  level: NodeLevel;
  start: string;
  end: string;
  /** The sentences one a line; a superseded one ends with `[superseded by …]`. */
  text: string;
  /** Each sentence with the memories it came from and its status now. */
  sentences: ShownSentence[];
  children: number;
}

/** A summary node's sentences with their status at `now` (none for a memory that is not a summary). */
export async function shownSentences(store: Store, m: Memory, now: number): Promise<ShownSentence[]> {
  const stored = (m.metadata.sentences as SummarySentence[] | undefined) ?? [];
  return readSentences(store, stored, { time: { asOf: now, knownAt: now }, currentOnly: false });
}

/** The pyramid's nodes, oldest first (days, then weeks, then months), or one level's. */
export async function pyramidView(store: Store, level: string | undefined, now: number): Promise<{ zone: string; dirty: number; nodes: PyramidNodeJson[] }> {
  if (level !== undefined && !NODE_LEVELS.includes(level as NodeLevel)) throw invalidInput("level", `one of ${NODE_LEVELS.join(", ")}`);
  const nodes: PyramidNodeJson[] = [];
  for (const n of await store.pyramidNodes({ level: level as NodeLevel | undefined })) {
    const m = await store.getMemory(n.id);
    const sentences = m ? await shownSentences(store, m, now) : [];
    // a node without sentences (none such is written today) keeps its stored text
    const text = sentences.length ? sentences.map(sentenceLine).join("\n") : n.text;
    nodes.push({ ...n, start: formatInstant(n.start), end: formatInstant(n.end), text, sentences });
  }
  return { zone: await store.pyramidZone(), dirty: (await store.dirtyWindows()).length, nodes };
}
