/**
 * The memory tools every adapter wraps (src/adapters/tools.ts), called as a framework would call them: history
 * and forget, the scope that binds them, and expected misses returned as values the model can read.
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import { memoryTools } from "../src/adapters/tools.js";
import { STALE_SUMMARY_NOTE } from "../src/index.js";
import { SCOPE, seededEngine } from "./agent-scenario.js";
import { STALE_DAY_NODE, STALE_SPAN_QUESTION, heldStaleEngine } from "./stale-summary-scenario.js";

test("agent tools: history shows the chain; forget erases within the scope and refuses another user's memory", async () => {
  const s = await seededEngine();
  const tools = memoryTools(s.engine, { scope: SCOPE });
  const added = (await tools.remember.run({ text: "Alex now prefers KLM for flights to Berlin", supersedes: [s.alexOld] })) as { id: string };

  const history = (await tools.history.run({ id: s.alexOld })) as { chain: { id: string; status: string }[] };
  assert.deepEqual(history.chain.map((c) => [c.id, c.status]), [[s.alexOld, "superseded"], [added.id, "current"]]);

  // another user's memory is, to Alex's tools, a memory that does not exist
  const unknown = { error: { code: "NOT_FOUND", message: `no memory with id "${s.bobs}"` } };
  assert.deepEqual(await tools.forget.run({ id: s.bobs }), unknown);
  assert.deepEqual(await tools.history.run({ id: s.bobs }), unknown);
  assert.equal((await s.engine.show(s.bobs)).text, "Bob prefers Lufthansa for flights to Berlin too", "Bob's memory is still there");

  assert.deepEqual(await tools.forget.run({ id: added.id }), { id: added.id, forgotten: true, summaries_rebuilt: 6 }, "its day, week and month summaries are rebuilt: the namespace's and Alex's own");
  const found = (await tools.search.run({ query: "KLM Berlin" })) as { hits: { id: string }[] };
  assert.ok(!found.hits.some((h) => h.id === added.id), "a forgotten memory is not found again");
  await s.engine.close();
});

test("agent tools: a mistake comes back as a value naming the field as the tool spells it", async () => {
  const s = await seededEngine();
  const tools = memoryTools(s.engine);
  const bad = (await tools.search.run({ query: "airline", as_of: "last spring" })) as { error: { code: string; message: string } };
  assert.equal(bad.error.code, "INVALID_INPUT");
  assert.match(bad.error.message, /^as_of: /);
  assert.deepEqual(await tools.search.run({ query: "  " }), { error: { code: "INVALID_INPUT", message: "query: must not be empty: say what to search for" } });
  assert.deepEqual(await tools.history.run({ id: "m_nope" }), { error: { code: "NOT_FOUND", message: 'no memory with id "m_nope"' } });
  // without a scope every memory is in reach
  const all = (await tools.search.run({ query: "Lufthansa Berlin" })) as { hits: { id: string }[] };
  assert.deepEqual(new Set(all.hits.map((h) => h.id)), new Set([s.alexOld, s.bobs]));
  await s.engine.close();
});

test("agent tools: a stale summary says so in the search answer, in the words the CLI and MCP use; a memory never does", { timeout: 120_000 }, async () => {
  const s = await heldStaleEngine();
  try {
    type Found = { id: string; stale?: boolean; stale_note?: string };
    const found = (await memoryTools(s.engine).search.run({ query: STALE_SPAN_QUESTION })) as { hits: Found[]; context: Found[] };
    const day = found.hits.find((h) => h.id === STALE_DAY_NODE);
    assert.ok(day, JSON.stringify(found.hits.map((h) => h.id)));
    assert.equal(day.stale, true);
    assert.equal(day.stale_note, STALE_SUMMARY_NOTE);
    // a question not naming the day gets the day's summary as context rather than as a hit
    const plain = (await memoryTools(s.engine).search.run({ query: "Lisbon trip" })) as { context: Found[] };
    const dayContext = plain.context.find((c) => c.id === STALE_DAY_NODE);
    assert.ok(dayContext, JSON.stringify(plain.context.map((c) => c.id)));
    assert.equal(dayContext.stale, true);
    assert.equal(dayContext.stale_note, STALE_SUMMARY_NOTE);
    const moved = found.hits.find((h) => h.id === s.movedId);
    assert.ok(moved, "the memory just written is a hit");
    assert.equal("stale" in moved || "stale_note" in moved, false, "a memory is never stale");
    // what a model reads is the answer as JSON text (cascadeTools, the AI SDK and OpenAI Agents pass it on so)
    assert.ok(JSON.stringify(found).includes(`"stale_note":"${STALE_SUMMARY_NOTE}"`));
  } finally {
    await s.finish();
  }
});
