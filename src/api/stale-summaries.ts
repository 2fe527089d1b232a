/**
 * @module api/stale-summaries
 * A search does not wait for the pyramid's refresh (after a batch of long texts it takes seconds: pyramid/keeper).
 * The memories a write stored are searchable once it has committed; only the summaries of the windows it touched
 * lag until the refresh has recomputed them. Those summaries, in the hits and in `context`, are marked `stale`:
 * the store's dirty windows are exactly the windows written to since their summary was computed. A search with
 * no dirty window in sight answers as before, without the field.
 */
import type { ContextEntry } from "../model/pyramid.js";
import type { Hit, SearchResult } from "../model/types.js";
import type { Store } from "../ports/store.js";

/** Marks the summaries of dirty windows in `result` (in place) with `stale: true`; returns the ids marked. */
export async function markStaleSummaries(store: Pick<Store, "dirtyWindows">, result: SearchResult): Promise<Set<string>> {
  const summaries: (Hit | ContextEntry)[] = [...result.hits.filter((h) => h.kind === "summary"), ...result.context];
  const marked = new Set<string>();
  if (summaries.length === 0) return marked;
  const dirty = await store.dirtyWindows();
  if (dirty.length === 0) return marked;
  const key = (level: string, start: number) => `${level} ${start}`;
  const dirtyKeys = new Set(dirty.map((d) => key(d.level, d.start)));
  for (const s of summaries) {
    // a turn node has no calendar window: it is written with its memory, never dirty
    if (s.level === null || s.window === null || !dirtyKeys.has(key(s.level, Date.parse(s.window.start)))) continue;
    s.stale = true;
    marked.add(s.id);
  }
  return marked;
}
