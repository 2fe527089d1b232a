/**
 * @module bench/run
 * `cascade bench`: generates a seeded synthetic corpus, imports it with the default embedder, and measures
 * ingest rate, index build, store size, per-channel and fused query latency, dense recall against brute
 * force, and peak RSS. Timings are reported, never asserted.
 */
import { join } from "node:path";
import { Engine } from "../api/engine.js";
import type { Store, StoreMaker } from "../ports/store.js";
import { CHANNEL_NAMES, type ChannelName } from "../model/types.js";
import type { SifEmbedder } from "../embed/sif.js";
import { dot } from "../vectors/math.js";
import type { EdgeDraft } from "../model/graph.js";
import { seededRandom, streamedCorpus, syntheticCorpus } from "./corpus.js";
import { MemoryTrace, type MemorySample, type PhaseMemory } from "./memory-trace.js";

/**
 * Memories per write transaction in the ingest phase, and per rememberMany call (five transactions): a bulk load
 * hands the engine several transactions' worth at once, as an import does, and the engine drafts each batch while
 * the one before it is written (api/write-path.ts).
 */
export const INGEST_BATCH = 2000;
export const INGEST_CALL = 10_000;

export interface BenchOptions {
  chunks: number;
  queries: number;
  seed?: number;
  /** Where the bench's store is made (the caller picks the backend; the CLI's is a temporary SQLite file). */
  stores: StoreMaker;
  /** The summary pyramid maintained on every write and `context` in every search (default true, as in the engine). */
  pyramid?: boolean;
  onProgress?: (phase: string, done: number, total: number) => void;
  /**
   * Samples process.memoryUsage() every this many ms and at each phase change (ingest, build, queries, …) and
   * reports them in `memory`; absent or 0: no trace.
   */
  memoryTraceMs?: number;
}

export interface Percentiles {
  p50: number;
  p95: number;
  p99: number;
}

export interface BenchReport {
  /** Chunks and memories of the corpus (summary nodes not counted: see `summary_nodes`). */
  chunks: number;
  memories: number;
  /** Whether the pyramid was maintained during ingest (and searches returned `context`). */
  pyramid: boolean;
  /** Summary nodes the pyramid holds after ingest. */
  summary_nodes: number;
  queries: number;
  ingest_per_s: number;
  build_s: number;
  store_mb: number;
  peak_rss_mb: number;
  "ann_recall@10": number;
  /** supersedes edges added before timing `fused_with_edges` */
  edges: number;
  /** extra time per memory at ingest for revision detection */
  detect_ms_per_memory: number;
  latency_ms: Record<string, Percentiles>;
  /** Of the timed fused queries, how many had a channel's work budget cut (channels.<name>.budget). */
  budget_cuts: Record<string, number>;
  /** The V8 heap growth the process ran with, in % of the heap live after a full collection (null: V8's own). */
  heap_growth_percent?: number | null;
  /** With `memoryTraceMs`: per phase, the sample of highest RSS and the highest heap; and every sample (MB). */
  memory?: { by_phase: Record<string, PhaseMemory>; samples: MemorySample[] };
}

export function percentiles(samples: number[]): Percentiles {
  const s = [...samples].sort((a, b) => a - b);
  const at = (q: number) => Math.round(s[Math.min(s.length - 1, Math.floor(q * s.length))] * 1000) / 1000;
  return { p50: at(0.5), p95: at(0.95), p99: at(0.99) };
}

