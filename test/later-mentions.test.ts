/**
 * query/later-mentions: for a question about the present, a later memory that names what the first answering hit
 * names (a rare noun) and changes it (a word of change) ranks just above
 * that hit, even when detection saw no change and the later memory holds none of the question's words. A later
 * mention that changes nothing, a later question, an assistant's advice, a question about the past and another
 * person's memory move nothing.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import type { Engine } from "../src/index.js";
import { emptyEngine } from "./helpers.js";

async function withEngine(run: (engine: Engine) => Promise<void>) {
  const { engine } = await emptyEngine("2026-05-30T00:00:00Z");
  try {
    await run(engine);
  } finally {
    await engine.close();
  }
}

/** Everyday notes of one person around the ones a test is about, so that no word of theirs is rare by accident. */
const FILLER = [
  "bins go out tuesday night, recycling every other week",
  "the boiler guy is coming thursday morning between 8 and 12",
  "signed up for the pottery class at the community centre, wednesdays",
  "lunch with Priya near the office was lovely, we should do it monthly",
  "the car needs an MOT before the end of June",
  "finished the book club novel, the ending was rushed",
];

/** A search once the pyramid's refresh has ended (the summaries count in the dense channel's sample of the store). */
async function recallSettled(engine: Engine, ...args: Parameters<Engine["recall"]>) {
  await engine.settlePyramid();
  return engine.recall(...args);
}

const user = (engine: Engine, who: string) => (text: string, at: string) => engine.remember({ text, at, user: who, role: "user", speaker: who });

test("a later memory naming the answer's medicine and a word of change ranks first for 'which … am I on?'", async () => {
  await withEngine(async (engine) => {
    const say = user(engine, "ines");
    for (const [i, text] of FILLER.entries()) await say(text, `2026-04-0${i + 1}T09:00:00Z`);
    const first = await say("allergies are back with the pollen, on loratadine 10mg each morning for the hayfever", "2026-04-10T08:00:00Z");
    await say("the garden centre had the tomato plants in, got six", "2026-04-15T12:00:00Z");
    const later = await say("loratadine wasn't doing a thing, the GP put me on cetirizine instead, one at night", "2026-05-02T18:00:00Z");
    await say("picked up the dry cleaning, the blue coat is ready", "2026-05-05T12:00:00Z");
    const now = await recallSettled(engine, "which hayfever tablet am I taking?", { k: 5, filter: { user: "ines" } });
    const ids = now.hits.map((h) => h.id);
    assert.equal(ids[0], later.id, `the later change first: ${now.hits.map((h) => h.text.slice(0, 40)).join(" | ")}`);
    assert.equal(ids[1], first.id, "the first statement right after it");
    assert.match(now.hits[0].adjustments.map((a) => a.reason).join(" "), /later mention of what the answer names \(loratadine\) with a word of change/);
    // the past is asked for: nothing moves
    const before = await recallSettled(engine, "which hayfever tablet was I taking in April?", { k: 5, filter: { user: "ines" } });
    assert.ok(!before.hits.some((h) => h.adjustments.some((a) => /later mention/.test(a.reason))), "a question about the past moves nothing");
  });
});

test("an assistant's report of a change it made counts; its advice does not", async () => {
  await withEngine(async (engine) => {
    const say = user(engine, "ines");
    const reply = (text: string, at: string) => engine.remember({ text, at, user: "ines", role: "assistant", speaker: "assistant" });
    for (const [i, text] of FILLER.entries()) await say(text, `2026-04-0${i + 1}T09:00:00Z`);
    const first = await say("my physio appointment with Okafor is Tuesday 12 May at 10am", "2026-04-10T08:00:00Z");
    await reply("You could ask Okafor about the knee brace, and maybe switch to evenings?", "2026-04-20T08:00:00Z");
    let now = await recallSettled(engine, "when's my physio appointment?", { k: 5, filter: { user: "ines" } });
    assert.equal(now.hits[0].id, first.id, `advice moves nothing: ${now.hits.map((h) => h.text.slice(0, 40)).join(" | ")}`);
    const rebooked = await reply("Rebooked: Okafor, Thursday 14 May at 4pm, same clinic.", "2026-05-02T18:00:00Z");
    now = await recallSettled(engine, "when's my physio appointment?", { k: 5, filter: { user: "ines" } });
    assert.equal(now.hits[0].id, rebooked.id, `the report first: ${now.hits.map((h) => h.text.slice(0, 40)).join(" | ")}`);
  });
});

test("a later mention that changes nothing, a later question and another person's change leave the answer first", async () => {
  await withEngine(async (engine) => {
    const say = user(engine, "ines");
    const other = user(engine, "tariq");
    for (const [i, text] of FILLER.entries()) await say(text, `2026-04-0${i + 1}T09:00:00Z`);
    const cat = await say("we've got a tabby called Marmalade, she's three", "2026-04-10T08:00:00Z");
    await say("Marmalade was sick on the rug again this morning", "2026-05-01T08:00:00Z");
    await say("should Marmalade switch to the new senior food?", "2026-05-03T08:00:00Z");
    await say("Marmalade knocked the new lamp over, typical", "2026-05-03T09:00:00Z");
    await other("Marmalade is now the name of our new puppy!", "2026-05-04T08:00:00Z");
    const asked = await recallSettled(engine, "what's my cat called?", { k: 5, filter: { user: "ines" } });
    assert.equal(asked.hits[0].id, cat.id, `the answer stays first: ${asked.hits.map((h) => h.text.slice(0, 40)).join(" | ")}`);
    assert.ok(!asked.hits.some((h) => h.adjustments.some((a) => /later mention/.test(a.reason))), "nothing was raised");
    assert.ok(!asked.hits.some((h) => h.text.includes("puppy")), "no hit from another user");
  });
});
