import assert from "node:assert/strict";
import { test } from "node:test";
import { answer, chatServer } from "./chat-server.js";
import { CascadeError, ChatSummarizer, Engine, SqliteStore, defaultGloveEmbedder } from "../src/index.js";

const chat = chatServer();

async function engineWith(summarizer: ChatSummarizer) {
  const e = defaultGloveEmbedder();
  const store = new SqliteStore(":memory:");
  const engine = await Engine.create({ store, embedder: e, tokens: e }, { detection: { enabled: false }, summarizer, pyramid: { enabled: false } });
  const a = await engine.remember({ text: "We deploy on Kubernetes.", speaker: "Ana", at: "2026-05-11T09:00:00Z" });
  const b = await engine.remember({ text: "Actually we moved the deployment to Nomad.", speaker: "Ben", at: "2026-05-12T09:00:00Z" });
  return { engine, store, ids: [a.id, b.id] };
}

test("the chat summariser sends each window's sentences and stores the model's paragraph with every source", async () => {
  chat.reply = (body) => answer(`  Summary of ${body.messages[1].content.split("\n")[0].replace("Period: ", "").replace(/\. At most.*/, "")}: the team moved from Kubernetes to Nomad.  `);
  const { engine, ids } = await engineWith(new ChatSummarizer({ baseURL: chat.baseURL, model: "summary-model", apiKey: "k-123", retries: 0 }));
  const r = await engine.buildPyramid();
  assert.deepEqual(r.recomputed, { day: 2, week: 1, month: 1 });
  const first = chat.seen.find((s) => /Monday 11 May 2026/.test(s.body.messages[1].content));
  assert.equal(first.url, "/v1/chat/completions");
  assert.equal(first.body.model, "summary-model");
  assert.equal(first.auth, "Bearer k-123");
  assert.match(first.body.messages[1].content, /\[2026-05-11T09:00:00Z\] Ana: We deploy on Kubernetes\./);
  const week = await engine.show("p_week_2026-W20");
  assert.equal(week.text, "Summary of Week 2026-W20 (11 May – 17 May 2026): the team moved from Kubernetes to Nomad.");
  assert.deepEqual((week.metadata.sentences as any[])[0].sources.sort(), [...ids].sort());
  assert.equal(week.metadata.summarizer, "chat-summarizer:summary-model");
  await engine.close();
});

test("with the pyramid on, a failing model never fails the write: its windows wait for the next refresh", async () => {
  const e = defaultGloveEmbedder();
  const store = new SqliteStore(":memory:");
  const engine = await Engine.create({ store, embedder: e, tokens: e }, { detection: { enabled: false }, summarizer: new ChatSummarizer({ baseURL: chat.baseURL, model: "m", retries: 0 }) });
  chat.reply = () => ({ status: 500, body: "down" });
  const r = await engine.remember({ text: "We deploy on Kubernetes.", at: "2026-05-11T09:00:00Z" });
  assert.equal((await engine.show(r.id)).text, "We deploy on Kubernetes.");
  assert.equal((await engine.pyramid()).dirty, 3, "the refresh failed; its windows wait");
  assert.equal((await store.dirtyWindows()).length, 3);
  chat.reply = () => answer("The team deploys on Kubernetes.");
  await engine.remember({ text: "Release train every Tuesday.", at: "2026-05-12T09:00:00Z" });
  assert.equal((await engine.pyramid()).dirty, 0, "the next write's refresh caught up");
  await engine.close();
});

test("a failing model fails the build and leaves the windows dirty, so nothing is lost", async () => {
  const { engine, store } = await engineWith(new ChatSummarizer({ baseURL: chat.baseURL, model: "m", retries: 0 }));
  chat.reply = () => ({ status: 200, body: JSON.stringify({ nope: true }) });
  await assert.rejects(engine.buildPyramid(), (e: unknown) => e instanceof CascadeError && e.code === "PROVIDER_ERROR" && /choices/.test(e.message));
  assert.equal((await store.dirtyWindows()).length, 4);
  chat.reply = () => answer("   ");
  await assert.rejects(engine.buildPyramid(), /empty summary/);
  chat.reply = () => answer("x".repeat(5000));
  await engine.buildPyramid();
  const day = await engine.show("p_day_2026-05-11");
  assert.ok(day.text.length <= 900, `bounded: ${day.text.length}`);
  assert.equal((await store.dirtyWindows()).length, 0);
  await engine.close();
});
