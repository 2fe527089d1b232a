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
  await fails(/lacks relation\/confidence\/reason/);
  chat.reply = () => ({ status: 200, body: JSON.stringify({ choices: [] }) });
  await fails(/no choices/);
  chat.reply = () => ({ status: 400, body: '{"error": "bad model"}' });
  await fails(/HTTP 400.*bad model/);
});

test("the chat judge reads statements: the changed one is named, a refinement is 'refines', a confirmation is no change", async () => {
  const judge = new ChatJudge({ baseURL: chat.baseURL, model: "m", retries: 0 });
  const intro = { text: "I'm Maya. I live at 14 Alder Street in Leeds. My manager is Priya Shah. I cycle to the office most days.", at: "2026-10-01" };
  const newer = { text: "first 1:1 with Daniel Osei, he's taken over our team since Priya left", at: "2026-10-15" };
  chat.reply = () => answer('{"relation": "supersedes", "confidence": 0.9, "reason": "a new manager", "statement": "My manager is Priya Shah"}');
  assert.deepEqual(await judge.judge(intro, newer), { confidence: 0.9, reason: "a new manager", type: "supersedes", statement: "My manager is Priya Shah." });
  assert.match(chat.seen.at(-1).body.messages[0].content, /"relation": "supersedes" \| "refines" \| "confirms" \| "unrelated"/);
  // a quote the older memory does not hold names no statement: a suggestion at most, never an edge on all of it
  chat.reply = () => answer('{"relation": "supersedes", "confidence": 0.95, "reason": "moved", "statement": "Maya lives in Leeds city centre"}');
  const unplaced = await judge.judge(intro, newer);
  assert.equal(unplaced.confidence, 0.6);
  assert.equal(unplaced.statement, undefined);
  assert.match(unplaced.reason, /not in the older memory/);
  chat.reply = () => answer('{"relation": "refines", "confidence": 0.85, "reason": "delayed, same flight", "statement": null}');
  assert.deepEqual(await judge.judge({ text: "Flight TP1331 leaves at 07:40.", at: "x" }, { text: "TP1331 delayed to 09:15", at: "y" }), { confidence: 0.85, reason: "delayed, same flight", type: "refines" });
  chat.reply = () => answer('{"relation": "confirms", "confidence": 0.9, "reason": "same address", "statement": null}');
  assert.equal((await judge.judge(intro, { text: "deliveries to 14 Alder Street please", at: "y" })).confidence, 0);
});

test("end to end with a scripted model: one fact of a long message replaced, the rest still current; a delay refines", async () => {
  chat.reply = (body) => {
    const [older, newer] = String(body.messages[1].content).split("\n\nNEWER");
    if (/taken over/.test(newer) && /manager is Priya/.test(older)) return answer('{"relation": "supersedes", "confidence": 0.9, "reason": "a new manager", "statement": "My manager is Priya Shah."}');
    if (/delayed/.test(newer) && /TP1331/.test(older)) return answer('{"relation": "refines", "confidence": 0.9, "reason": "a delay", "statement": null}');
    return answer('{"relation": "unrelated", "confidence": 0.9, "reason": "other", "statement": null}');
  };
  const e = defaultGloveEmbedder();
  const engine = await Engine.create({ store: new SqliteStore(":memory:"), embedder: e, tokens: e }, { judge: new ChatJudge({ baseURL: chat.baseURL, model: "m", retries: 0 }) });
  try {
    const intro = await engine.remember({ text: "I'm Maya. I live at 14 Alder Street in Leeds. My manager is Priya Shah. I cycle to the office most days.", at: "2026-10-01", user: "maya" });
    const flight = await engine.remember({ text: "Flight TP1331 to Lisbon leaves at 07:40 on Saturday.", at: "2026-10-02", user: "maya" });
    const manager = await engine.remember({ text: "first 1:1 with Daniel Osei this morning, he's taken over our team since Priya left", at: "2026-10-15", user: "maya" });
    const delay = await engine.remember({ text: "TP1331 delayed, now expected 09:15", at: "2026-10-17", user: "maya" });
    const { edges } = await engine.list({ limit: 50 });
    const live = edges.filter((x) => x.retracted_at === null);
    const replaced = live.find((x) => x.from === manager.id);
    assert.equal(replaced?.type, "supersedes");
    assert.equal(replaced?.to, intro.id);
    assert.equal(replaced?.statement, "My manager is Priya Shah.");
    assert.equal(replaced?.provenance, "llm");
    const refined = live.find((x) => x.from === delay.id);
    assert.equal(refined?.type, "refines");
    assert.equal(refined?.to, flight.id);
    const [shown] = (await engine.list({ limit: 50 })).memories.filter((m) => m.id === intro.id);
    assert.notEqual(shown.status, "superseded", "the address and the commute still stand");
  } finally {
    await engine.close();
  }
});
