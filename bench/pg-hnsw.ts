/**
 * The PostgreSQL store's HNSW index against its exact scan, on PGlite in this process: a seeded synthetic corpus
 * (the `cascade bench` generator, one chunk per memory) embedded with the default embedder and written straight
 * through the store, then for each query the exact top 10 (computed here from every vector) against what the
 * index returns, at several `ef_search` values, with the latency of both and the index build time.
 * The figures are in docs/POSTGRES.md.
 *
 *   node dist/bench/pg-hnsw.js [--chunks 20000] [--queries 200] [--m 16] [--ef-construction 64] [--ef 40,100,200]
 */
import { pathToFileURL } from "node:url";
import { pgliteDatabase } from "../src/backends/postgres/connection.js";
import { defaultApproximateSearch } from "../src/backends/postgres/hnsw-sql.js";
import { newPglite } from "../src/backends/postgres/open.js";
import { PostgresStore } from "../src/backends/postgres/store.js";
import { syntheticCorpus } from "../src/bench/corpus.js";
import { percentiles } from "../src/bench/run.js";
import { defaultGloveEmbedder } from "../src/index.js";
import { prepareMemories } from "../src/ingest/prepare.js";
import { validateMemoryInput } from "../src/ingest/validate-memory.js";
import { dot } from "../src/vectors/math.js";

const K = 10;

function flag(name: string, fallback: number): number {
  const i = process.argv.indexOf(name);
  return i < 0 ? fallback : Number(process.argv[i + 1]);
}

export async function measureHnsw(chunks: number, queryCount: number, efs: number[], graph: { m: number; efConstruction: number }) {
  const embedder = defaultGloveEmbedder();
  const stamp = { id: embedder.id, dimensions: embedder.dimensions };
  const corpus = syntheticCorpus({ memories: chunks, queries: queryCount, seed: 42, vocabulary: [...embedder.vocabulary()] });
  const db = pgliteDatabase(newPglite(), { owned: true, label: "pglite (hnsw bench)" });
  const exact = await PostgresStore.open(db, { approximate: false });
  try {
    const recorded = Date.UTC(2026, 0, 1);
    for (let i = 0; i < corpus.memories.length; i += 1000) {
      const batch = corpus.memories.slice(i, i + 1000).map((m) => validateMemoryInput(m, recorded));
      await exact.writeMemories(await prepareMemories(batch, embedder, recorded), stamp);
    }
    await exact.settle();
    const all: [number, Float32Array][] = [];
    for await (const row of exact.allVectors()) all.push(row);
    const queries = await embedder.embed(corpus.queries);
    const truth = queries.map((q) =>
      all
        .map(([id, v]) => ({ id, s: dot(q, v) }))
        .sort((a, b) => b.s - a.s)
        .slice(0, K)
        .map((x) => x.id),
    );
    const timed = async (store: PostgresStore) => {
      const ms: number[] = [];
      let found = 0;
      for (const [i, vector] of queries.entries()) {
        const t0 = performance.now();
        const got = new Set((await store.nearestChunks({ vector, depth: K, filter: {} })).map((r) => r.chunkId));
        ms.push(performance.now() - t0);
        found += truth[i].filter((id) => got.has(id)).length;
      }
      return { "recall@10": Math.round((found / (K * queries.length)) * 1000) / 1000, latency_ms: percentiles(ms) };
    };
    const report: Record<string, unknown> = { chunks: all.length, queries: queries.length, dimensions: stamp.dimensions, exact: await timed(exact) };
    const settings = { ...defaultApproximateSearch, ...graph, above: 0 };
    const t0 = performance.now();
    const first = await PostgresStore.open(db, { approximate: { ...settings, efSearch: efs[0] } });
    await first.nearestChunks({ vector: queries[0], depth: K, filter: {} }); // builds the index
    report.build_s = Math.round(performance.now() - t0) / 1000;
    report.m = settings.m;
    report.ef_construction = settings.efConstruction;
    for (const ef of efs) {
      const store = await PostgresStore.open(db, { approximate: { ...settings, efSearch: ef } });
      report[`hnsw ef_search=${ef}`] = await timed(store);
    }
    return report;
  } finally {
    await exact.close(); // owns the PGlite instance; the other stores share it
  }
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) {
  const i = process.argv.indexOf("--ef");
  const efs = i < 0 ? [40, 100, 200] : process.argv[i + 1].split(",").map(Number);
  const graph = { m: flag("--m", defaultApproximateSearch.m), efConstruction: flag("--ef-construction", defaultApproximateSearch.efConstruction) };
  const report = await measureHnsw(flag("--chunks", 20_000), flag("--queries", 200), efs, graph);
  process.stdout.write(JSON.stringify(report, null, 2) + "\n");
}
