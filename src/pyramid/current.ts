/**
 * @module pyramid/current
 * The store's records of how current its pyramid is, and the question a read-only opening asks of them: would
 * the catch-up on open (pyramid/maintain.ts) find nothing to do? Apart from maintain.ts so that a command that
 * only reads (api/reader.ts) can ask without loading the pyramid's builder.
 */
import type { Store } from "../ports/store.js";

/** Meta key: the store has had its turn-level backlog summarised (a store from before the turn level has not). */
export const TURN_LEVEL = "pyramid.turn_level";

/** Meta key: the offline summariser (id and version) the store's summaries were last built with. */
export const SUMMARIZER = "pyramid.summarizer";

/** The offline summariser's id (pyramid/extractive.ts); 3: sentences name the memories they revise (`revises`). */
export const EXTRACTIVE_SUMMARIZER_ID = "extractive-mmr/3";

/**
 * True when `catchUpPyramid`, run with a summariser of this id, would neither write nor rebuild anything: the
 * summaries are the current summariser's (or a chat model's, never redone unasked), the turn level is done and no
 * window is dirty. False says only that it might have something to do.
 */
export async function pyramidIsCurrent(store: Store, summarizerId: string): Promise<boolean> {
  if (summarizerId.startsWith("extractive") && (await store.getMeta(SUMMARIZER)) !== summarizerId) return false;
  if ((await store.getMeta(TURN_LEVEL)) !== "1") return false;
  return (await store.dirtyWindows()).length === 0;
}
