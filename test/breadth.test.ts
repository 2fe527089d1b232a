/**
 * Many moments in few words (query/extracts.ts): a question asking for coverage gets, in its context, one short
 * sentence of each of many candidate memories, so a reader within a word budget sees evidence it would otherwise
 * reach only after a dozen long messages; a pinpoint question's context is exactly what it is with the step off.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { test } from "node:test";
import { openMemory, parseInstant, type MemoryInput, type SearchResult } from "../src/index.js";
import { readingOrder, readWithin } from "../src/eval/budget.js";
import { tempDir } from "./helpers.js";

const NOW = parseInstant("now", "2026-05-30T12:00:00Z");
const at = (day: number, turn: number) => new Date(Date.UTC(2026, 4, day, 10, 0, turn)).toISOString();

/** A long reply about something else than the question: what a budget pays for when it reads whole messages. */
const padding = (i: number) =>
  Array.from({ length: 30 }, (_, j) => `Here is general advice number ${j} for session ${i}, about lumber prices, shipping times and the weather in the valley.`).join(" ");

/** Eight sessions, each with a request about the garden plan (one sentence in a long message) and a long reply. */
function chat(): MemoryInput[] {
  const steps = [
    "my garden plan starts with raised beds of cedar along the south fence",
    "my garden plan now adds a compost bin next to the raised beds",
    "my garden plan swaps the tomatoes for peppers this year",
    "my garden plan gets drip irrigation for the dry August weeks",
    "my garden plan moves the compost bin to the shed",
    "my garden plan includes a small pond near the fence",
    "my garden plan adds mulch on the raised beds every spring",
    "my garden plan ends with a bench under the apple tree",
  ];
  const out: MemoryInput[] = [];
  steps.forEach((step, i) => {
    const day = 1 + 3 * i;
    out.push({ speaker: "User", user: i % 2 ? "bob" : "maya", session: `s${i}`, at: at(day, 0), text: `Quick update: ${step}. ${padding(i)}` });
    out.push({ speaker: "Assistant", user: i % 2 ? "bob" : "maya", session: `s${i}`, at: at(day, 1), text: padding(100 + i) });
  });
  return out;
}

async function withChat<T>(fn: (memory: Awaited<ReturnType<typeof openMemory>>, requests: string[]) => Promise<T>, config: Parameters<typeof openMemory>[0] = {}): Promise<T> {
  const memory = await openMemory({ path: join(tempDir(), "breadth.db"), now: NOW, ...config });
  try {
    const ids = (await memory.rememberMany(chat())).ids as string[];
    await memory.settlePyramid(); // past what a search waits for: a refresh ending between two compared searches would change the second
    return await fn(
      memory,
      ids.filter((_, i) => i % 2 === 0),
    );
  } finally {
    await memory.close();
  }
}

const extractsOf = (r: SearchResult) => r.context.filter((c) => !c.id.startsWith("p_"));
const SUMMARY = "Can you give me a comprehensive summary of how my garden plan has progressed?";

test("a coverage question's context names many moments, one short sentence each, beyond the hits", async () => {
  await withChat(async (memory, requests) => {
    const r = await memory.recall(SUMMARY, { k: 3 });
    const extracts = extractsOf(r);
    assert.ok(extracts.length >= 6, `extracts of at least six memories (${extracts.length})`);
    for (const e of extracts) {
      assert.equal(e.level, "turn");
      assert.deepEqual(e.sources, [e.id], "an extract is of the memory it names");
      assert.deepEqual(e.hits, [], "it belongs to the question, not to a hit");
      assert.equal(e.sentences.length, 1);
      assert.ok(e.text.split(/\s+/).length <= 41, `one short sentence: ${e.text}`);
    }
    // the sentence chosen is the one about the subject, not the padding around it
    const named = extracts.filter((e) => requests.includes(e.id));
    assert.ok(named.length >= 6, `requests named (${named.length})`);
    for (const e of named) assert.match(e.text, /garden plan/);
    // the first hit is read whole: no extract of it
    assert.ok(!extracts.some((e) => e.id === r.hits[0].id));
  });
});

