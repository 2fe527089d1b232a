/**
 * User–assistant chats: a first-person question raises what the user said (query/speakers.ts), and
 * revision detection judges statements of one speaker, not documents (graph/detect.ts, graph/statements.ts): an
 * assistant's long formatted reply never supersedes the user's messages, and code is not a change of mind.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { test } from "node:test";
import { openMemory, parseInstant } from "../src/index.js";
import { prose } from "../src/graph/statements.js";
import { asksWhatTheAssistantDid, speaksInFirstPerson } from "../src/query/speakers.js";
import { tempDir } from "./helpers.js";

const NOW = parseInstant("now", "2026-04-20T12:00:00Z");
const at = (day: number, minute: number) => `2026-04-${String(day).padStart(2, "0")}T09:${String(minute).padStart(2, "0")}:00Z`;

/** A long reply, as assistants write them: headings, lists, code with numbers, and every change word there is. */
const REPLY = [
  "Certainly! Let's refine your database layer so that it stays lightweight. Here's a detailed plan.",
  "### Step 1: Models",
  "```python",
  "class Transaction(db.Model):",
  "    id = db.Column(db.Integer, primary_key=True)",
  "    note = db.Column(db.String(120), nullable=True)",
  "```",
  "### Step 2: Switch the session handling",
  "Instead of storing the session in cookies, you can now keep it server-side. This replaces the old approach and is no longer tied to the browser.",
  "You could also move the budget limits to a settings table from the config file, which changes nothing for the user.",
  "### Step 3: Testing",
  "Write tests for the database models, the session handling and the budget limits, and run them before every release.",
].join("\n");

const CHAT = [
  { speaker: "User", session: "s1", at: at(1, 0), text: "I chose SQLite for the database of my budget tracker because it is simple, and my budget limit is 500 dollars." },
  { speaker: "Assistant", session: "s1", at: at(1, 1), text: REPLY },
  { speaker: "User", session: "s2", at: at(8, 0), text: "Thanks. Can you review the database models of my budget tracker and the session handling?" },
  { speaker: "Assistant", session: "s2", at: at(8, 1), text: REPLY.replace("Certainly!", "Of course!").replace("String(120)", "String(80)") },
];

test("an assistant's long reply supersedes none of the user's messages, and code numbers are not changed values", async () => {
  const memory = await openMemory({ path: join(tempDir(), "chat.db"), now: NOW });
  await memory.rememberMany(CHAT);
  const listed = await memory.list();
  await memory.close();
  assert.equal(listed.memories.length, CHAT.length);
  assert.deepEqual(listed.edges.filter((e) => e.type === "supersedes"), [], "no supersedes edge among a user's questions and an assistant's formatted replies");
  assert.deepEqual(listed.memories.map((m) => m.status), CHAT.map(() => "current"));
});

