/**
 * @module api/reembed
 * Moves a store to another embedder (or dimension) in place: `cascade reembed --embedder SPEC` and `reembedStore`.
 *
 * The new vectors are built beside the live ones (ports/store StoreReembed), a batch per transaction, while
 * searches and writes go on with the old embedder; then one transaction puts them in place and stamps the store
 * with the new embedder. A kill at any point leaves the store on the old embedder with the batches done so far
 * kept, and the same call resumes: only chunks without a new vector for their current text are embedded.
 *
 * Writes during the rebuild are embedded with the old embedder only (by whichever process writes them); the
 * rebuild catches them up: after its pass over the chunks it tries the switch, which refuses while any chunk
 * lacks its new vector (one written, or rewritten, since it was listed), and then it makes another pass for those.
 * The switch holds the write lock from its count to its commit, so no write lands between them.
 *
 * Another process holding the store open with the old embedder (a server) keeps answering until the switch; after
 * it, its writes are refused (EMBEDDER_MISMATCH) and it must be restarted with the new embedder.
 */
import { CascadeError, invalidInput } from "../errors.js";
import { embedderFromSpec, embedderSpecSchema, type EmbedderSpec } from "../embed/spec.js";
import type { Embedder } from "../ports/embedder.js";
import type { EmbedderStamp, Store } from "../ports/store.js";
import { parseWith } from "../validate.js";
import { defaultGloveEmbedder, defaultStorePath } from "./open.js";
import { DEFAULT_NAMESPACE, isFileLocation, namespacePath } from "./namespaces.js";
import { openStoreAt } from "./stores.js";
import { existsSync } from "node:fs";
import { DEFAULT_REEMBED_BATCH } from "./batch-defaults.js";


export interface ReembedOptions {
  /** The store: a file, postgres://…, pglite:<dir> (default: as openMemory). */
  path?: string;
  namespace?: string;
  /** The embedder to move to: a spec (kept by the store, so it reopens with it) or an object (given again on every open). */
  embedder: Embedder | EmbedderSpec;
  /** Chunks per embedder call and per transaction. */
  batch?: number;
  /** After every batch: chunks with their new vector, of all, chunks a second this run, seconds left (null before a rate). */
  onProgress?: (progress: ReembedProgress) => void;
  /** Stops after the batch under way (its vectors kept); the call then throws the signal's reason. */
  signal?: AbortSignal;
}

export interface ReembedProgress {
  done: number;
  total: number;
  rate: number;
  eta_s: number | null;
}

export interface ReembedReport {
  /** The embedder the store was on, and the one it is on now. */
  from: EmbedderStamp | null;
  to: EmbedderStamp;
  chunks: number;
  /** Chunks embedded by this run, and new vectors found kept from an earlier (interrupted) run. */
  embedded: number;
  resumed: number;
  /** Passes over the chunks: more than one when writes landed during the rebuild. */
  passes: number;
  /** False when the store was already on this embedder (nothing done). */
  switched: boolean;
  took_ms: number;
  chunks_per_s: number;
}

/** The embedder a spec or object names, and the spec the store keeps for it. */
async function resolve(given: Embedder | EmbedderSpec): Promise<{ embedder: Embedder; spec: string | null }> {
  if (given && typeof given === "object" && !("provider" in given) && typeof (given as Embedder).embed === "function") return { embedder: given as Embedder, spec: null };
  const spec = parseWith(embedderSpecSchema, given, "embedder");
  return { embedder: await embedderFromSpec(spec, defaultGloveEmbedder), spec: JSON.stringify(spec) };
}

/** Re-embeds every chunk of a store (one namespace) with another embedder and switches to it; resumes an interrupted run. */
export async function reembedStore(options: ReembedOptions): Promise<ReembedReport> {
  if (options.embedder === undefined || options.embedder === null) throw invalidInput("embedder", "name the embedder to move to");
  const batch = options.batch ?? DEFAULT_REEMBED_BATCH;
  if (!Number.isInteger(batch) || batch < 1 || batch > 100_000) throw invalidInput("batch", "must be an integer from 1 to 100000");
  const base = options.path ?? defaultStorePath();
  const path = namespacePath(base, options.namespace ?? DEFAULT_NAMESPACE);
  if (isFileLocation(path) && path !== ":memory:" && !existsSync(path)) throw new CascadeError("NOT_FOUND", `no store at ${JSON.stringify(base)}`, { field: "path" });
  const { embedder, spec } = await resolve(options.embedder);
  const store = await openStoreAt(path);
  try {
    return await run(store, embedder, spec, batch, options);
  } finally {
    await store.close();
  }
}

async function run(store: Store, embedder: Embedder, spec: string | null, batch: number, options: ReembedOptions): Promise<ReembedReport> {
  const began = Date.now();
  const from = await store.embedderStamp();
  const to: EmbedderStamp = { id: embedder.id, dimensions: embedder.dimensions };
  const pending = (await store.reembed.progress()).target;
  if (from && from.id === to.id && from.dimensions === to.dimensions && !pending) {
    const { total } = await store.reembed.progress();
    return { from, to, chunks: total, embedded: 0, resumed: 0, passes: 0, switched: false, took_ms: Date.now() - began, chunks_per_s: 0 };
  }
  const { kept } = await store.reembed.start({ stamp: to, spec });
  let embedded = 0;
  let passes = 0;
  for (;;) {
    passes++;
    let { done, total } = await store.reembed.progress();
    const report = () => {
      const seconds = (Date.now() - began) / 1000;
      const rate = seconds > 0 ? embedded / seconds : 0;
      options.onProgress?.({ done, total, rate, eta_s: rate > 0 ? (total - done) / rate : null });
    };
    report();
    for (let after = 0; ; ) {
      if (options.signal?.aborted) throw options.signal.reason ?? new CascadeError("INTERNAL", "re-embedding stopped");
      const rows = await store.reembed.todo(after, batch);
      if (rows.length === 0) break;
      const vectors = await embedder.embed(rows.map((r) => r.text));
      if (vectors.length !== rows.length || vectors.some((v) => v.length !== to.dimensions)) {
        throw new CascadeError("INTERNAL", `the embedder ${to.id} answered ${vectors.length} vectors of ${vectors[0]?.length ?? 0} dimensions for ${rows.length} texts (expected ${to.dimensions})`);
      }
      await store.reembed.save(rows.map((r, i) => ({ chunkId: r.chunkId, indexedText: r.indexedText, vector: vectors[i] })));
      embedded += rows.length;
      done = Math.min(total, done + rows.length);
      after = rows[rows.length - 1].chunkId;
      report();
    }
    // refused while a chunk written during the pass lacks its new vector: another pass embeds those
    if ((await store.reembed.switchOver()) === 0) {
      const took = Date.now() - began;
      // the chunks switched: with any written during the last pass
      const chunks = (await store.reembed.progress()).total;
      options.onProgress?.({ done: chunks, total: chunks, rate: took > 0 ? (embedded / took) * 1000 : 0, eta_s: 0 });
      return { from, to, chunks, embedded, resumed: kept, passes, switched: true, took_ms: took, chunks_per_s: took > 0 ? Math.round((embedded / took) * 1000 * 10) / 10 : 0 };
    }
  }
}
