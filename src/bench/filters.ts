/**
 * @module bench/filters
 * `cascade bench --filters`: what scope and metadata conditions cost at scale. N synthetic memories, each with a
 * user (1 of 100), a project (1 of 1,000) and a priority (0-4) in metadata; fused queries unfiltered and with a
 * 1% scope (`user=u7`), a 0.1% metadata condition (`project=p42`) and a 40% range (`priority>=3`), taking turns
 * query by query so that the machine's slow spells fall on all of them alike. Timings are reported, never asserted.
 */
import { Engine } from "../api/engine.js";
import type { StoreMaker } from "../ports/store.js";
import type { SifEmbedder } from "../embed/sif.js";
import { parseFilterArg } from "../query/where.js";
import { syntheticCorpus } from "./corpus.js";
import { percentiles, type Percentiles } from "./run.js";

export const BENCH_FILTERS = ["user=u7", "project=p42", "priority>=3"] as const;

export interface FilterBenchReport {
  memories: number;
  queries: number;
  fused_ms: Percentiles;
  /** Per filter: its share of the memories, its latency, and its p95 minus the unfiltered p95. */
  filtered: { filter: string; share: number; fused_ms: Percentiles; added_p95_ms: number; hits_per_query: number }[];
}

export async function runFilterBench(
  embedder: SifEmbedder,
  options: { stores: StoreMaker; memories: number; queries: number; seed?: number; onProgress?: (phase: string, done: number, total: number) => void },
): Promise<FilterBenchReport> {
  const store = await options.stores("filter-bench");
  const engine = await Engine.create({ store, embedder, tokens: embedder }, { detection: { enabled: false } });
  try {
    const corpus = syntheticCorpus({ memories: options.memories, queries: options.queries, seed: options.seed ?? 13, vocabulary: [...embedder.vocabulary()] });
    const memories = corpus.memories.map((m, i) => ({ ...m, user: `u${i % 100}`, metadata: { project: `p${i % 1000}`, priority: i % 5 } }));
    for (let i = 0; i < memories.length; i += 2000) {
      await engine.rememberMany(memories.slice(i, i + 2000), { batchSize: 2000, detect: false });
      options.onProgress?.("ingest", Math.min(i + 2000, memories.length), memories.length);
    }
    await engine.settlePyramid(); // a search does not wait for the refresh: it belongs to the ingest, not the queries
    await store.settle();
    const wheres = BENCH_FILTERS.map((f) => [parseFilterArg(f)]);
    const times: number[][] = [[], ...wheres.map(() => [])];
    const hits = wheres.map(() => 0);
    for (const q of corpus.queries.slice(0, 20)) for (const where of [undefined, ...wheres]) await engine.recall(q, { k: 10, where });
    for (const [i, q] of corpus.queries.entries()) {
      for (const [j, where] of [undefined, ...wheres].entries()) {
        const t0 = performance.now();
        const r = await engine.recall(q, { k: 10, where });
        times[j].push(performance.now() - t0);
        if (j > 0) hits[j - 1] += r.hits.length;
      }
      options.onProgress?.("queries", i + 1, corpus.queries.length);
    }
    const fused = percentiles(times[0]);
    const filtered = [];
    for (const [j, where] of wheres.entries()) {
      let held = 0;
      for (let page = await engine.list({ where, limit: 1000 }); ; page = await engine.list({ where, limit: 1000, cursor: page.next_cursor! })) {
        held += page.memories.length;
        if (!page.next_cursor) break;
      }
      const p = percentiles(times[j + 1]);
      filtered.push({
        filter: BENCH_FILTERS[j],
        share: Math.round((held / options.memories) * 10000) / 10000,
        fused_ms: p,
        added_p95_ms: Math.round((p.p95 - fused.p95) * 1000) / 1000,
        hits_per_query: Math.round((hits[j] / corpus.queries.length) * 10) / 10,
      });
    }
    return { memories: options.memories, queries: corpus.queries.length, fused_ms: fused, filtered };
  } finally {
    await engine.close();
  }
}
