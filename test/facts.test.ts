/**
 * Fact extraction (rememberMessages / POST /v1/messages) against a loopback chat server with scripted answers:
 * messages become turns, facts become memories derived from them and revision-checked, a bad answer is a
 * PROVIDER_ERROR warning on the stored messages, and without an extractor nothing is called.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { test } from "node:test";
import { MemorySpace, openMemory } from "../src/index.js";
import { startHttpServer } from "../src/surfaces/http/serve.js";
import { answer, chatServer } from "./chat-server.js";
import { tempDir } from "./helpers.js";

const chat = chatServer();
const messages = [
  { text: "I'm allergic to peanuts, so no satay for me.", speaker: "Maria", session: "s1", at: "2026-05-01T12:00:00Z", user: "maria" },
  { text: "Noted! Shall I book the Thai place on Friday?", speaker: "assistant", session: "s1", at: "2026-05-01T12:01:00Z", user: "maria" },
  { text: "Yes, Friday at 7 works.", speaker: "Maria", session: "s1", at: "2026-05-01T12:02:00Z", user: "maria" },
];

test("messages become turns; facts become memories of kind fact, derived from their messages, and searchable", async () => {
  chat.reply = () =>
    answer(JSON.stringify({ facts: [{ text: "Maria is allergic to peanuts.", sources: [0] }, { text: "Maria has dinner booked at the Thai place on Friday at 7.", sources: [1, 2] }] }));
  const engine = await openMemory({ path: join(tempDir(), "f.db"), facts: { chat: { baseURL: chat.baseURL, model: "tiny-chat" } } });
  const r = await engine.rememberMessages(messages);
  assert.equal(r.imported, 3);
  assert.deepEqual(r.facts.map((f) => f.text), ["Maria is allergic to peanuts.", "Maria has dinner booked at the Thai place on Friday at 7."]);
  assert.deepEqual(r.facts[1].derived_from, [r.ids[1], r.ids[2]]);
  const fact = await engine.show(r.facts[0].id);
  assert.equal(fact.kind, "fact");
  assert.equal(fact.user, "maria");
  assert.equal(fact.at, "2026-05-01T12:00:00Z");
  assert.deepEqual(fact.metadata, { extracted_by: "chat-facts:tiny-chat" });
  const g = await engine.graph(r.facts[1].id, { depth: 1 });
  assert.equal(g.edges.filter((e) => e.type === "derived_from").length, 2);
  const found = await engine.recall("what is Maria allergic to", { k: 3, filter: { user: "maria" } });
  assert.equal(found.hits[0].id, r.facts[0].id);
  const asked = chat.seen.at(-1).body.messages[1].content as string;
  assert.match(asked, /^\[0\] Maria: I'm allergic to peanuts/);
  await engine.close();
});

test("a malformed answer is a PROVIDER_ERROR warning on the stored messages, not an error; without an extractor no model is called", async () => {
  chat.reply = () => answer(JSON.stringify({ facts: [{ text: "x", sources: [7] }] }));
  const path = join(tempDir(), "g.db");
  const engine = await openMemory({ path, facts: { chat: { baseURL: chat.baseURL, model: "tiny-chat" } } });
  // before, the call failed with the PROVIDER_ERROR although its messages were committed (a retry stored them twice)
  const stored = await engine.rememberMessages(messages);
  assert.equal(stored.imported, 3);
  assert.deepEqual(stored.facts, []);
  assert.deepEqual(stored.warnings.map((w) => [w.index, w.step]), [[0, "facts"], [1, "facts"], [2, "facts"]]);
  assert.match(stored.warnings[0].reason, /^PROVIDER_ERROR: .*names message 7/);
  assert.equal((await engine.stats()).memories, 3);
  await engine.close();
  const calls = chat.seen.length;
  const plain = await openMemory({ path: join(tempDir(), "h.db") });
  const r = await plain.rememberMessages(messages);
  assert.deepEqual([r.imported, r.facts], [3, []]);
  await assert.rejects(plain.rememberMessages(messages, { extract: true }), /extract: no fact extractor is configured/);
  assert.equal(chat.seen.length, calls);
  await plain.close();
});

test("facts are read from one scope's messages at a time: a call holding two users' messages asks twice", async () => {
  chat.reply = () => answer(JSON.stringify({ facts: [{ text: "They like the window seat.", sources: [0] }] }));
  const engine = await openMemory({ path: join(tempDir(), "scoped.db"), facts: { chat: { baseURL: chat.baseURL, model: "tiny-chat" } } });
  const calls = chat.seen.length;
  const r = await engine.rememberMessages([
    { text: "I always take the window seat.", speaker: "Maria", session: "s1", at: "2026-05-01T12:00:00Z", user: "maria" },
    { text: "Aisle for me, never the window seat.", speaker: "Tom", session: "s1", at: "2026-05-01T12:01:00Z", user: "tom" },
    { text: "Window seat again, please.", speaker: "Maria", session: "s1", at: "2026-05-01T12:02:00Z", user: "maria" },
  ]);
  const asked = chat.seen.slice(calls).map((c) => c.body.messages[1].content as string);
  assert.equal(asked.length, 2);
  assert.match(asked[0], /^\[0\] Maria: I always take the window seat\.\n\[1\] Maria: Window seat again/);
  assert.doesNotMatch(asked[0], /Tom/);
  assert.match(asked[1], /^\[0\] Tom: Aisle for me/);
  assert.deepEqual(r.facts.map((f) => f.derived_from), [[r.ids[0]], [r.ids[1]]]);
  assert.deepEqual(await Promise.all(r.facts.map(async (f) => (await engine.show(f.id)).user)), ["maria", "tom"]);
  await engine.close();
});

test("POST /v1/messages through a server configured with a fact extractor", async () => {
  chat.reply = () => answer(JSON.stringify({ facts: [{ text: "Maria is allergic to peanuts.", sources: [0] }] }));
  const server = await startHttpServer(new MemorySpace(join(tempDir(), "s.db"), { facts: { chat: { baseURL: chat.baseURL, model: "tiny-chat" } } }), { host: "127.0.0.1", port: 0 });
  try {
    const res = await fetch(`${server.url}/v1/messages`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ messages }) });
    assert.equal(res.status, 201);
    const body = (await res.json()) as any;
    assert.equal(body.facts.length, 1);
    assert.deepEqual(body.facts[0].derived_from, [body.ids[0]]);
  } finally {
    await server.close();
  }
});
