/**
 * What entity extraction costs at ingest: microseconds per memory on real chat turns (LoCoMo) and on the
 * synthetic bench corpus, and the ingest rate of N synthetic memories and of N chat turns with extraction on and
 * off (alternated, twice each, so that a slow spell of a shared machine falls on both).
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

const turnsInput = loadLocomo(path).flatMap((c) => c.turns.map((t) => t.input));
const turns = turnsInput.map((t) => ({ text: t.text, speaker: t.speaker ?? undefined }));
const corpus = syntheticCorpus({ memories: N, queries: 1, seed: 42, vocabulary: [...embedder.vocabulary()] });
const report: Record<string, unknown> = {
  locomo_turns: turns.length,
  extract_us_per_locomo_turn: perMemory(turns),
  extract_us_per_synthetic_memory: perMemory(corpus.memories.slice(0, 20_000)),
};
// Chat-like memories for the ingest rate: LoCoMo's turns over and over, each pass in new sessions and 400 days
// later, so that nothing is a duplicate and the speakers' names are there as in real chat.
const chat = Array.from({ length: N }, (_, i) => {
  const t = turnsInput[i % turnsInput.length];
  const pass = Math.floor(i / turnsInput.length);
  return { ...t, session: t.session ? `${t.session}-${pass}` : null, at: new Date(Date.parse(t.at!) /* every LoCoMo turn is dated */ + pass * 400 * 86_400_000).toISOString() };
});

// Wall-clock rate, and the rate by this process's CPU time (all its threads): on a machine shared with other
// jobs the second stays near what an idle machine would give, the first does not.
for (const [name, memories] of [["synthetic", corpus.memories], ["chat", chat]] as const) {
  for (const [run, enabled] of [[1, false], [1, true], [2, false], [2, true]] as const) {
    const store = new SqliteStore(":memory:");
    const engine = await Engine.create({ store, embedder, tokens: embedder }, { entities: { enabled } });
    const cpu = process.cpuUsage();
    const t0 = performance.now();
    for (let i = 0; i < N; i += 2000) await engine.rememberMany(memories.slice(i, i + 2000), { batchSize: 2000, detect: false });
    const used = process.cpuUsage(cpu);
    const key = `${name}_ingest_per_s_${enabled ? "on" : "off"}_${run}`;
    report[key] = Math.round(N / ((performance.now() - t0) / 1000));
    report[`${key}_by_cpu`] = Math.round(N / ((used.user + used.system) / 1e6));
    if (enabled && run === 2) report[`${name}_entities`] = (await store.entities.list({ top: 1_000_000 })).length;
    await store.close();
  }
}
console.log(JSON.stringify(report, null, 2));
