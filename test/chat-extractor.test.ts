/**
 * The optional LLM entity extractor against the loopback chat server: what it sends, what it stores (aliases
 * merged the same way as the offline extractor's), and refusals of answers it cannot trust.
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import { answer, chatServer } from "./chat-server.js";
import { CascadeError, ChatEntityExtractor, Engine, SqliteStore, defaultGloveEmbedder } from "../src/index.js";

const chat = chatServer();

test("the chat extractor's entities become mentions, the speaker included", async () => {
  chat.reply = (body) =>
    answer(/Lisbon/.test(body.messages[1].content) ? '{"entities": [{"name": "Lisbon", "kind": "name"}, {"name": "Mel", "kind": "person"}]}' : '```json\n{"entities": [{"name": "lisbon", "kind": "name"}]}\n```');
  const e = defaultGloveEmbedder();
  const store = new SqliteStore(":memory:");
  const extractor = new ChatEntityExtractor({ baseURL: chat.baseURL, model: "ner-model", apiKey: "k-1", retries: 0 });
  const engine = await Engine.create({ store, embedder: e, tokens: e }, { detection: { enabled: false }, entities: { extractor } });
  await engine.remember({ text: "Mel flew to Lisbon.", speaker: "Caroline", at: "2026-05-11" });
  await engine.remember({ text: "The city was sunny.", speaker: "Melanie", at: "2026-05-12" });
  const sent = chat.seen.at(-2);
  assert.equal(sent.url, "/v1/chat/completions");
  assert.equal(sent.body.model, "ner-model");
  assert.equal(sent.body.response_format.type, "json_object");
  assert.equal(sent.body.messages[1].content, "Caroline: Mel flew to Lisbon.");
  const keys = (await engine.entities()).entities.map((x) => `${x.key}:${x.memories}`).sort();
  assert.deepEqual(keys, ["caroline:1", "lisbon:2", "melanie:2"]);
  await engine.close();
});

test("an answer that is not JSON, or not a list of {name, kind}, is a PROVIDER_ERROR: the memory is stored without entities, with a warning naming it", async () => {
  const e = defaultGloveEmbedder();
  const store = new SqliteStore(":memory:");
  const extractor = new ChatEntityExtractor({ baseURL: chat.baseURL, model: "ner-model", retries: 0 });
  const engine = await Engine.create({ store, embedder: e, tokens: e }, { detection: { enabled: false }, entities: { extractor } });
  for (const reply of ["Lisbon and Mel", '{"entities": [{"name": "Lisbon"}]}', '{"people": []}']) {
    chat.reply = () => answer(reply);
    const r = await engine.remember({ text: "Mel flew to Lisbon." });
    assert.equal(r.warnings?.length, 1);
    assert.equal(r.warnings![0].step, "entities");
    assert.match(r.warnings![0].reason, /^PROVIDER_ERROR: /);
  }
  // stored (an extractor is enrichment, not the memory), and no entity was made up from the nonsense
  assert.equal((await engine.stats()).memories, 3);
  assert.deepEqual((await engine.entities()).entities, []);
  await engine.close();
});
