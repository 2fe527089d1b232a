/**
 * @module api/recall-actions
 * The reads the Engine answers from the store and checks before a search: `recall`'s query checked, and `show` (a
 * memory with its status now, a summary with its children and its sentences' status). The search itself and its
 * channels are in api/search-actions.ts, loaded by the first `recall`. The Engine wraps them in its span and waits
 * for the pyramid first.
 */
import { defaultLimits } from "../config/defaults.js";
import { CascadeError, notFound } from "../errors.js";
import type { ShownSentence } from "../model/pyramid.js";
import type { Store } from "../ports/store.js";
import { withStatus, type ListedMemory } from "./list-page.js";
import { shownSentences } from "./pyramid-read.js";

/** A memory with its status now; a summary node with its children and its sentences' status now. */
export async function showMemory(store: Store, id: string, now: number): Promise<ListedMemory & { children?: string[]; sentences?: ShownSentence[] }> {
  const m = await store.getMemory(id);
  if (!m) throw notFound("memory", id);
  const [shown] = (await withStatus(store, [m], { asOf: now, knownAt: now })).memories;
  if (m.kind !== "summary") return shown;
  return { ...shown, children: await store.summaryChildren(id), sentences: await shownSentences(store, m, now) };
}

export function validateQuery(query: string): void {
  if (typeof query !== "string") throw new CascadeError("INVALID_INPUT", "query: must be a string", { field: "query" });
  // a mistake on every surface (a throw, exit 2, a 400, a tool error), never an empty answer
  if (query.trim() === "") throw new CascadeError("INVALID_INPUT", "query: must not be empty: say what to search for", { field: "query" });
  if (query.length > defaultLimits.maxQueryChars) {
    throw new CascadeError("INVALID_INPUT", `query: at most ${defaultLimits.maxQueryChars} characters`, { field: "query" });
  }
}
