/**
 * @module pyramid/maintain
 * Keeping the pyramid current. After every write the engine calls `refreshPyramid` with the memories it just
 * wrote: long ones get their turn nodes, then every window the write marked dirty is recomputed (a refresh after
 * a few hundred turns touches one day, one week and one month). When a store is opened, `catchUpPyramid` brings
 * a store written before the pyramid was on by default (or by an engine that had it off) up to date once.
 */
import { buildPyramid, type BuildDeps, type BuildReport, type PyramidOptions } from "./build.js";
import { buildTurnNodes } from "./turns.js";
import { SUMMARIZER, TURN_LEVEL } from "./current.js";

export type Progress = (done: number, total: number) => void;

/** Turn nodes for these memories (those longer than a chunk), then every dirty window. */
export async function refreshPyramid(deps: BuildDeps, opts: PyramidOptions, longMemoryIds: string[], onProgress?: Progress): Promise<BuildReport & { turns: number }> {
  const turns = longMemoryIds.length ? await buildTurnNodes(deps, opts, longMemoryIds) : 0;
  return { ...(await buildPyramid(deps, opts, onProgress)), turns };
}

/**
 * On open: the turn level's backlog (once per store), then the dirty windows, with progress over both. Returns
 * null when there was nothing to do (the common case: one indexed lookup).
 */
export async function catchUpPyramid(deps: BuildDeps, opts: PyramidOptions, onProgress?: Progress): Promise<(BuildReport & { turns: number }) | null> {
  await redoOutdatedSummaries(deps, opts);
  const backlog = (await deps.store.getMeta(TURN_LEVEL)) !== "1" ? await deps.store.memoriesWithoutTurnNode() : [];
  const dirty = (await deps.store.dirtyWindows()).length;
  if (backlog.length === 0 && dirty === 0) {
    if ((await deps.store.getMeta(TURN_LEVEL)) !== "1" && (await deps.store.embedderStamp()) !== null) await deps.store.setMeta(TURN_LEVEL, "1");
    return null;
  }
  const total = backlog.length + dirty;
  const turns = await buildTurnNodes(deps, opts, backlog, (d) => onProgress?.(d, total));
  await deps.store.setMeta(TURN_LEVEL, "1");
  const report = await buildPyramid(deps, opts, (d) => onProgress?.(backlog.length + d, total));
  return { ...report, turns };
}

/**
 * Summaries written by an older version of the offline summariser lack what the current one records (since
 * `extractive-mmr/3`, which memories a sentence revised: the search's context relies on it), so every window is
 * marked dirty once and the catch-up rebuilds them, with progress. A chat summariser's summaries are never
 * redone unasked: each costs a model call (`pyramid build --full` does it).
 */
async function redoOutdatedSummaries(deps: BuildDeps, opts: PyramidOptions): Promise<void> {
  const current = deps.summarizer.id;
  if (!current.startsWith("extractive") || (await deps.store.getMeta(SUMMARIZER)) === current) return;
  // the same zone again drops every node and marks every window of every memory dirty
  await deps.store.setPyramidZone(opts.zone);
  await noteTurnBacklog(deps); // turn nodes went too
  await deps.store.setMeta(SUMMARIZER, current);
}

/** A long memory was written with the pyramid off: the next catch-up looks for memories without a turn node. */
export async function noteTurnBacklog(deps: Pick<BuildDeps, "store">): Promise<void> {
  await deps.store.setMeta(TURN_LEVEL, "0");
}

/** `pyramid build`: every long memory without a turn node, then every dirty window (`full`: every window). */
export async function rebuildPyramid(deps: BuildDeps, opts: PyramidOptions, full: boolean, onProgress?: Progress): Promise<BuildReport & { turns: number }> {
  // the same zone again drops every node and marks every window of every memory dirty
  if (full) await deps.store.setPyramidZone(opts.zone);
  const backlog = await deps.store.memoriesWithoutTurnNode();
  const dirty = (await deps.store.dirtyWindows()).length;
  const total = backlog.length + dirty;
  const turns = await buildTurnNodes(deps, opts, backlog, (d) => onProgress?.(d, total));
  await deps.store.setMeta(TURN_LEVEL, "1");
  const report = await buildPyramid(deps, opts, (d) => onProgress?.(backlog.length + d, total));
  return { ...report, turns };
}
