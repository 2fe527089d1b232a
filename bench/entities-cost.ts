/**
 * What entity extraction costs at ingest: microseconds per memory on real chat turns (LoCoMo) and on the
 * synthetic bench corpus, and the ingest rate at N synthetic memories with extraction on and off (alternated,
 * twice each, so that a slow spell of a shared machine falls on both).
 *
 *   npm run build && node dist/bench/entities-cost.js /work/shared/data/locomo 100000
 */
import { Engine, SqliteStore, defaultGloveEmbedder, extractEntities, loadLocomo } from "../src/index.js";
import { syntheticCorpus } from "../src/bench/corpus.js";

const [path = "/work/shared/data/locomo", n = "100000"] = process.argv.slice(2);
const N = Number(n);
const embedder = defaultGloveEmbedder();

function perMemory(items: { text: string; speaker?: string }[]): number {
  for (const m of items) extractEntities(m.text, m.speaker ?? null); // warm: wink's lexicon look-ups are cached
  const t0 = performance.now();
  for (const m of items) extractEntities(m.text, m.speaker ?? null);
  return Math.round(((performance.now() - t0) * 1000) / items.length);
}

const turns = loadLocomo(path).flatMap((c) => c.turns.map((t) => ({ text: t.input.text, speaker: t.input.speaker })));
const corpus = syntheticCorpus({ memories: N, queries: 1, seed: 42, vocabulary: [...embedder.vocabulary()] });
const report: Record<string, unknown> = {
  locomo_turns: turns.length,
  extract_us_per_locomo_turn: perMemory(turns),
  extract_us_per_synthetic_memory: perMemory(corpus.memories.slice(0, 20_000)),
};
for (const [run, enabled] of [[1, false], [1, true], [2, false], [2, true]] as const) {
  const store = new SqliteStore(":memory:");
  const engine = await Engine.create({ store, embedder, tokens: embedder }, { entities: { enabled } });
  const t0 = performance.now();
  for (let i = 0; i < N; i += 2000) await engine.rememberMany(corpus.memories.slice(i, i + 2000), { batchSize: 2000, detect: false });
  report[`ingest_per_s_${enabled ? "on" : "off"}_${run}`] = Math.round(N / ((performance.now() - t0) / 1000));
  if (enabled && run === 2) report.entities = (await store.entities.list({ top: 1_000_000 })).length;
  await store.close();
}
console.log(JSON.stringify(report, null, 2));
