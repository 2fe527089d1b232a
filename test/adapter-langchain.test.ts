/**
 * cascade-memory/langchain: the memory tools in a whole tool-calling loop with a scripted LangChain chat model;
 * the retriever's documents and their metadata; the chat history stored as turns of one session.
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import { AIMessage, HumanMessage, SystemMessage, ToolMessage, type BaseMessage } from "@langchain/core/messages";
import { CascadeChatMessageHistory, CascadeRetriever, cascadeTools } from "../src/adapters/langchain.js";
import { QUESTION, SCOPE, SEARCH_ARGS, assertRemembered, rememberArgs, seededEngine } from "./agent-scenario.js";
import { ScriptedChatModel, runAgent } from "../examples/langchain-agent/tool-loop.js";
import { emptyEngine } from "./helpers.js";
import { STALE_SUMMARY_NOTE } from "../src/index.js";
import { STALE_DAY_NODE, STALE_SPAN_QUESTION, heldStaleEngine } from "./stale-summary-scenario.js";

const toolAnswers = (messages: BaseMessage[]) => messages.filter((m): m is ToolMessage => ToolMessage.isInstance(m)).map((m) => JSON.parse(m.text));

test("LangChain: a tool-calling loop with cascadeTools searches, then stores the new preference as superseding the old", async () => {
  const s = await seededEngine();
  const model = new ScriptedChatModel((messages) => {
    const answers = toolAnswers(messages);
    if (answers.length === 0) return new AIMessage({ content: "", tool_calls: [{ id: "c1", name: "memory_search", args: SEARCH_ARGS, type: "tool_call" }] });
    if (answers.length === 1) return new AIMessage({ content: "", tool_calls: [{ id: "c2", name: "memory_add", args: rememberArgs(answers[0]), type: "tool_call" }] });
    return new AIMessage("Noted: KLM from now on.");
  });
  const tools = cascadeTools(s.engine, { scope: SCOPE });
  assert.deepEqual(tools.map((t) => t.name), ["memory_search", "memory_add", "memory_forget", "memory_history"]);
  const messages = await runAgent(model, tools, [new HumanMessage(QUESTION)]);
  assert.equal(messages.at(-1)!.text, "Noted: KLM from now on.");
  const [searched, added] = toolAnswers(messages);
  await assertRemembered(s, searched, added);
  await s.engine.close();
});

test("LangChain: the retriever's documents carry the hit's id, time, status, channels and ranks; a scope filters them", async () => {
  const s = await seededEngine();
  const neu = await s.engine.remember({ text: "Alex now prefers KLM for flights to Berlin", user: "alex", supersedes: [s.alexOld], at: "2026-06-01T09:00:00Z" });
  const docs = await new CascadeRetriever({ engine: s.engine, scope: SCOPE, search: { k: 5 } }).invoke("airline for flights to Berlin");
  assert.deepEqual(docs.map((d) => [d.pageContent, d.metadata.status]), [
    ["Alex now prefers KLM for flights to Berlin", "current"],
    ["Alex prefers Lufthansa for flights to Berlin", "superseded"],
  ]);
  const [top, old] = docs.map((d) => d.metadata);
  assert.equal(docs[0].id, neu.id);
  assert.equal(top.at, "2026-06-01T09:00:00Z");
  assert.deepEqual(top.supersedes, [s.alexOld]);
  assert.deepEqual(old.superseded_by, [neu.id]);
  assert.ok(top.sources_hit.includes("bm25"));
  assert.deepEqual(Object.keys(top.ranks).sort(), [...top.sources_hit].sort(), "ranks name exactly the channels that found it");
  const current = await new CascadeRetriever({ engine: s.engine, scope: SCOPE, search: { currentOnly: true } }).invoke("airline for flights to Berlin");
  assert.deepEqual(current.map((d) => d.id), [neu.id]);
  await s.engine.close();
});

test("LangChain: the chat history stores a conversation as turns of its session, reads it back in order, and clears it", async () => {
  const { engine } = await emptyEngine();
  const history = new CascadeChatMessageHistory({ engine, session: "trip-1", user: "alex" });
  const other = new CascadeChatMessageHistory({ engine, session: "trip-2", user: "alex" });
  await history.addMessages([new SystemMessage("You plan trips."), new HumanMessage("Book me a window seat to Berlin."), new AIMessage({ content: "", tool_calls: [{ id: "t", name: "memory_search", args: {}, type: "tool_call" }] })]);
  await history.addAIMessage("Done: seat 14A on the 9:40 to Berlin.");
  await other.addUserMessage("And a hotel in Rome.");

  const read = await history.getMessages();
  assert.deepEqual(read.map((m) => [m.type, m.text]), [
    ["system", "You plan trips."],
    ["human", "Book me a window seat to Berlin."],
    ["ai", "Done: seat 14A on the 9:40 to Berlin."],
  ]);
  const hit = (await engine.recall("window seat Berlin", { filter: { session: "trip-1" } })).hits[0];
  assert.equal(hit.text, "Book me a window seat to Berlin.");
  assert.equal(hit.kind, "turn");
  assert.equal((await engine.show(hit.id)).role, "user");

  await history.clear();
  assert.deepEqual(await history.getMessages(), []);
  assert.deepEqual((await other.getMessages()).map((m) => m.text), ["And a hotel in Rome."], "another session is untouched");
  await engine.close();
});

test("LangChain: a stale summary's document says so in its text and metadata; the memory tool's JSON too", { timeout: 120_000 }, async () => {
  const s = await heldStaleEngine();
  try {
    const docs = await new CascadeRetriever({ engine: s.engine }).invoke(STALE_SPAN_QUESTION);
    const day = docs.find((d) => d.id === STALE_DAY_NODE);
    assert.ok(day, JSON.stringify(docs.map((d) => d.id)));
    assert.equal(day.metadata.stale, true);
    assert.ok(day.pageContent.endsWith(`\n(${STALE_SUMMARY_NOTE})`), day.pageContent);
    const moved = docs.find((d) => d.id === s.movedId);
    assert.ok(moved, "the memory just written is a document");
    assert.equal(moved.metadata.stale, false);
    assert.equal(moved.pageContent, "Priya moved the Lisbon trip to Friday because the venue was double-booked.");
    const search = cascadeTools(s.engine).find((t) => t.name === "memory_search")!;
    const text = String(await search.invoke({ query: STALE_SPAN_QUESTION }));
    assert.ok(text.includes(`"stale_note":"${STALE_SUMMARY_NOTE}"`), text);
  } finally {
    await s.finish();
  }
});
