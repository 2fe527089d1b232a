/**
 * @module bench/pyramid
 * `cascade bench --pyramid`: the summary pyramid's cost at scale. Imports N synthetic turns spread evenly over
 * `days` days with the pyramid kept current on every write (as by default) and without it, times a full rebuild
 * (`pyramid build --full`) with the default extractive summariser, then adds 100 turns on the last day and times
 * that write with its refresh. Timings are reported, never asserted.
 */
import { Engine } from "../api/engine.js";
import type { Store, StoreMaker } from "../ports/store.js";
import type { SifEmbedder } from "../embed/sif.js";
import { syntheticCorpus } from "./corpus.js";

export interface PyramidBenchReport {
  turns: number;
  days: number;
  /** Bulk ingest with the pyramid maintained after every batch of 2,000, and with the pyramid off. */
  ingest_s: number;
  ingest_per_s: number;
  ingest_off_s: number;
  ingest_off_per_s: number;
  build_s: number;
  nodes: { day: number; week: number; month: number };
  refresh_turns: number;
  /** The write of the 100 new turns, its refresh included. */
  refresh_s: number;
  refresh_windows: number;
}

async function ingest(store: Store, pyramid: boolean, embedder: SifEmbedder, turns: { text: string; at: string }[], onProgress?: (done: number, total: number) => void) {
  const engine = await Engine.create({ store, embedder, tokens: embedder }, { detection: { enabled: false }, pyramid: { enabled: pyramid } });
  const t0 = performance.now();
  for (let i = 0; i < turns.length; i += 2000) {
    await engine.rememberMany(turns.slice(i, i + 2000), { batchSize: 2000, detect: false });
    onProgress?.(Math.min(i + 2000, turns.length), turns.length);
  }
  await engine.settlePyramid(); // the refresh the last batches scheduled belongs to the ingest's time
  return { engine, seconds: (performance.now() - t0) / 1000 };
}

export async function runPyramidBench(
  embedder: SifEmbedder,
  options: { stores: StoreMaker; turns: number; days?: number; seed?: number; onProgress?: (phase: string, done: number, total: number) => void },
): Promise<PyramidBenchReport> {
  const days = options.days ?? 730;
  const refreshTurns = 100;
  const corpus = syntheticCorpus({ memories: options.turns + refreshTurns, queries: 0, seed: options.seed ?? 7, vocabulary: [...embedder.vocabulary()] });
  const start = Date.UTC(2025, 0, 1);
  const step = (days * 86_400_000) / options.turns;
  const turns = corpus.memories.map((m, i) => ({ ...m, at: new Date(start + Math.floor(Math.min(i, options.turns - 1) * step)).toISOString() }));
  const round = (s: number) => Math.round(s * 1000) / 1000;

  const off = await ingest(await options.stores("pyramid-off"), false, embedder, turns.slice(0, options.turns), (d, t) => options.onProgress?.("ingest, pyramid off", d, t));
  await off.engine.close();

  const on = await ingest(await options.stores("pyramid-on"), true, embedder, turns.slice(0, options.turns), (d, t) => options.onProgress?.("ingest, pyramid on", d, t));
  try {
    const t1 = performance.now();
    const built = await on.engine.buildPyramid({ full: true, onProgress: (d, t) => options.onProgress?.("full rebuild", d, t) });
    const buildS = (performance.now() - t1) / 1000;
    // 100 new turns on the last day: the write recomputes one day, one week and one month
    const t2 = performance.now();
    await on.engine.rememberMany(turns.slice(options.turns), { detect: false });
    const r = (await on.engine.settlePyramid())?.recomputed;
    const refreshS = (performance.now() - t2) / 1000;
    return {
      turns: options.turns,
      days,
      ingest_s: round(on.seconds),
      ingest_per_s: Math.round(options.turns / on.seconds),
      ingest_off_s: round(off.seconds),
      ingest_off_per_s: Math.round(options.turns / off.seconds),
      build_s: round(buildS),
      nodes: { day: built.recomputed.day, week: built.recomputed.week, month: built.recomputed.month },
      refresh_turns: refreshTurns,
      refresh_s: round(refreshS),
      refresh_windows: r ? r.day + r.week + r.month : 0,
    };
  } finally {
    await on.engine.close();
  }
}
