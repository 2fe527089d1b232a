/**
 * @module api/recall-actions
 * The reads the Engine answers from search and the store: `recall`'s channels, its query checked and its search
 * run with the engine's channels and configuration (query/search.ts), and `show` (a memory with its status now, a summary with
 * its children and its sentences' status). The Engine wraps them in its span and waits for the pyramid first.
 */
import { bm25Channel } from "../channels/bm25.js";
import type { Channel } from "../channels/channel.js";
import { colbertChannel } from "../channels/colbert.js";
import { curatedChannel } from "../channels/curated.js";
import { denseChannel } from "../channels/dense.js";
import type { GraphChannel } from "../channels/graph.js";
import { timeChannel } from "../channels/time.js";
import { defaultLimits } from "../config/defaults.js";
import { CascadeError, notFound } from "../errors.js";
import type { ShownSentence } from "../model/pyramid.js";
import type { SearchResult } from "../model/types.js";
import type { Embedder, TokenVectors } from "../ports/embedder.js";
import type { Store } from "../ports/store.js";
import type { resolveRecallOptions } from "../query/options.js";
import { search } from "../query/search.js";
import type { ResolvedEngineConfig } from "./engine-config.js";
import { withStatus, type ListedMemory } from "./list.js";
import { shownSentences } from "./pyramid-read.js";

/** What a search is run with: the engine's store, embedder, channels and configuration. */
export interface RecallDeps {
  store: Store;
  embedder: Embedder;
  channels: Channel[];
  graph: GraphChannel;
  config: ResolvedEngineConfig;
}

export async function runSearch(d: RecallDeps, query: string, resolved: ReturnType<typeof resolveRecallOptions>): Promise<SearchResult> {
  const deps = {
    store: d.store,
    embedder: d.embedder,
    channels: d.channels,
    graph: d.graph,
    pruning: d.config.termPruning,
    demotion: d.config.demotion,
    zone: d.config.pyramid.zone,
    context: d.config.context,
    neighbours: d.config.neighbours,
    agreement: d.config.agreement,
    speakers: d.config.speakers,
    laterValues: d.config.laterValues,
  };
  return search(deps, query, { ...resolved, pyramid: resolved.pyramid && d.config.pyramid.enabled });
}

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

/** The channels `recall` fuses, built once per engine from its ports and configuration. */
export function recallChannels(ports: { store: Store; embedder: Embedder; tokens: TokenVectors }, config: ResolvedEngineConfig): Channel[] {
  return [
    bm25Channel(ports.store, config.bm25),
    // store-aware query weighting needs the embedder's own word vectors (same object: same space)
    denseChannel(ports.store, config.dense, ports.embedder === (ports.tokens as unknown) ? ports.tokens : null),
    curatedChannel(ports.store),
    colbertChannel(ports.store, ports.tokens, config.lateInteraction),
    timeChannel(ports.store),
  ];
}
