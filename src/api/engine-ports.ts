/**
 * @module api/engine-ports
 * What an Engine is built from (api/engine.ts): the store and the models it is handed, and who it is for its
 * spans. Apart from the Engine so its front reads as the list of actions.
 */
import type { Clock } from "../ports/clock.js";
import type { Embedder, TokenVectors } from "../ports/embedder.js";
import type { Store } from "../ports/store.js";

export interface EnginePorts {
  store: Store;
  embedder: Embedder;
  /** Token vectors for late interaction; the default embedder provides both. */
  tokens: TokenVectors;
  clock?: Clock;
}

/** Who the engine is, for its spans' attributes (api/open names the namespace). */
export interface EngineIdentity {
  namespace?: string;
}
