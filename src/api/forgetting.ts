/**
 * @module api/forgetting
 * Forgetting a memory. The row and its indexes go in one transaction (the store's job); then the summaries that
 * quoted it are rebuilt before the call returns, because a day, week or month summary holds its sentences
 * verbatim and would keep answering searches with the forgotten text. Only windows that already have a summary
 * are rebuilt (a forget never builds a pyramid nobody asked for). With `purge`, the store then erases every
 * remaining byte of the text (see backends/sqlite/purge.ts).
 */
import { notFound } from "../errors.js";
import type { Store } from "../ports/store.js";
import { nodeId, type BuildReport } from "../pyramid/build.js";
import { SUMMARY_KIND } from "../model/pyramid.js";
import { windowsOf, type WindowLevel } from "../time/windows.js";

export interface ForgetOptions {
  /** Also erase the text from free pages, index segments, the vocabulary and the write-ahead log. */
  purge?: boolean;
}

export interface Forgotten {
  id: string;
  forgotten: true;
  /** Summary windows rebuilt without the memory. */
  summaries_rebuilt: number;
  /** Present with `purge`: what the erasing pass did. */
  purged?: { terms_dropped: number; checkpointed: boolean };
}

export interface ForgetDeps {
  store: Store;
  /** Rebuilds exactly these (dirty) windows of the pyramid. */
  rebuild: (windows: { level: WindowLevel; start: number }[]) => Promise<BuildReport>;
}

export async function forgetMemory(deps: ForgetDeps, id: string, options: ForgetOptions = {}): Promise<Forgotten> {
  const { store } = deps;
  const memory = await store.getMemory(id);
  if (!memory) throw notFound("memory", id);
  let summarised: { level: WindowLevel; start: number }[] = [];
  if (memory.kind !== SUMMARY_KIND) {
    const zone = await store.pyramidZone();
    const windows = windowsOf(Date.parse(memory.at), zone);
    const nodes = await Promise.all(windows.map((w) => store.getMemory(nodeId(w, zone))));
    summarised = windows.filter((_, i) => nodes[i] !== null).map((w) => ({ level: w.level, start: w.start }));
  }
  if (!(await store.deleteMemory(id))) throw notFound("memory", id);
  const rebuilt = summarised.length ? await deps.rebuild(summarised) : null;
  const result: Forgotten = { id, forgotten: true, summaries_rebuilt: rebuilt ? rebuilt.written + rebuilt.removed : 0 };
  if (options.purge) result.purged = await store.purgeDeleted();
  return result;
}
