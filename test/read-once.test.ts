/**
 * One search reads each chunk and memory once (query/read-once.ts): answers are those of a search that reads the
 * store on every call, and the store is asked for fewer rows. Run on the demo corpus and on a scenario of two
 * people's chats (test/fixtures/scenario-changes-5.jsonl) with its own questions, which set off the read-time steps.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { DEMO_NOW, defaultGloveEmbedder, demoCorpus, demoQueries, openMemory, type SearchResult } from "../src/index.js";
import { resolveEngineConfig } from "../src/api/engine-config.js";
import { openLocatedStore } from "../src/api/open-store.js";
import { recallChannels, runSearch } from "../src/api/search-actions.js";
import { graphChannel } from "../src/channels/graph.js";
import { resolveRecallOptions } from "../src/query/options.js";
import type { Store } from "../src/ports/store.js";
import { tempDir } from "./helpers.js";

/** The ids (chunk ids for hydrate, memory ids otherwise) each read asked the store for. */
type Reads = Record<"hydrate" | "getMemories" | "getMemory" | "sessionNeighbours" | "eventTimes", (string | number)[]>;

function counting(store: Store): { store: Store; reads: Reads; reset: () => void } {
  const reads: Reads = { hydrate: [], getMemories: [], getMemory: [], sessionNeighbours: [], eventTimes: [] };
  const wrapper = Object.create(store) as Store;
  wrapper.hydrate = (ids) => (reads.hydrate.push(...ids), store.hydrate(ids));
  wrapper.getMemories = (ids) => (reads.getMemories.push(...ids), store.getMemories(ids));
  wrapper.getMemory = (id) => (reads.getMemory.push(id), store.getMemory(id));
  wrapper.sessionNeighbours = (ids, window) => (reads.sessionNeighbours.push(...ids), store.sessionNeighbours(ids, window));
  wrapper.eventTimes = (ids) => (reads.eventTimes.push(...ids), store.eventTimes(ids));
  const reset = () => Object.values(reads).forEach((r) => r.splice(0));
  return { store: wrapper, reads, reset };
}

interface Question {
  question: string;
  now?: string;
  user?: string;
}

/** A store at `path` searched as the engine searches it, with the store's reads counted; `through`: no read cache. */
async function searcher(path: string) {
  const raw = await openLocatedStore({ path });
  const embedder = defaultGloveEmbedder();
  const config = resolveEngineConfig({});
  // the channels and the graph walk read the store on their own; only the search's own reads are counted
  const channels = recallChannels({ store: raw, embedder, tokens: embedder }, config);
  const graph = graphChannel(raw, config.graph);
  const counted = counting(raw);
  const run = (q: Question, k: number, through: boolean): Promise<SearchResult> => {
    const resolved = resolveRecallOptions({ k, ...(q.now ? { now: q.now } : {}), ...(q.user ? { filter: { user: q.user } } : {}) }, config.search, Date.parse(DEMO_NOW));
    return runSearch({ store: counted.store, embedder, channels, graph, config, ...(through ? { reads: (s: Store) => s } : {}) }, q.question, resolved);
  };
  return { run, counted, close: () => raw.close() };
}

/** What a search answers, without its timings. */
const answer = (r: SearchResult) => ({ hits: r.hits, context: r.context, steps: r.steps, channels: Object.fromEntries(Object.entries(r.channels).map(([c, rep]) => [c, { ...rep, ms: 0 }])) });

const repeats = (ids: (string | number)[]) => ids.length - new Set(ids).size;

async function scenarioStore(): Promise<{ path: string; questions: Question[] }> {
  const lines = readFileSync(new URL("../../test/fixtures/scenario-changes-5.jsonl", import.meta.url), "utf8").split("\n").filter((l) => l.trim()).map((l) => JSON.parse(l) as Record<string, string>);
  const memories = lines.filter((l) => l.type === "memory");
  const path = join(tempDir(), "scenario.db");
  const engine = await openMemory({ path, now: Date.parse(memories.map((m) => m.at).sort().at(-1)!) + 3_600_000 });
  await engine.rememberMany(memories.map((m) => ({ text: m.text, at: m.at, user: m.user, role: m.role, speaker: m.speaker, session: m.session, metadata: { ref: m.ref } })));
  await engine.close();
  return { path, questions: lines.filter((l) => l.type === "question").map((l) => ({ question: l.question, now: l.now, user: l.user })) };
}

async function demoStore(): Promise<string> {
  const path = join(tempDir(), "demo.db");
  const engine = await openMemory({ path, now: Date.parse(DEMO_NOW) });
  await engine.rememberMany(demoCorpus);
  await engine.close();
  return path;
}

test("a search that reads each chunk once answers exactly as one that reads the store on every call", async () => {
  const scenario = await scenarioStore();
  const sets: [string, Question[], number][] = [
    [await demoStore(), demoQueries.map((q) => ({ question: q.query })), 8],
    [scenario.path, scenario.questions, 10],
  ];
  let compared = 0;
  for (const [path, questions, k] of sets) {
    const s = await searcher(path);
    try {
      for (const q of questions) {
        const through = await s.run(q, k, true);
        const once = await s.run(q, k, false);
        assert.ok(through.hits.length > 0, q.question);
        assert.deepEqual(answer(once), answer(through), q.question);
        compared++;
      }
    } finally {
      await s.close();
    }
  }
  assert.ok(compared >= 30, `${compared} questions compared`);
});

test("a search asks the store for each chunk, memory, event time and session once; reading through asks for some many times", async () => {
  const { path, questions } = await scenarioStore();
  const s = await searcher(path);
  try {
    const totals = { through: { rows: 0, repeats: 0 }, once: { rows: 0, repeats: 0 } };
    for (const q of questions) {
      for (const mode of ["through", "once"] as const) {
        s.counted.reset();
        await s.run(q, 10, mode === "through");
        const r = s.counted.reads;
        const rows = Object.values(r).reduce((n, ids) => n + ids.length, 0);
        // a memory is read once whether through its chunk or by id
        const memoryRepeats = repeats([...r.getMemories, ...r.getMemory]);
        const n = repeats(r.hydrate) + memoryRepeats + repeats(r.sessionNeighbours) + repeats(r.eventTimes);
        totals[mode].rows += rows;
        totals[mode].repeats += n;
        if (mode === "once") {
          assert.equal(repeats(r.hydrate), 0, `${q.question}: a chunk hydrated twice`);
          assert.equal(memoryRepeats, 0, `${q.question}: a memory read twice`);
          assert.equal(repeats(r.eventTimes), 0, `${q.question}: an event time read twice`);
          // the neighbour step reads two turns either side first: the echo and coverage steps' one turn is in it
          assert.equal(repeats(r.sessionNeighbours), 0, `${q.question}: a session read twice`);
        }
      }
    }
    // the figures behind docs/benchmark-notes.md ("Reads per search")
    console.log(`rows read over ${questions.length} searches: through ${totals.through.rows} (${totals.through.repeats} repeated), once ${totals.once.rows} (${totals.once.repeats} repeated)`);
    assert.ok(totals.through.repeats > 0, "reading through repeats reads (else this test shows nothing)");
    assert.ok(totals.once.rows < totals.through.rows);
  } finally {
    await s.close();
  }
});
