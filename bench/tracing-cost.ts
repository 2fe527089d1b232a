/**
 * What tracing costs a fused search. Builds a store of the bench's synthetic corpus (`--chunks`, default 100,000;
 * one chunk a memory), then:
 *   1. counts the spans one fused search makes (a real SDK's in-memory exporter);
 *   2. times the API's no-op span (no provider registered, the default) over a million calls: the bound on what
 *      tracing adds to a search when nobody traces is spans per search × that cost;
 *   3. times the same fused searches with no provider, then with a provider that records every span
 *      (SimpleSpanProcessor to an in-memory exporter, emptied after each search); prints p50 and p95 of each.
 *
 *   npm run build && node dist/bench/tracing-cost.js [--chunks 100000] [--queries 200]
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { context, trace } from "@opentelemetry/api";
import { AsyncLocalStorageContextManager } from "@opentelemetry/context-async-hooks";
import { InMemorySpanExporter, SimpleSpanProcessor, TracerProvider } from "@opentelemetry/sdk-trace";
import { defaultGloveEmbedder, openMemory } from "../src/index.js";
import { streamedCorpus } from "../src/bench/corpus.js";
import { inSpan } from "../src/tracing.js";

const args = process.argv.slice(2);
const flag = (name: string, fallback: number) => (args.includes(name) ? Number(args[args.indexOf(name) + 1]) : fallback);
const chunks = flag("--chunks", 100_000);
const queries = flag("--queries", 200);

const percentile = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))];
};

const dir = mkdtempSync(join(tmpdir(), "cascade-tracing-"));
const embedder = defaultGloveEmbedder();
const engine = await openMemory({ path: join(dir, "m.db"), pyramid: { enabled: false } });
try {
  const corpus = streamedCorpus({ memories: chunks, queries, seed: 42, vocabulary: [...embedder.vocabulary()] });
  const started = performance.now();
  for (const batch of corpus.batches(5_000)) await engine.rememberMany(batch, { detect: false });
  process.stderr.write(`tracing-cost: ${chunks} chunks stored in ${((performance.now() - started) / 1000).toFixed(1)} s\n`);
  await engine.settlePyramid(); // a search does not wait for the refresh: keep it out of the measured searches
  for (const q of corpus.queries.slice(0, 20)) await engine.recall(q, { k: 10 }); // warm the indexes and caches

  // 2. the no-op span: what every span costs while no provider is registered
  const calls = 1_000_000;
  let t = performance.now();
  for (let i = 0; i < calls; i++) await inSpan("cascade.bench", { "cascade.i": i }, async () => i);
  const noopNs = ((performance.now() - t) / calls) * 1e6;

  // 3a. no provider (the default)
  const plain: number[] = [];
  for (const q of corpus.queries) {
    t = performance.now();
    await engine.recall(q, { k: 10 });
    plain.push(performance.now() - t);
  }
  // 1 and 3b. a provider recording every span; once registered, the API's tracer keeps it for the process (its
  // proxy binds the provider on first use), so the two ways run one after the other, not taking turns
  const exporter = new InMemorySpanExporter();
  const provider = new TracerProvider({ spanProcessors: [new SimpleSpanProcessor({ exporter })] });
  context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
  trace.setGlobalTracerProvider(provider);
  const traced: number[] = [];
  let spans = 0;
  for (const q of corpus.queries) {
    t = performance.now();
    await engine.recall(q, { k: 10 });
    traced.push(performance.now() - t);
    spans += exporter.getFinishedSpans().length;
    exporter.reset();
  }
  await provider.shutdown();
  const perSearch = spans / traced.length;
  const p = (xs: number[]) => `p50 ${percentile(xs, 50).toFixed(2)} ms, p95 ${percentile(xs, 95).toFixed(2)} ms`;
  console.log(`${chunks} chunks, ${queries} fused searches each way (no provider first, then the provider)`);
  console.log(`spans a fused search makes: ${perSearch.toFixed(1)}`);
  console.log(`a no-op span (no provider): ${noopNs.toFixed(0)} ns; ${perSearch.toFixed(1)} spans: ${((noopNs * perSearch) / 1e6).toFixed(3)} ms a search, ${(((noopNs * perSearch) / 1e6 / percentile(plain, 95)) * 100).toFixed(2)}% of its p95`);
  console.log(`no provider: ${p(plain)}`);
  console.log(`a provider recording every span: ${p(traced)} (p95 ${(((percentile(traced, 95) - percentile(plain, 95)) / percentile(plain, 95)) * 100).toFixed(1)}%)`);
} finally {
  await engine.close();
  rmSync(dir, { recursive: true, force: true });
}
