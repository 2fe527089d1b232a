/**
 * A bulk write drafts (chunks, embeds, extracts entities from) each batch while the batch before it is written,
 * and what it stores is what writing one batch per call stores: the turn before a memory in its session, the
 * entities kept, and deduplication are all decided once the batch before has committed.
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import { defaultGloveEmbedder, Engine } from "../src/index.js";
import { SqliteStore } from "../src/backends/sqlite/store.js";
import type { Embedder } from "../src/ports/embedder.js";

const NOW = Date.parse("2026-03-01T12:00:00Z");
const clock = { now: () => NOW };

/** A store whose writes take a while, as a server's do; it notes when each write starts and ends. */
class SlowStore extends SqliteStore {
  constructor(readonly events: string[]) {
    super(":memory:");
  }
  override async writeMemories(...args: Parameters<SqliteStore["writeMemories"]>) {
    const texts = args[0].map((p) => p.memory.text).join(",");
    this.events.push(`write ${texts}`);
    await new Promise((resolve) => setTimeout(resolve, 40));
    try {
      return await super.writeMemories(...args);
    } finally {
      this.events.push(`written ${texts}`);
    }
  }
}

/** The offline embedder, noting each call's texts. */
function noting(events: string[]): Embedder {
  const inner = defaultGloveEmbedder();
  return {
    id: inner.id,
    dimensions: inner.dimensions,
    async embed(texts: string[]) {
      events.push(`embed ${texts.join(",")}`);
      return inner.embed(texts);
    },
  };
}

async function engineOver(events: string[], store = new SlowStore(events)) {
  const embedder = noting(events);
  return Engine.create({ store, embedder, tokens: defaultGloveEmbedder(), clock }, { pyramid: { enabled: false } });
}

test("the next batch is embedded while the one before it is written", async () => {
  const events: string[] = [];
  const engine = await engineOver(events);
  try {
    const r = await engine.rememberMany(["a1", "a2", "b1", "b2", "c1"].map((t) => ({ text: `note ${t}` })), { batchSize: 2, detect: false });
    assert.equal(r.imported, 5);
    const at = (e: string) => events.indexOf(e);
    assert.ok(at("embed note b1,note b2") >= 0 && at("embed note c1") >= 0, events.join("\n"));
    assert.ok(at("embed note b1,note b2") < at("written note a1,note a2"), `batch 2 drafted before batch 1 committed:\n${events.join("\n")}`);
    assert.ok(at("embed note c1") < at("written note b1,note b2"), events.join("\n"));
    // and never written out of order
    assert.ok(at("written note a1,note a2") < at("write note b1,note b2") && at("written note b1,note b2") < at("write note c1"));
  } finally {
    await engine.close();
  }
});

/** Turns of two sessions that cross batch boundaries, a name first said for sure in one batch and then only tentatively. */
const turns = [
  { text: "Marisol moved to Lisbon last spring.", speaker: "Ana", session: "s1", at: "2026-02-01T10:00:00Z" },
  { text: "Yes, the flat near the river!", speaker: "Ben", session: "s1", at: "2026-02-01T10:01:00Z" },
  { text: "Which one was it again?", speaker: "Ana", session: "s2", at: "2026-02-01T10:02:00Z" },
  { text: "Marisol says the rent went up.", speaker: "Ben", session: "s1", at: "2026-02-01T10:03:00Z" },
  { text: "The one with the blue door.", speaker: "Ben", session: "s2", at: "2026-02-01T10:04:00Z" },
  { text: "She pays twice what we pay.", speaker: "Ana", session: "s1", at: "2026-02-01T10:05:00Z" },
  { text: "Lisbon rents keep climbing.", speaker: "Ben", session: "s2", at: "2026-02-01T10:06:00Z" },
];

async function stored(engine: Engine) {
  const listed = await engine.list({ limit: 50 });
  const hits = await engine.recall("Marisol rent river door", { k: 10 });
  const entities = await engine.entities({ top: 50 });
  return {
    memories: listed.memories.map((m) => `${m.at} ${m.text}`).sort(),
    hits: hits.hits.map((h) => `${h.text} ${h.score.toFixed(6)}`),
    entities: entities.entities.map((e) => `${e.name}:${e.memories}`).sort(),
  };
}

test("a bulk write stores what one batch per call stores: contexts across batches, entities, scores", async () => {
  const bulk = await engineOver([]);
  const oneByOne = await engineOver([]);
  try {
    await bulk.rememberMany(turns, { batchSize: 2, detect: false });
    for (let i = 0; i < turns.length; i += 2) await oneByOne.rememberMany(turns.slice(i, i + 2), { batchSize: 2, detect: false });
    const [a, b] = [await stored(bulk), await stored(oneByOne)];
    assert.equal(a.memories.length, turns.length);
    assert.ok(a.hits.length > 3 && a.entities.some((e) => e.startsWith("Marisol:")), JSON.stringify(a));
    assert.deepEqual(a, b);
  } finally {
    await bulk.close();
    await oneByOne.close();
  }
});

test("a deduplicating write embeds only the lines the store does not hold", async () => {
  const events: string[] = [];
  const engine = await engineOver(events);
  try {
    const lines = ["one", "two", "three", "four"].map((t) => ({ text: `line ${t}`, metadata: { ref: t } }));
    await engine.rememberMany(lines, { batchSize: 2, detect: false, dedupe: true });
    events.length = 0;
    const again = await engine.rememberMany([...lines, { text: "line five", metadata: { ref: "five" } }], { batchSize: 2, detect: false, dedupe: true });
    assert.deepEqual([again.imported, again.skipped], [1, 4]);
    assert.deepEqual(events.filter((e) => e.startsWith("embed")), ["embed line five"]);
  } finally {
    await engine.close();
  }
});

test("a line whose twin failed in the batch before is still written", async () => {
  const engine = await engineOver([]);
  try {
    // the first carries a supersedes that names nothing, so it fails; the batch after holds the same ref, valid
    const r = await engine.rememberMany(
      [{ text: "plan A", metadata: { ref: "plan" }, supersedes: "m_nothing" }, { text: "other" }, { text: "plan B", metadata: { ref: "plan" } }],
      { batchSize: 2, detect: false, dedupe: true },
    );
    assert.deepEqual(r.failed.map((f) => f.index), [0]);
    assert.equal(r.imported, 2);
    assert.ok(r.ids[2], "the twin is written");
    assert.equal((await engine.show(r.ids[2]!)).text, "plan B");
  } finally {
    await engine.close();
  }
});
