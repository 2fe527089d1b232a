/**
 * @module api/stale-summaries
 * A search waits for the pyramid's refresh of small writes only (after a batch of long texts it takes seconds:
 * pyramid/keeper, settleSmall).
 * The memories a write stored are searchable once it has committed; only the summaries of the windows it touched
 * lag until the refresh has recomputed them. Those summaries, in the hits and in `context`, are marked `stale`:
 * the store's dirty windows are exactly the windows written to since their summary was computed. A search with
 * no dirty window in sight answers as before, without the field.
 */
import type { SearchResult } from "../model/types.js";
import type { Store } from "../ports/store.js";

type Dirty = { level: string; start: number }[];

/**
 * What the human-readable surfaces (the CLI's text, the MCP tools' text) say of a summary marked `stale`, in one
 * wording: a reader (a person, a model) may otherwise take it for the whole of its window.
 */
export const STALE_SUMMARY_NOTE = "summary written before the latest memories of its window: it may be out of date";

/**
 * The dirty windows, read before the search: a refresh that ends while the search reads can then only make a summary
 * look staler than it is, never hide one read before it was rewritten.
 */
export async function dirtyBeforeSearch(store: Pick<Store, "dirtyWindows">, summariesWanted: boolean): Promise<Dirty> {
  return summariesWanted ? store.dirtyWindows() : [];
}

/** Marks the summaries of `dirty` windows in `result` (in place) with `stale: true`; returns the ids marked. */
export function markStaleSummaries(dirty: Dirty, result: SearchResult): Set<string> {
  const marked = new Set<string>();
  if (dirty.length === 0) return marked;
  const key = (level: string, start: number) => `${level} ${start}`;
  const dirtyKeys = new Set(dirty.map((d) => key(d.level, d.start)));
  for (const s of [...result.hits.filter((h) => h.kind === "summary"), ...result.context]) {
    // a turn node has no calendar window: it is written with its memory, never dirty
    if (s.level === null || s.window === null || !dirtyKeys.has(key(s.level, Date.parse(s.window.start)))) continue;
    s.stale = true;
    marked.add(s.id);
  }
  return marked;
}
