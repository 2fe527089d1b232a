/**
 * @module bench/topics
 * `cascade bench --topics`: the taxonomy's cost at scale. N synthetic memories over 1,000 topics (a tree of
 * 10 × 10 × 10); fused queries with and without `--under` a subtree holding 1% of the memories, taking turns query
 * by query; and the whole tree listed with counts. Timings are reported, never asserted.
 */
import { Engine } from "../api/engine.js";
import type { StoreMaker } from "../ports/store.js";
import type { SifEmbedder } from "../embed/sif.js";
import { syntheticCorpus } from "./corpus.js";
import { percentiles, type Percentiles } from "./run.js";

export interface TopicBenchReport {
  memories: number;
  topics: number;
  under: string;
  under_share: number;
  queries: number;
  fused_ms: Percentiles;
  fused_under_ms: Percentiles;
  /** p95 with --under minus p95 without. */
  under_added_p95_ms: number;
  tree_listing_ms: Percentiles;
}

export async function runTopicBench(
  embedder: SifEmbedder,
  options: { stores: StoreMaker; memories: number; queries: number; seed?: number; onProgress?: (phase: string, done: number, total: number) => void },
): Promise<TopicBenchReport> {
  const store = await options.stores("topic-bench");
  const engine = await Engine.create({ store, embedder, tokens: embedder }, { detection: { enabled: false } });
  try {
    const corpus = syntheticCorpus({ memories: options.memories, queries: options.queries, seed: options.seed ?? 11, vocabulary: [...embedder.vocabulary()] });
    // memory i goes to leaf i mod 1000: every leaf holds 0.1%, every middle node (10 leaves) 1%
    const topicOf = (i: number) => `area${Math.floor((i % 1000) / 100)}.group${Math.floor((i % 100) / 10)}.leaf${i % 10}`;
    const memories = corpus.memories.map((m, i) => ({ ...m, topic: topicOf(i) }));
    for (let i = 0; i < memories.length; i += 2000) {
      await engine.rememberMany(memories.slice(i, i + 2000), { batchSize: 2000, detect: false });
      options.onProgress?.("ingest", Math.min(i + 2000, memories.length), memories.length);
    }
    await engine.settlePyramid(); // a search does not wait for the refresh: it belongs to the ingest, not the queries
    await store.settle();
    const under = "area3.group4";
    const plain: number[] = [];
    const filtered: number[] = [];
    for (const q of corpus.queries.slice(0, 20)) {
      await engine.recall(q, { k: 10 });
      await engine.recall(q, { k: 10, under });
    }
    for (const [i, q] of corpus.queries.entries()) {
      let t0 = performance.now();
      await engine.recall(q, { k: 10 });
      plain.push(performance.now() - t0);
      t0 = performance.now();
      await engine.recall(q, { k: 10, under });
      filtered.push(performance.now() - t0);
      options.onProgress?.("queries", i + 1, corpus.queries.length);
    }
    const listing: number[] = [];
    let topicCount = 0;
    for (let i = 0; i < 21; i++) {
      const t0 = performance.now();
      const { topics } = await engine.topics();
      if (i > 0) listing.push(performance.now() - t0);
      topicCount = topics.filter((t) => t.count > 0).length;
    }
    const fused = percentiles(plain);
    const fusedUnder = percentiles(filtered);
    const held = (await engine.topics(under)).topics[0].total;
    return {
      memories: options.memories,
      topics: topicCount,
      under,
      under_share: Math.round((held / options.memories) * 10000) / 10000,
      queries: corpus.queries.length,
      fused_ms: fused,
      fused_under_ms: fusedUnder,
      under_added_p95_ms: Math.round((fusedUnder.p95 - fused.p95) * 1000) / 1000,
      tree_listing_ms: percentiles(listing),
    };
  } finally {
    await engine.close();
  }
}
