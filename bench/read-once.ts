/**
 * What reading each chunk and memory once per search (query/read-once.ts) saves: the questions of a scenario file
 * (default test/fixtures/scenario-changes-5.jsonl, two people's chats, whose questions set off the read-time steps)
 * searched `--rounds` times, each question read through (every step reads the store itself) and read once in turn,
 * so that load on the machine falls on both alike. Prints rows read and latency percentiles of each.
 *
 *   npm run build && node dist/bench/read-once.js [FILE] [--rounds 5]
 */
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { defaultGloveEmbedder, openMemory } from "../src/index.js";
import { resolveEngineConfig } from "../src/api/engine-config.js";
import { openLocatedStore } from "../src/api/open-store.js";
import { recallChannels, runSearch } from "../src/api/search-actions.js";
import { graphChannel } from "../src/channels/graph.js";
import { resolveRecallOptions } from "../src/query/options.js";
import type { Store } from "../src/ports/store.js";
import { numberFlag } from "./args.js";

const rounds = numberFlag("--rounds", 5);
const file = process.argv.slice(2).find((a) => !a.startsWith("--") && !/^\d+$/.test(a)) ?? new URL("../../test/fixtures/scenario-changes-5.jsonl", import.meta.url).pathname;
const lines = readFileSync(file, "utf8").split("\n").filter((l) => l.trim()).map((l) => JSON.parse(l) as Record<string, string>);
const memories = lines.filter((l) => l.type === "memory");
const questions = lines.filter((l) => l.type === "question");
const dir = mkdtempSync(join(tmpdir(), "cascade-read-once-"));
try {
  const path = join(dir, "m.db");
  const now = Date.parse(memories.map((m) => m.at).sort().at(-1)!) + 3_600_000;
  const writer = await openMemory({ path, now });
  await writer.rememberMany(memories.map((m) => ({ text: m.text, at: m.at, user: m.user, role: m.role, speaker: m.speaker, session: m.session })));
  await writer.close();

  const store = await openLocatedStore({ path });
  let rows = 0;
  // the reads the steps repeat, counted as rows asked for
  const counted = Object.create(store) as Store;
  counted.hydrate = (ids) => ((rows += ids.length), store.hydrate(ids));
  counted.getMemories = (ids) => ((rows += ids.length), store.getMemories(ids));
  counted.sessionNeighbours = (ids, w) => ((rows += ids.length), store.sessionNeighbours(ids, w));
  counted.eventTimes = (ids) => ((rows += ids.length), store.eventTimes(ids));
  const embedder = defaultGloveEmbedder();
  const config = resolveEngineConfig({});
  const channels = recallChannels({ store, embedder, tokens: embedder }, config);
  const graph = graphChannel(store, config.graph);
  const modes = { through: (s: Store) => s, once: undefined } as const;
  const ms: Record<keyof typeof modes, number[]> = { through: [], once: [] };
  const read: Record<keyof typeof modes, number> = { through: 0, once: 0 };
  for (let round = 0; round <= rounds; round++) {
    for (const q of questions) {
      const resolved = resolveRecallOptions({ k: 10, now: q.now, filter: { user: q.user } }, config.search, now);
      for (const mode of (round % 2 ? ["once", "through"] : ["through", "once"]) as (keyof typeof modes)[]) {
        rows = 0;
        const t0 = performance.now();
        await runSearch({ store: counted, embedder, channels, graph, config, ...(modes[mode] ? { reads: modes[mode] } : {}) }, q.question, resolved);
        // round 0 warms the caches of the process and the store and is not counted
        if (round === 0) continue;
        ms[mode].push(performance.now() - t0);
        read[mode] += rows;
      }
    }
  }
  await store.close();
  const pct = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((p / 100) * xs.length))].toFixed(2);
  const searches = questions.length * rounds;
  console.log(`${memories.length} memories, ${questions.length} questions × ${rounds} rounds`);
  console.log("| reads | rows read per search | p50 ms | p95 ms |\n|---|---:|---:|---:|");
  for (const mode of ["through", "once"] as const) console.log(`| ${mode} | ${(read[mode] / searches).toFixed(1)} | ${pct(ms[mode], 50)} | ${pct(ms[mode], 95)} |`);
} finally {
  rmSync(dir, { recursive: true, force: true });
}
