/**
 * @module api/reader
 * A store opened only to read what it holds (`cascade stats`, `show`, `list`): the same answers as an Engine's
 * `stats`, `show` and `list`, without loading the write path, the search pipeline, the summariser or the schemas
 * (zod) of the engine's configuration (a command that reads starts in a fraction of the time).
 *
 * It answers only when an Engine opened the same way would do nothing but read: the offline embedder (none named
 * by the environment or kept by the store, and the store stamped with it or with none), and a pyramid the catch-up
 * on open would leave as it is. Otherwise `openReader` returns null and the caller opens an Engine (openMemory),
 * which reports a mismatch or brings the store up to date as it always does.
 */
import type { ShownSentence } from "../model/pyramid.js";
import { systemClock, fixedClock } from "../ports/clock.js";
import type { Store, StoreStats } from "../ports/store.js";
import { EMBEDDER_SPEC_META, envNamesEmbedder } from "../embed/spec-meta.js";
import { GLOVE_DIMENSIONS, sifEmbedderId } from "../embed/sif.js";
import { EXTRACTIVE_SUMMARIZER_ID, pyramidIsCurrent } from "../pyramid/current.js";
import { listPage, plainListOptions, type ListedMemory, type ListJson } from "./list-page.js";
import type { ListOptions } from "./list.js";
import { openLocatedStore } from "./open-store.js";
import { showMemory } from "./recall-actions.js";
import { tracedStore } from "./traced-store.js";

/** The reads an Engine answers that a StoreReader answers alike (an Engine is one). */
export interface StoreReader {
  stats(): Promise<StoreStats & { embedder: string }>;
  show(id: string): Promise<ListedMemory & { children?: string[]; sentences?: ShownSentence[] }>;
  list(options?: ListOptions): Promise<ListJson>;
  close(): Promise<void>;
}

export interface OpenReaderOptions {
  /** As OpenMemoryOptions: the store, its namespace, a fixed "now" (ISO ms). A missing store is NOT_FOUND. */
  path?: string;
  namespace?: string;
  now?: number;
}

/**
 * A reader of an existing store, or null when an Engine opened with the default configuration would do more than
 * read it (see the module's comment). Callers with a configuration of their own (a config file, engine options)
 * open an Engine instead.
 */
export async function openReader(options: OpenReaderOptions = {}): Promise<StoreReader | null> {
  // the environment names an embedder (or gets it wrong): openMemory's choice and its checks apply
  if (envNamesEmbedder()) return null;
  const opened = await openLocatedStore({ path: options.path, namespace: options.namespace, create: false });
  // a store that fails these reads (a damaged one, say) is the Engine's to open: it reports the failure, or opens
  // anyway, as it always did
  if (!(await onlyReads(opened).catch(() => false))) {
    await opened.close();
    return null;
  }
  // every store call a span of its own, as an Engine's (tracing.ts)
  const store = tracedStore(opened);
  const clock = options.now !== undefined ? fixedClock(options.now) : systemClock;
  const embedder = sifEmbedderId();
  return {
    stats: async () => ({ ...(await store.stats()), embedder }),
    show: (id) => showMemory(store, id, clock.now()),
    list: async (listOptions = {}) => {
      const plain = plainListOptions(listOptions);
      if (plain) return listPage(store, clock.now(), plain, undefined);
      // a filter, or a mistake the schema names: checked as an Engine checks them
      return (await import("./list.js")).listMemories(store, clock.now(), listOptions);
    },
    close: () => store.close(),
  };
}

/** Whether an Engine opened on this store with the defaults would only read it (the module's comment says when). */
async function onlyReads(store: Store): Promise<boolean> {
  if (await store.getMeta(EMBEDDER_SPEC_META)) return false; // (openMemory opens with a kept spec, as here with none)
  const stamp = await store.embedderStamp();
  if (stamp && (stamp.id !== sifEmbedderId() || stamp.dimensions !== GLOVE_DIMENSIONS)) return false;
  return pyramidIsCurrent(store, EXTRACTIVE_SUMMARIZER_ID);
}
