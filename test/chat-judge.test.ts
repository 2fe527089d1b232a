import assert from "node:assert/strict";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { after, before, test } from "node:test";
import { CascadeError, ChatJudge, Engine, SqliteStore, defaultGloveEmbedder } from "../src/index.js";

let reply: (body: any) => { status: number; body: string } = () => ({ status: 500, body: "" });
const seen: any[] = [];
const server = createServer((req, res) => {
  let raw = "";
  req.on("data", (c) => (raw += c));
  req.on("end", () => {
    const body = JSON.parse(raw);
    seen.push({ url: req.url, body });
    const r = reply(body);
    res.writeHead(r.status, { "content-type": "application/json" });
    res.end(r.body);
  });
});
let baseURL = "";
before(async () => {
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  baseURL = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
});
after(() => new Promise<void>((r) => server.close(() => r())));

const answer = (content: string) => ({ status: 200, body: JSON.stringify({ choices: [{ message: { role: "assistant", content } }] }) });

test("the chat judge asks the model and reads its JSON verdict", async () => {
  reply = () => answer('{"supersedes": true, "confidence": 0.93, "reason": "the pool size was reverted"}');
  const judge = new ChatJudge({ baseURL, model: "judge-model", retries: 0 });
  const v = await judge.judge({ text: "raise the pool to 50", at: "2026-02-01" }, { text: "pool back to 20", at: "2026-06-01" });
  assert.deepEqual(v, { confidence: 0.93, reason: "the pool size was reverted" });
  assert.equal(seen.at(-1).url, "/v1/chat/completions");
  assert.equal(seen.at(-1).body.model, "judge-model");
  assert.match(seen.at(-1).body.messages[1].content, /OLDER \(2026-02-01\): raise the pool to 50/);
  reply = () => answer('```json\n{"supersedes": false, "confidence": 0.8, "reason": "an addition"}\n```');
  assert.equal((await judge.judge({ text: "a", at: "x" }, { text: "b", at: "y" })).confidence, 0);
});

test("a chat judge's edges carry provenance llm", async () => {
  reply = (body) =>
    answer(/pool/.test(body.messages[1].content) ? '{"supersedes": true, "confidence": 0.9, "reason": "reverted"}' : '{"supersedes": false, "confidence": 0.9, "reason": "no"}');
  const e = defaultGloveEmbedder();
  const engine = await Engine.create({ store: new SqliteStore(":memory:"), embedder: e, tokens: e }, { judge: new ChatJudge({ baseURL, model: "m", retries: 0 }) });
  const a = await engine.remember({ text: "The connection pool size is 50.", at: "2026-02-01" });
  const b = await engine.remember({ text: "The connection pool size goes back to 20.", at: "2026-06-01" });
  const h = await engine.history(b.id);
  assert.deepEqual(h.chain.map((c) => c.id), [a.id, b.id]);
  assert.equal(h.edges[0].provenance, "llm");
  assert.equal(h.edges[0].reason, "reverted");
  await engine.close();
});

test("answers that are not the expected JSON are provider errors", async () => {
  const judge = new ChatJudge({ baseURL, model: "m", retries: 0 });
  const fails = (re: RegExp) => assert.rejects(judge.judge({ text: "a", at: "x" }, { text: "b", at: "y" }), (e: unknown) => e instanceof CascadeError && e.code === "PROVIDER_ERROR" && re.test(e.message));
  reply = () => answer("I think so, yes.");
  await fails(/not JSON/);
  reply = () => answer('{"supersedes": "maybe"}');
  await fails(/lacks supersedes/);
  reply = () => ({ status: 200, body: JSON.stringify({ choices: [] }) });
  await fails(/no choices/);
  reply = () => ({ status: 400, body: '{"error": "bad model"}' });
  await fails(/HTTP 400.*bad model/);
});