export async function runBench(embedder: SifEmbedder, options: BenchOptions): Promise<BenchReport> {
  const store = await options.stores("bench");
  const pyramid = options.pyramid ?? true;
  const engine = await Engine.create({ store, embedder, tokens: embedder }, { pyramid: { enabled: pyramid } });
  const trace = options.memoryTraceMs ? new MemoryTrace(options.memoryTraceMs) : null;
  const phase = (name: string) => trace?.enter(name);
  try {
    phase("corpus");
    // Memories of 1–3 sentences are one chunk each, so memories = chunks. The harness never holds the whole
    // corpus (its memories are generated a batch at a time, bench/corpus.ts): it is not the engine's memory.
    const corpus = streamedCorpus({ memories: options.chunks, queries: options.queries, seed: options.seed ?? 42, vocabulary: [...embedder.vocabulary()] });
    const memories = corpus.memories;

    phase("ingest");
    const ingestStart = performance.now();
    // generating a batch is the harness's time, left out of the ingest rate (the corpus was made beforehand once)
    let generating = 0;
    let done = 0;
    const calls = corpus.batches(INGEST_CALL);
    for (;;) {
      const g0 = performance.now();
      const next = calls.next();
      generating += performance.now() - g0;
      if (next.done) break;
      const call = next.value;
      // a bulk load: revision detection is measured on its own below
      const before = done;
      const r = await engine.rememberMany(call, { batchSize: INGEST_BATCH, detect: false, onProgress: (d) => options.onProgress?.("ingest", before + d, memories) });
      if (r.failed.length) throw new Error(`bench: ${r.failed.length} synthetic memories failed: ${r.failed[0].error}`);
      done += call.length;
      trace?.tick();
    }
    // the pyramid's refresh after the last batches is part of ingest (it runs once the writes pause)
    phase("pyramid");
    await engine.settlePyramid();
    const ingestS = (performance.now() - ingestStart - generating) / 1000;
    const stats = await engine.stats();

    // The build: fold the bulk load's write-ahead log into the file, then build the derived indexes (the dense
    // matrix, the late-interaction vocabulary), which happens on first use.
    const buildStart = performance.now();
    phase("settle");
    await store.settle();
    phase("build");
    await engine.recall(corpus.queries[0], { k: 10 });
    const buildS = (performance.now() - buildStart) / 1000;

    const configs: [string, ChannelName[]][] = [["fused", [...CHANNEL_NAMES]], ...CHANNEL_NAMES.filter((c) => c !== "recency").map((c): [string, ChannelName[]] => [c, [c]])];
    // Configurations take turns query by query, so that this noisy machine's slow spells fall on all alike.
    const samples = new Map<string, number[]>(configs.map(([name]) => [name, []]));
    phase("warm-up");
    for (const q of corpus.queries.slice(0, Math.min(50, corpus.queries.length))) {
      for (const [, channels] of configs) await engine.recall(q, { k: 10, channels });
      trace?.tick();
    }
    // the graph channel is seeded by the others: its own cost is its time inside the fused queries
    const graphInFused: number[] = [];
    const budgetCuts: Record<string, number> = {};
    phase("queries");
    for (const [i, q] of corpus.queries.entries()) {
      for (const [name, channels] of configs) {
        const t0 = performance.now();
        const r = await engine.recall(q, { k: 10, channels });
        samples.get(name)!.push(performance.now() - t0);
        if (name === "fused") {
          if (r.channels.graph) graphInFused.push(r.channels.graph.ms);
          for (const [channel, report] of Object.entries(r.channels)) if (report?.budget) budgetCuts[channel] = (budgetCuts[channel] ?? 0) + 1;
        }
        trace?.tick();
      }
      options.onProgress?.("queries", i + 1, corpus.queries.length);
    }
    const latency: Record<string, Percentiles> = {};
    for (const [name, xs] of samples) latency[name] = percentiles(xs);
    if (graphInFused.length) latency.graph_in_fused = percentiles(graphInFused);

    phase("recall-check");
    const annRecall = await denseRecallAgainstBruteForce(engine, store, embedder, corpus.queries.slice(0, 50));

    // The graph's cost: fused latency again once 10% of the memories are superseded (newer → older, so acyclic).
    phase("edges");
    const ids = (await store.memoryIdsInOrder()).filter((id) => !id.startsWith("p_")).slice(0, memories);
    const random = seededRandom((options.seed ?? 42) + 1);
    const edgeCount = Math.floor(ids.length / 10);
    const drafts: EdgeDraft[] = [];
    const used = new Set<string>();
    while (drafts.length < edgeCount && ids.length > 1) {
      const a = Math.floor(random() * ids.length);
      const b = Math.floor(random() * ids.length);
      if (a === b || used.has(`${Math.max(a, b)}>${Math.min(a, b)}`)) continue;
      used.add(`${Math.max(a, b)}>${Math.min(a, b)}`);
      drafts.push({ type: "supersedes", from: ids[Math.max(a, b)], to: ids[Math.min(a, b)], validFrom: Date.UTC(2025, 0, 1), validTo: null, recordedAt: Date.UTC(2025, 0, 1), provenance: "api", confidence: 1, reason: null });
    }
    await store.addEdges(drafts);
    phase("queries-with-edges");
    const withEdges: number[] = [];
    const annotate: number[] = [];
    for (const q of corpus.queries) {
      const t0 = performance.now();
      const r = await engine.recall(q, { k: 10 });
      withEdges.push(performance.now() - t0);
      annotate.push(r.annotate_ms);
      trace?.tick();
    }
    latency.fused_with_edges = percentiles(withEdges);
    latency.supersession_annotation = percentiles(annotate);

    // `cascade graph ID --depth 2` (the engine call behind it) for random memories, over the same edges
    phase("graph-depth2");
    const around: number[] = [];
    for (let i = 0; i < corpus.queries.length; i++) {
      const id = ids[Math.floor(random() * ids.length)];
      const t0 = performance.now();
      await engine.graph(id, { depth: 2 });
      around.push(performance.now() - t0);
    }
    latency.graph_depth2 = percentiles(around);

    // Revision detection per memory: the same number of new memories with detection on and off, in the order off,
    // on, on, off (100 each), so that the first writes' cold pages and any drift fall on both sides alike.
    phase("detect");
    const extra = syntheticCorpus({ memories: 400, queries: 1, seed: (options.seed ?? 42) + 2, vocabulary: [...embedder.vocabulary()] }).memories;
    const spent = { on: 0, off: 0 };
    for (const [i, detect] of [false, true, true, false].entries()) {
      const t0 = performance.now();
      await engine.rememberMany(extra.slice(i * 100, (i + 1) * 100), { detect });
      spent[detect ? "on" : "off"] += performance.now() - t0;
    }
    const detectMs = Math.max(0, (spent.on - spent.off) / 200);
    await store.settle();
    trace?.stop();
    const storeBytes = (await store.stats()).bytes;
    return {
      chunks: memories,
      memories,
      pyramid,
      summary_nodes: stats.summaries,
      queries: corpus.queries.length,
      ingest_per_s: Math.round(memories / ingestS),
      build_s: Math.round(buildS * 1000) / 1000,
      store_mb: Math.round((storeBytes / 1e6) * 10) / 10,
      peak_rss_mb: Math.round(process.resourceUsage().maxRSS / 1024),
      "ann_recall@10": annRecall,
      edges: drafts.length,
      detect_ms_per_memory: Math.round(detectMs * 1000) / 1000,
      latency_ms: latency,
      budget_cuts: budgetCuts,
      ...(trace ? { memory: { by_phase: trace.byPhase(), samples: trace.samples } } : {}),
    };
  } finally {
    trace?.stop();
    await engine.close();
  }
}