test("within 900 words (one message and a half) a reader meets more of the requests with the extracts than with whole messages", async () => {
  await withChat(async (memory, requests) => {
    const on = await memory.recall(SUMMARY, { k: 20 });
    const off = await memory.recall(SUMMARY, { k: 20, coverage: false });
    const met = (r: SearchResult) => [...readWithin(readingOrder(r, () => []), 900)].filter((id) => requests.includes(id)).length;
    assert.ok(met(off) <= 1, `whole messages: ${met(off)}`);
    assert.ok(met(on) >= 6, `extracts: ${met(on)}`);
  });
});

test("a pinpoint question's context is identical with the step on and off, and has no extracts", async () => {
  await withChat(async (memory) => {
    for (const q of ["Where did I move the compost bin?", "What wood are the raised beds?"]) {
      const on = await memory.recall(q, { k: 5 });
      const off = await memory.recall(q, { k: 5, coverage: false });
      assert.deepEqual(on.context, off.context, q);
      assert.equal(extractsOf(on).length, 0, q);
    }
  });
});

test("no extracts with coverage off, or with context.moments 0", async () => {
  await withChat(async (memory) => {
    assert.equal(extractsOf(await memory.recall(SUMMARY, { k: 3, coverage: false })).length, 0);
  });
  await withChat(
    async (memory) => {
      assert.equal(extractsOf(await memory.recall(SUMMARY, { k: 3 })).length, 0);
    },
    { context: { moments: 0 } },
  );
});

test("a search filtered to one user gets extracts of that user's memories only", async () => {
  await withChat(async (memory) => {
    const r = await memory.recall(SUMMARY, { k: 3, filter: { user: "bob" } });
    const extracts = extractsOf(r);
    assert.ok(extracts.length >= 3, `${extracts.length}`);
    const users = new Set((await Promise.all(extracts.map((e) => memory.show(e.id)))).map((m) => m.user));
    assert.deepEqual([...users], ["bob"]);
  });
});

test("an extract is never a line of code, even one holding the question's words", async () => {
  const memory = await openMemory({ path: join(tempDir(), "breadth-code.db"), now: NOW });
  try {
    const code = [
      "Here is my garden plan loader.",
      "```",
      "garden_plan = load_garden_plan(raised_beds, progressed=True)",
      "```",
      "garden_plan_summary = summarize(garden_plan)",
      "It reads the beds from a file.",
    ].join("\n");
    // a message that matches the question best is the first hit, read whole, so the code message is a later candidate
    const best = { speaker: "User", session: "s10", at: at(30, 0), text: "A comprehensive summary of how my garden plan has progressed: my garden plan progressed well." };
    const { ids } = await memory.rememberMany([...chat(), { speaker: "User", session: "s9", at: at(29, 0), text: code }, best]);
    await memory.settlePyramid(); // the chat's 56,000 characters are past what a search waits for
    const r = await memory.recall(SUMMARY, { k: 20 });
    const id = ids.at(-2) as string;
    const mine = extractsOf(r).find((e) => e.id === id);
    assert.ok(mine, `the message is a candidate with an extract (first hit ${r.hits[0].id === id}, among hits ${r.hits.some((h) => h.id === id)})`);
    assert.doesNotMatch(mine.text, /=|```/, mine.text);
  } finally {
    await memory.close();
  }
});

test("a message of one long sentence is named by its opening words, cut, not passed over", async () => {
  const memory = await openMemory({ path: join(tempDir(), "breadth-long-sentence.db"), now: NOW });
  try {
    // sixty words and no full stop: no sentence of 4 to 40 words to take
    const long =
      "I'm trying to work out how my garden plan should handle the slope behind the shed, and I know the raised beds " +
      "need level ground but I'm not sure whether terracing with sleepers or just building the beds up on the low side " +
      "would be cheaper, so can you help me compare the two and maybe sketch what the materials would cost me";
    const { ids } = await memory.rememberMany([...chat(), { speaker: "User", session: "s20", at: at(28, 0), text: long }]);
    await memory.settlePyramid(); // the chat's 56,000 characters are past what a search waits for
    const r = await memory.recall(SUMMARY, { k: 3 });
    const mine = extractsOf(r).find((e) => e.id === ids.at(-1));
    assert.ok(mine, `the long message has an extract (first hit: ${r.hits[0].id === ids.at(-1)})`);
    assert.match(mine.text, /I'm trying to work out how my garden plan should handle the slope .*…$/);
    assert.ok(mine.text.split(/\s+/).length <= 42, `cut to forty words and the mark: ${mine.text}`);
  } finally {
    await memory.close();
  }
});
