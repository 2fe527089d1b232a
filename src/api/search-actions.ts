/**
 * @module api/search-actions
 * `recall`'s search: the channels, built once per engine, and the search run with the engine's channels and
 * configuration (query/search.ts). The Engine loads this module on its first `recall` (api/engine.ts), so that
 * opening a store to list, show or count what it holds does not load the search pipeline.
 */
import { bm25Channel } from "../channels/bm25.js";
import type { Channel } from "../channels/channel.js";
import { colbertChannel } from "../channels/colbert.js";
import { curatedChannel } from "../channels/curated.js";
import { denseChannel } from "../channels/dense.js";
import type { GraphChannel } from "../channels/graph.js";
import { timeChannel } from "../channels/time.js";
import type { SearchResult } from "../model/types.js";
import type { Embedder, TokenVectors } from "../ports/embedder.js";
import type { Store } from "../ports/store.js";
import type { resolveRecallOptions } from "../query/options.js";
import { search } from "../query/search.js";
import type { ResolvedEngineConfig } from "./engine-config.js";

/** What a search is run with: the engine's store, embedder, channels and configuration. */
export interface RecallDeps {
  store: Store;
  embedder: Embedder;
  channels: Channel[];
  graph: GraphChannel;
  config: ResolvedEngineConfig;
  /** How the search reads the store (query/search.ts: SearchDeps.reads); tests read through to compare. */
  reads?: (store: Store) => Store;
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
    speakers: d.config.speakers,
    laterValues: d.config.laterValues,
    agreement: d.config.agreement,
    ...(d.reads ? { reads: d.reads } : {}),
  };
  return search(deps, query, { ...resolved, pyramid: resolved.pyramid && d.config.pyramid.enabled });
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
