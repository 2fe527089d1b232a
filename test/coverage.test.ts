/**
 * Breadth at read time (query/coverage.ts): a question asking for a summary, an order or every mention gets one hit
 * per moment first, each deferred hit saying why, an order question its first hits by date; a pinpoint question's
 * hits are exactly those it gets with the step off.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { test } from "node:test";
import { openMemory, parseInstant, type Hit, type MemoryInput } from "../src/index.js";
import { asksForCoverage } from "../src/query/coverage.js";
import { tempDir } from "./helpers.js";

const NOW = parseInstant("now", "2026-05-30T12:00:00Z");

test("questions asking for many moments are recognised, by kind", () => {
  const breadth = [
    "Can you provide a comprehensive summary of how my budget tracker project has progressed?",
    "Summarize my week.",
    "Give me an overview of what we discussed about the wedding",
    "What did I say every time I mentioned my sister?",
    "List the features I asked about for the dashboard.",
    "How has my plan for the kitchen renovation evolved?",
    "How did my approach to testing change over the sessions?",
    "How many new columns did I want to add to the transactions table across my requests?",
    "How many different user roles am I trying to implement across my sessions?",
    "What concerns have I raised throughout our conversations about the deployment?",
    "Recap all of my decisions about the trip.",
  ];
  const order = [
    "Can you list the order in which I brought up different aspects of my budget tracker, in order?",
    "In what order did I mention the three venues?",
    "Give me a timeline of my job search.",
    "Walk me through the sequence of changes to my diet plan",
    "Chronologically, what did I try for my back pain?",
  ];
  for (const q of breadth) assert.equal(asksForCoverage(q), "breadth", q);
  for (const q of order) assert.equal(asksForCoverage(q), "order", q);
});

test("pinpoint questions are not caught", () => {
  const pinpoint = [
    "When does my first sprint end?",
    "What is the average response time of the dashboard API?",
    "What did I order at the Thai place?",
    "Did I change my password last week?",
    "How many commits have been merged into the main branch?",
    "Is that all I need for the permit?",
    "Could you show me how to implement a login feature?",
    "Which libraries are used in this project?",
    "What time is my dentist appointment?",
    "Who did I meet at the conference in March?",
    "Have I integrated Flask-Login for session management in my project?",
    "How many weeks do I have between finishing the transaction features and the deployment deadline?",
    "Where is the summer house?",
  ];
  for (const q of pinpoint) assert.equal(asksForCoverage(q), null, q);
});

const at = (day: number, turn: number) => new Date(Date.UTC(2026, 4, day, 10, 0, turn)).toISOString();
const FILLER = ["Sounds good, thanks.", "Okay, noted.", "Let me think about it.", "Sure, go on."];

/**
 * One subject over four sessions: in the first, a long exchange about the garden (five turns in a row); in each of
 * the next three, one turn about it among others.
 */
function chat(): MemoryInput[] {
  const out: MemoryInput[] = [];
  const cluster = [
    "For the garden plan I want raised beds with tomatoes along the south fence of the garden.",
    "The garden plan also needs a compost bin near the raised beds in the garden.",
    "More on the garden plan: the raised beds should be cedar so the garden looks tidy.",
    "Garden plan detail: drip irrigation for the raised beds so the garden survives August.",
    "Last garden plan point for today: mulch the raised beds in the garden every spring.",
  ];
  cluster.forEach((text, i) => out.push({ speaker: "User", session: "s1", at: at(1, i), text }));
  const later = [
    "Update on my garden plan: I swapped the tomatoes for peppers.",
    "Garden plan change: the compost bin moved to the shed instead.",
    "My garden plan now includes a small pond by the fence.",
  ];
  later.forEach((text, j) => {
    const day = 8 + 7 * j;
    out.push({ speaker: "User", session: `s${j + 2}`, at: at(day, 0), text: FILLER[j] });
    out.push({ speaker: "User", session: `s${j + 2}`, at: at(day, 1), text: "The bakery on the corner has fresh rye bread on Tuesdays." });
    out.push({ speaker: "User", session: `s${j + 2}`, at: at(day, 2), text });
    out.push({ speaker: "User", session: `s${j + 2}`, at: at(day, 3), text: FILLER[j + 1] });
  });
  return out;
}

