/**
 * Standing instructions and preferences come with the requests they govern (query/standing.ts): a request for help
 * brings the user's "always …" or "I prefer …" among its first hits, even when the channels rank it low; the
 * assistant's advice, an "always" inside a question, and a question that recalls bring nothing.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { join } from "node:path";
import { openMemory } from "../src/index.js";
import { asksForHelp } from "../src/query/standing.js";
import { tempDir } from "./helpers.js";

const REASON = "a standing instruction or preference for requests like this one";

async function project() {
  const memory = await openMemory({ path: join(tempDir(), "standing.db"), now: Date.parse("2026-04-30T12:00:00Z") });
  const say = (text: string, day: number, role = "user") => memory.remember({ text, at: `2026-04-${String(day).padStart(2, "0")}T10:00:00Z`, user: "dev", role, speaker: role === "user" ? "dev" : "assistant", session: `d${day}` });
  const rule = await say("Always include version numbers when I ask about a library or any other dependency.", 1);
  const advice = await say("Make sure to pin every library you add to the login feature; libraries drift.", 2, "assistant");
  const habit = await say("how can I show in my notes that I always test each library before the login feature ships", 3);
  for (const [i, text] of [
    "The login feature needs a form, a session cookie and a password reset email.",
    "I picked Flask for the login feature and SQLite for the user table.",
    "Which library handles password hashing for the login feature best?",
    "The login feature's password reset email goes through the mailer library.",
    "Tests for the login feature: wrong password, locked account, expired session.",
    "Library choice for the login feature is still open, I want something small.",
  ].entries()) await say(text, 5 + i);
  return { memory, rule, advice, habit };
}

test("a request for help brings the user's standing instruction among its first hits, with the reason on it", async () => {
  const { memory, rule, advice, habit } = await project();
  try {
    const r = await memory.recall("Could you suggest a library for the login feature?", { k: 5, filter: { user: "dev" } });
    const i = r.hits.findIndex((h) => h.id === rule.id);
    assert.ok(i >= 0 && i < 3, `the instruction is among the first three (at ${i})`);
    assert.ok(r.hits[i].adjustments.some((a) => a.reason === REASON), JSON.stringify(r.hits[i].adjustments));
    for (const other of [advice, habit]) assert.ok(!r.hits.find((h) => h.id === other.id)?.adjustments.some((a) => a.reason === REASON), "advice and an always inside a question are not standing");
    const recalled = await memory.recall("what did I say about the library for the login feature?", { k: 5, filter: { user: "dev" } });
    assert.ok(recalled.hits.every((h) => !h.adjustments.some((a) => a.reason === REASON)), "a question that recalls moves nothing");
  } finally {
    await memory.close();
  }
});

test("a request is someone asking for help, not recalling or asking for coverage", () => {
  assert.equal(asksForHelp("Could you show me how to implement a login feature?"), true);
  assert.equal(asksForHelp("What libraries or tools would you suggest I use?"), true);
  assert.equal(asksForHelp("How should I organize the different parts of a webpage in HTML?"), true);
  assert.equal(asksForHelp("What did I say about version numbers?"), false);
  assert.equal(asksForHelp("Can you list the order in which I brought up the features?"), false);
  assert.equal(asksForHelp("When is my dentist appointment?"), false);
});
