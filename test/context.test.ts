import assert from "node:assert/strict";
import { test } from "node:test";
import { Engine, SqliteStore, defaultGloveEmbedder } from "../src/index.js";

async function engine(conversationContext?: boolean) {
  const e = defaultGloveEmbedder();
  const store = new SqliteStore(":memory:");
  return { store, engine: await Engine.create({ store, embedder: e, tokens: e }, { detection: { enabled: false }, conversationContext }) };
}

const turns = [
  { text: "Where did you go for the kayaking trip?", speaker: "Mel", session: "s1", at: "2026-05-02T10:00:00Z" },
  { text: "Up north, to the lake by my aunt's cabin. It was lovely.", speaker: "Cai", session: "s1", at: "2026-05-02T10:00:05Z" },
  { text: "Unrelated: the printer needs toner.", speaker: "Mel", session: "s2", at: "2026-05-02T11:00:00Z" },
];

test("a turn is indexed with the turn before it in its session, and shown without it", async () => {
  const { engine: e } = await engine();
  const r = await e.rememberMany(turns);
  const answer = r.ids[1]!;
  const hits = (await e.recall("kayaking", { channels: ["bm25"] })).hits;
  assert.deepEqual(hits.map((h) => h.id).sort(), [r.ids[0], answer].sort(), "the reply is found by its question's word");
  const reply = hits.find((h) => h.id === answer)!;
  assert.equal(reply.text, turns[1].text);
  assert.equal(reply.chunk.text, turns[1].text);
  // the printer note is in another session: no context crosses sessions
  assert.equal((await e.recall("lake cabin", { channels: ["bm25"] })).hits.some((h) => h.id === r.ids[2]), false);
  await e.close();
});

test("context comes from the store when the turn before was added earlier, and can be switched off", async () => {
  const { engine: e } = await engine();
  await e.remember(turns[0]);
  const reply = await e.remember(turns[1]);
  assert.ok((await e.recall("kayaking", { channels: ["bm25"] })).hits.some((h) => h.id === reply.id));
  await e.close();
  const { engine: off } = await engine(false);
  const r = await off.rememberMany(turns);
  assert.deepEqual((await off.recall("kayaking", { channels: ["bm25"] })).hits.map((h) => h.id), [r.ids[0]]);
  await off.close();
});

test("forgetting a turn takes its words out of the next turn's index", async () => {
  const { engine: e, store } = await engine();
  const r = await e.rememberMany(turns);
  const before = await store.termStats(["kayaking"]);
  assert.equal(before.df.get("kayaking"), 2);
  await e.forget(r.ids[0]!);
  assert.deepEqual((await e.recall("kayaking", { channels: ["bm25", "colbert"] })).hits, []);
  assert.equal((await store.termStats(["kayaking"])).df.get("kayaking"), 0);
  assert.ok((await e.recall("lake cabin", { channels: ["bm25"] })).hits.some((h) => h.id === r.ids[1]), "its own words stay");
  await e.close();
});

test("expiry's liveAt does not count as a filter when summaries are left out (it would send every search down the slower filtered path)", async () => {
  const { leaveOutSummaries } = await import("../src/query/context.js");
  assert.equal(leaveOutSummaries({ liveAt: 1 }, 50).drop, true);
  assert.equal(leaveOutSummaries({ liveAt: 1, under: "ops" }, 50).drop, false);
});
