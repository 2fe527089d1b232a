/**
 * @module api/pyramid-read
 * The pyramid as `pyramid show` and `show ID` present it: each node's sentences with their status now, and its
 * text re-read from them, so a summary written before a `supersedes` edge shows which of its sentences that
 * edge made stale ("… Berlin in September. [superseded by m_…]").
 */
import { NODE_LEVELS, type NodeLevel, type ShownSentence, type SummarySentence } from "../model/pyramid.js";
import type { Memory } from "../model/types.js";
import type { Store } from "../ports/store.js";
import { nodeScopeOf, readSentences, sentenceLine } from "../query/summary-sentences.js";
import type { FieldCondition } from "../model/filter.js";
import type { SearchFilter } from "../model/types.js";
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
  /** Whose node it is: a user's, an agent's, or the whole namespace's (both null). */
  user: string | null;
  agent: string | null;
}

/** A summary node's sentences with their status at `now` (none for a memory that is not a summary). */
export async function shownSentences(store: Store, m: Memory, now: number): Promise<ShownSentence[]> {
  const stored = (m.metadata.sentences as SummarySentence[] | undefined) ?? [];
  return readSentences(store, stored, { time: { asOf: now, knownAt: now }, currentOnly: false });
}

/**
 * The pyramid's nodes, oldest first (days, then weeks, then months), or one level's: every scope's (each node says
 * whose it is), or with conditions (search's
 * `filter`), the nodes of the one user or agent they name (the whole namespace's when they name neither), each
 * showing only the sentences whose every source passes them; a node left with none is not listed.
 */
export async function pyramidView(
  store: Store,
  level: string | undefined,
  now: number,
  where?: FieldCondition[],
): Promise<{ zone: string; dirty: number; nodes: PyramidNodeJson[] }> {
  if (level !== undefined && !NODE_LEVELS.includes(level as NodeLevel)) throw invalidInput("level", `one of ${NODE_LEVELS.join(", ")}`);
  const filter: SearchFilter | undefined = where?.length ? { where } : undefined;
  const nodes: PyramidNodeJson[] = [];
  for (const n of await store.pyramidNodes({ level: level as NodeLevel | undefined, ...(filter ? { scope: nodeScopeOf(filter) } : {}) })) {
    const m = await store.getMemory(n.id);
    const stored = (m?.metadata.sentences as SummarySentence[] | undefined) ?? [];
    const sentences = m ? await readSentences(store, stored, { filter, time: { asOf: now, knownAt: now }, currentOnly: false }) : [];
    if (filter && sentences.length === 0) continue; // nothing in it passes the conditions
    // a node without sentences (none such is written today) keeps its stored text
    const text = sentences.length ? sentences.map(sentenceLine).join("\n") : n.text;
    nodes.push({ ...n, start: formatInstant(n.start), end: formatInstant(n.end), text, sentences });
  }
  return { zone: await store.pyramidZone(), dirty: (await store.dirtyWindows()).length, nodes };
}
