import assert from "node:assert/strict";
import { test } from "node:test";
import { answer, chatServer } from "./chat-server.js";
import { CascadeError, ChatJudge, Engine, SqliteStore, defaultGloveEmbedder } from "../src/index.js";

const chat = chatServer();

test("the chat judge asks the model and reads its JSON verdict", async () => {
  chat.reply = () => answer('{"supersedes": true, "confidence": 0.93, "reason": "the pool size was reverted"}');
  const judge = new ChatJudge({ baseURL: chat.baseURL, model: "judge-model", retries: 0 });
  const v = await judge.judge({ text: "raise the pool to 50", at: "2026-02-01" }, { text: "pool back to 20", at: "2026-06-01" });
  assert.deepEqual(v, { confidence: 0.93, reason: "the pool size was reverted" });
  assert.equal(chat.seen.at(-1).url, "/v1/chat/completions");
  assert.equal(chat.seen.at(-1).body.model, "judge-model");
  assert.match(chat.seen.at(-1).body.messages[1].content, /OLDER \(2026-02-01\): raise the pool to 50/);
  chat.reply = () => answer('```json\n{"supersedes": false, "confidence": 0.8, "reason": "an addition"}\n```');
  assert.equal((await judge.judge({ text: "a", at: "x" }, { text: "b", at: "y" })).confidence, 0);
});

test("a chat judge's edges carry provenance llm", async () => {
  chat.reply = (body) =>
    answer(/pool/.test(body.messages[1].content) ? '{"supersedes": true, "confidence": 0.9, "reason": "reverted"}' : '{"supersedes": false, "confidence": 0.9, "reason": "no"}');
  const e = defaultGloveEmbedder();
  const engine = await Engine.create({ store: new SqliteStore(":memory:"), embedder: e, tokens: e }, { judge: new ChatJudge({ baseURL: chat.baseURL, model: "m", retries: 0 }) });
  const a = await engine.remember({ text: "The connection pool size is 50.", at: "2026-02-01" });
  const b = await engine.remember({ text: "The connection pool size goes back to 20.", at: "2026-06-01" });
  const h = await engine.history(b.id);
  assert.deepEqual(h.chain.map((c) => c.id), [a.id, b.id]);
  assert.equal(h.edges[0].provenance, "llm");
  assert.equal(h.edges[0].reason, "reverted");
  await engine.close();
});

test("answers that are not the expected JSON are provider errors", async () => {
  const judge = new ChatJudge({ baseURL: chat.baseURL, model: "m", retries: 0 });
  const fails = (re: RegExp) => assert.rejects(judge.judge({ text: "a", at: "x" }, { text: "b", at: "y" }), (e: unknown) => e instanceof CascadeError && e.code === "PROVIDER_ERROR" && re.test(e.message));
  chat.reply = () => answer("I think so, yes.");
  await fails(/not JSON/);
  chat.reply = () => answer('{"supersedes": "maybe"}');
  await fails(/lacks supersedes/);
  chat.reply = () => ({ status: 200, body: JSON.stringify({ choices: [] }) });
  await fails(/no choices/);
  chat.reply = () => ({ status: 400, body: '{"error": "bad model"}' });
  await fails(/HTTP 400.*bad model/);
});
