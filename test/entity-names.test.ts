/**
 * Entities as `cascade entities` lists them after the household's memories are written. Names
 * with particles, hyphens and titles stay whole; dates, weekdays and months are no entities; a person named at
 * the start of a sentence is counted in every memory once the name is known (from a speaker, a mid-sentence
 * mention, or another memory of the same batch).
 */
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import type { Engine } from "../src/index.js";
import { emptyEngine } from "./helpers.js";

const counts = async (engine: Engine) => Object.fromEntries((await engine.entities({ top: 50 })).entities.map((e) => [e.name, `${e.kind} ${e.memories}`]));

describe("entities of a household's memories", () => {
  test("the household's memories, one at a time: whole names, no dates, Sam counted wherever he is named after he is known", async () => {
    const { engine } = await emptyEngine();
    for (const [text, speaker] of [
      ["Sam and I had dinner at Tasca do Chico in Lisbon on December 20", "Priya"],
      ["Priya Raman-Iyer is leading the migration; she meets Sam on Wednesdays"],
      ["Sam booked an appointment with Dr. Okafor for November 3"],
      ["I prefer aisle seats on flights", "Sam"],
      ["Sam is pescatarian. He loves grilled sardines"],
      ["Sam said the Airbnb in Porto was cancelled"],
    ]) await engine.remember({ text: text!, speaker, at: "2026-11-01" });
    assert.deepEqual(await counts(engine), {
      Sam: "person 6",
      Priya: "person 1",
      "Tasca do Chico": "name 1",
      Lisbon: "name 1",
      "Priya Raman-Iyer": "name 1",
      "Dr. Okafor": "name 1",
      Airbnb: "name 1",
      Porto: "name 1",
    });
  });

  test("a second household, in one batch: a sentence-opening name counts when another memory names it for sure", async () => {
    const { engine } = await emptyEngine();
    await engine.rememberMany(
      [
        "Grace moved her piano lessons to Thursdays",
        "Mateo van der Berg and Ana de la Cruz visited Aix-en-Provence in May",
        "the gym reopens on Monday, June 2",
        "I told Grace about Prof. Adeyemi's lecture",
        "Painting is fun, says Mateo",
        "Coffee is ready",
      ].map((text) => ({ text, at: "2026-11-02" })),
    );
    assert.deepEqual(await counts(engine), {
      Grace: "name 2",
      "Mateo van der Berg": "name 1",
      "Ana de la Cruz": "name 1",
      "Aix-en-Provence": "name 1",
      "Prof. Adeyemi": "name 1",
      Mateo: "name 1",
    });
  });

  test("a name known in one user's memories does not make another user's sentence opener a name", async () => {
    const { engine } = await emptyEngine();
    await engine.remember({ text: "I met Sam at the climbing gym", user: "alice", at: "2026-11-03" });
    await engine.remember({ text: "Sam is pescatarian", user: "bob", at: "2026-11-04" });
    const bob = async () => (await engine.entities({ filter: { user: "bob" } })).entities.map((e) => `${e.name} ${e.memories}`);
    assert.deepEqual(await bob(), [], "bob's store knows no Sam yet");
    await engine.remember({ text: "Lunch with Sam on Friday", user: "bob", at: "2026-11-05" });
    await engine.remember({ text: "Sam prefers the window seat", user: "bob", at: "2026-11-06" });
    assert.deepEqual(await bob(), ["Sam 2"], "now he does: the mid-sentence mention and the opener after it");
  });
});