test("a user's later statement inside a long message still revises their earlier one, sentence against sentence", async () => {
  const memory = await openMemory({ path: join(tempDir(), "chat.db"), now: NOW });
  const first = (await memory.remember({ speaker: "User", session: "a", at: at(2, 0), text: "My weekly word count target is 1,200 words." })).id;
  const later = await memory.remember({
    speaker: "User",
    session: "b",
    at: at(9, 0),
    text: [
      "I've been writing every morning before work and I feel much better about the essay.",
      "The introduction is done and the second chapter is half drafted.",
      "Actually my weekly word count target changed to 1,350 words now.",
      "Can you help me plan the next week so I reach it?",
    ].join(" "),
  });
  await memory.close();
  const edge = later.edges.find((e) => e.type === "supersedes" && e.to === first);
  assert.ok(edge, "the long message supersedes the earlier target");
  assert.match(edge.reason ?? "", /in "Actually my weekly word count target changed/, "the reason names the sentence that revises");
});

test("one speaker never revises another's statement by detection", async () => {
  const memory = await openMemory({ path: join(tempDir(), "chat.db"), now: NOW });
  await memory.remember({ speaker: "Priya", session: "a", at: at(3, 0), text: "The team offsite is planned for Berlin in May." });
  const later = await memory.remember({ speaker: "Tomasz", session: "a", at: at(3, 5), text: "Actually the team offsite is no longer planned for Berlin; it moved to Prague instead." });
  const same = await memory.remember({ speaker: "Priya", session: "a", at: at(3, 9), text: "Actually the team offsite is no longer planned for Berlin; it moved to Prague instead." });
  await memory.close();
  assert.equal(later.edges.length, 0, "Tomasz's sentence does not supersede Priya's plan");
  assert.equal(same.edges.filter((e) => e.type === "supersedes").length, 1, "the same sentence by Priya does");
});

test("a first-person question raises what the user said, by speaker or by role, with its reason", async () => {
  const memory = await openMemory({ path: join(tempDir(), "chat.db"), now: NOW });
  const ids = (await memory.rememberMany(CHAT)).ids as string[];
  const byRole = (await memory.remember({ role: "user", session: "s3", at: at(10, 0), text: "For the budget tracker database I also keep a nightly backup file." })).id;
  const r = await memory.recall("which database did I choose for my budget tracker", { k: 10 });
  const third = await memory.recall("which database did the tracker use", { k: 10 });
  await memory.close();
  assert.equal(r.hits[0].id, ids[0], "the user's own statement comes first");
  const reason = (id: string, hits = r.hits) => hits.find((h) => h.id === id)?.adjustments.find((a) => a.reason.includes(`question's "I" or "my"`));
  assert.ok(reason(ids[0]), "the user's message carries the reason");
  assert.match(reason(ids[0])!.reason, /^said by User, whom the question's "I" or "my" names$/);
  assert.ok(reason(byRole), "a message stored with only role user counts as the user's");
  assert.equal(reason(ids[1]), undefined, "the assistant's reply is not raised");
  assert.equal(reason(ids[0], third.hits), undefined, "a question not in the first person raises nothing");
});

test("a question about what the assistant did finds the assistant's turn: the user's turns are not raised", async () => {
  const memory = await openMemory({ path: join(tempDir(), "dinner.db"), now: NOW });
  const turns = [
    { role: "user", session: "d1", at: at(15, 0), text: "I'd like dinner for two on Saturday, somewhere Italian near my office, around 8pm." },
    { role: "assistant", session: "d1", at: at(15, 1), text: "Done: I booked a table for two at Trattoria Sole on Saturday at 8pm, under your name." },
    { role: "user", session: "d2", at: at(16, 0), text: "My sister might join us for dinner on Saturday, so maybe three of us." },
    { role: "user", session: "d3", at: at(17, 0), text: "I booked the cinema for Saturday afternoon myself." },
  ];
  const ids = (await memory.rememberMany(turns)).ids as string[];
  const r = await memory.recall("where did you book dinner for me on Saturday?", { k: 5 });
  await memory.close();
  assert.equal(r.hits[0].id, ids[1], "the assistant's booking comes first");
  assert.ok(!r.hits.some((h) => h.adjustments.some((a) => a.reason.includes(`question's "I" or "my"`))), "no user turn is raised");
});

test("first person and prose: what the rules read", () => {
  for (const q of ["Where did you book dinner for me?", "How did you recommend structuring my week?", "What have you told me about my loan?", "you booked it for me, where?"]) assert.ok(asksWhatTheAssistantDid(q), q);
  for (const q of ["Can you show me my budget?", "What would you suggest for my app?", "What do you need from me?", "which database did I choose"]) assert.equal(asksWhatTheAssistantDid(q), false, q);
  for (const q of ["What did I decide about the database?", "my sprint ends when", "When I'm done, what's next", "I've moved it, right?"]) assert.ok(speaksInFirstPerson(q), q);
  for (const q of ["What did Priya decide?", "In which city is the offsite", "iterate over items"]) assert.equal(speaksInFirstPerson(q), false, q);
  // a known limit of a word rule: a hyphenated word that starts with "mine" reads as the pronoun
  assert.equal(speaksInFirstPerson("Is it mine-craft or Minecraft"), true);
  const text = "We now use `String(80)` here.\n```\nx = f(1)\n```\nnote = db.Column(db.String(120))\nThe limit moved to 20.";
  assert.equal(prose(text).replace(/\s+/g, " ").trim(), "We now use here. The limit moved to 20.");
  const reply = "### Step 2: New deadline\n- **New Deadline**: March 31\n1. **Migrate**: run it\n- We moved the deadline to March 31 instead.";
  assert.equal(prose(reply).trim(), "- We moved the deadline to March 31 instead.", "headings and bold labels are structure, a plain bullet is a statement");
});

test("the judge reads any sentence a long message yields: a bare label, a noun phrase, punctuation", async () => {
  const { judgeRevision } = await import("../src/graph/cue-judge.js");
  for (const label of ["This setup includes:", "Steps:", "### Plan:", "Budget tracker", "—", ""]) {
    assert.doesNotThrow(() => judgeRevision(label, label), `${JSON.stringify(label)} twice`);
  }
  for (const newer of ["Steps:", "### Plan:", "Budget tracker", "—", "", "Next steps: instead"]) {
    assert.doesNotThrow(() => judgeRevision("The budget tracker plan is to deploy on Render.", newer), JSON.stringify(newer));
    assert.doesNotThrow(() => judgeRevision(newer, "Actually we now deploy the budget tracker on Fly instead."), JSON.stringify(newer));
  }
});
