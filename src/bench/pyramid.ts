/**
 * @module bench/pyramid
 * `cascade bench --pyramid`: the summary pyramid's cost at scale. Imports N synthetic turns spread evenly over
 * `days` days, times a full build with the default (extractive) summariser, then adds 100 turns on the last
 * day and times the incremental refresh. Timings are reported, never asserted.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Engine } from "../api/engine.js";
import { SqliteStore } from "../backends/sqlite/store.js";
import type { SifEmbedder } from "../embed/sif.js";
import { syntheticCorpus } from "./corpus.js";

export interface PyramidBenchReport {
  turns: number;
  days: number;
  ingest_s: number;
  build_s: number;
  nodes: { day: number; week: number; month: number };
  refresh_turns: number;
  refresh_s: number;
  refresh_windows: number;
}

export async function runPyramidBench(
  embedder: SifEmbedder,
  options: { turns: number; days?: number; seed?: number; onProgress?: (phase: string, done: number, total: number) => void },
): Promise<PyramidBenchReport> {
  const days = options.days ?? 730;
  const dir = mkdtempSync(join(tmpdir(), "cascade-pyramid-bench-"));
  const store = new SqliteStore(join(dir, "bench.db"));
  const engine = await Engine.create({ store, embedder, tokens: embedder }, { detection: { enabled: false } });
  try {
    const refreshTurns = 100;
    const corpus = syntheticCorpus({ memories: options.turns + refreshTurns, queries: 0, seed: options.seed ?? 7, vocabulary: [...embedder.vocabulary()] });
    const start = Date.UTC(2025, 0, 1);
    const step = (days * 86_400_000) / options.turns;
    const turns = corpus.memories.map((m, i) => ({ ...m, at: new Date(start + Math.floor(Math.min(i, options.turns - 1) * step)).toISOString() }));

    const t0 = performance.now();
    for (let i = 0; i < options.turns; i += 2000) {
      await engine.rememberMany(turns.slice(i, Math.min(i + 2000, options.turns)), { batchSize: 2000, detect: false });
      options.onProgress?.("ingest", Math.min(i + 2000, options.turns), options.turns);
    }
    const ingestS = (performance.now() - t0) / 1000;

    const t1 = performance.now();
    const built = await engine.buildPyramid({ onProgress: (d, t) => options.onProgress?.("pyramid", d, t) });
    const buildS = (performance.now() - t1) / 1000;

    // 100 new turns on the last day: one day, one week and one month to recompute
    await engine.rememberMany(turns.slice(options.turns), { detect: false });
    const t2 = performance.now();
    const refreshed = await engine.buildPyramid();
    const refreshS = (performance.now() - t2) / 1000;

    const round = (s: number) => Math.round(s * 1000) / 1000;
    return {
      turns: options.turns,
      days,
      ingest_s: round(ingestS),
      build_s: round(buildS),
      nodes: { day: built.recomputed.day, week: built.recomputed.week, month: built.recomputed.month },
      refresh_turns: refreshTurns,
      refresh_s: round(refreshS),
      refresh_windows: refreshed.recomputed.day + refreshed.recomputed.week + refreshed.recomputed.month,
    };
  } finally {
    await engine.close();
    rmSync(dir, { recursive: true, force: true });
  }
}