/**
 * The dense channel's top 10 against a brute-force scan of the stored vectors. One streaming pass serves every
 * query, so the check holds no second copy of the vectors (at 1,000,000 chunks that copy was 400 MB of the
 * reported peak RSS).
 */
async function denseRecallAgainstBruteForce(engine: Engine, store: Store, embedder: SifEmbedder, queries: string[]): Promise<number> {
  const vectors = await embedder.embed(queries);
  const tops = queries.map(() => [] as { chunkId: number; s: number }[]);
  for await (const [chunkId, v] of store.allVectors()) {
    vectors.forEach((q, i) => {
      const top = tops[i];
      const s = dot(q, v);
      // deep enough that the 10 best raw chunks survive once summary chunks (not searched by default) are dropped
      if (top.length < 40 || s > top[top.length - 1].s) {
        top.push({ chunkId, s });
        top.sort((a, b) => b.s - a.s);
        if (top.length > 40) top.pop();
      }
    });
  }
  let found = 0;
  let total = 0;
  for (const [i, q] of queries.entries()) {
    const owners = await store.memoryIdsOfChunks(tops[i].map((t) => t.chunkId));
    const top = tops[i].filter((t) => !owners.get(t.chunkId)!.startsWith("p_")).slice(0, 10);
    // the index itself (the dense channel also applies its relevance floor, which is not the index's business);
    // summary chunks are dropped from both sides, as searches drop them
    const near = await store.nearestChunks({ vector: vectors[i], depth: 40, filter: {} });
    const nearOwners = await store.memoryIdsOfChunks(near.map((n) => n.chunkId));
    const got = new Set(near.filter((n) => !nearOwners.get(n.chunkId)!.startsWith("p_")).slice(0, 10).map((n) => n.chunkId));
    for (const t of top) {
      total++;
      if (got.has(t.chunkId)) found++;
    }
  }
  return total ? Math.round((found / total) * 10000) / 10000 : 1;
}