async function withChat<T>(fn: (recall: (q: string, coverage?: boolean) => ReturnType<Awaited<ReturnType<typeof openMemory>>["recall"]>) => Promise<T>): Promise<T> {
  const memory = await openMemory({ path: join(tempDir(), "coverage.db"), now: NOW });
  try {
    await memory.rememberMany(chat());
    return await fn((q, coverage) => memory.recall(q, { k: 4, ...(coverage === undefined ? {} : { coverage }) }));
  } finally {
    await memory.close();
  }
}

const day = (iso: string) => iso.slice(0, 10);

test("a coverage question gets distinct moments in its top k; off, it gets one moment", async () => {
  await withChat(async (recall) => {
    const q = "Can you summarise how my garden plan has evolved?";
    const off = await recall(q, false);
    const on = await recall(q);
    const days = (hits: typeof on.hits) => new Set(hits.map((h) => day(h.at))).size;
    assert.ok(days(off.hits) <= 2, `without the step the top 4 are mostly the first session's exchange (${off.hits.map((h) => day(h.at))})`);
    assert.ok(days(on.hits) >= 3, `with it the top 4 span at least three sessions (${on.hits.map((h) => day(h.at))})`);
    // the same candidates: only the order changed
    assert.deepEqual(new Set(on.hits.map((h) => h.id)).size, on.hits.length);
    for (let i = 1; i < on.hits.length; i++) assert.ok(on.hits[i - 1].score >= on.hits[i].score, "scores follow the order");
  });
});

test("a deferred hit says why", async () => {
  const q = "Can you summarise how my garden plan has evolved?";
  const memory = await openMemory({ path: join(tempDir(), "coverage-why.db"), now: NOW });
  try {
    await memory.rememberMany(chat());
    const on = (await memory.recall(q, { k: 4 })).hits;
    const off = (await memory.recall(q, { k: 4, coverage: false })).hits;
    const deferred = off.filter((h) => !on.some((x) => x.id === h.id));
    assert.ok(deferred.length > 0, "some of the first session's turns left the top 4");
    const wide = (await memory.recall(q, { k: 20 })).hits;
    for (const h of deferred) {
      const moved = wide.find((x) => x.id === h.id);
      assert.ok(moved, "deferred, not dropped");
      const reason = moved.adjustments.find((a) => a.reason.startsWith("breadth:"));
      assert.ok(reason && "factor" in reason && reason.factor < 1, `${h.text}: ${JSON.stringify(moved.adjustments)}`);
      assert.match(reason.reason, /session "s1"/);
    }
  } finally {
    await memory.close();
  }
});

test("an order question gives its chosen evidence by date", async () => {
  await withChat(async (recall) => {
    const r = await recall("In what order did I change my garden plan?");
    const times = r.hits.map((h) => h.at);
    assert.deepEqual(times, [...times].sort(), "by date");
    assert.ok(new Set(times.map(day)).size >= 3, `${times}`);
  });
});

test("a pinpoint question's hits are identical with the step on and off", async () => {
  await withChat(async (recall) => {
    for (const q of ["Where did I move the compost bin in my garden plan?", "What wood should the raised beds be?", "When does the bakery have rye bread?"]) {
      const on = await recall(q);
      const off = await recall(q, false);
      assert.deepEqual(on.hits, off.hits, q);
    }
  });
});

test("a pasted document pays for its length in a coverage question only", async () => {
  const memory = await openMemory({ path: join(tempDir(), "coverage-long.db"), now: NOW });
  try {
    const doc = Array.from({ length: 120 }, (_, i) => `Section ${i} of the garden plan document covers raised beds, soil and watering.`).join(" ");
    await memory.rememberMany([...chat(), { speaker: "User", session: "s9", at: at(29, 0), text: doc }]);
    const words = doc.split(/\s+/).length;
    const find = (hits: Hit[]) => hits.find((h) => h.text === doc);
    const on = find((await memory.recall("Summarise my garden plan across our conversations.", { k: 20 })).hits);
    assert.ok(on, "still among the hits");
    const reason = on.adjustments.find((a) => a.reason.startsWith(`breadth: ${words} words`));
    assert.ok(reason && "factor" in reason && Math.abs(reason.factor - 1000 / words) < 1e-9, JSON.stringify(on.adjustments));
    const off = find((await memory.recall("Summarise my garden plan across our conversations.", { k: 20, coverage: false })).hits);
    assert.ok(off && !off.adjustments.some((a) => a.reason.startsWith("breadth:")));
    const pinpoint = find((await memory.recall("What does the garden plan document say about soil?", { k: 20 })).hits);
    assert.ok(pinpoint && !pinpoint.adjustments.some((a) => a.reason.startsWith("breadth:")));
  } finally {
    await memory.close();
  }
});
