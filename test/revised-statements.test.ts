/**
 * A message that says many things stays current when one of them changes (the edge names that statement); a
 * question about what that statement says now finds the memory that revised it first, even when the revision
 * shares none of the question's words. A question about another of its statements, or about the past, moves
 * nothing (query/revised-statements.ts).
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { test } from "node:test";
import { openMemory } from "../src/index.js";
import { tempDir } from "./helpers.js";

test("the revision of a statement a question asks about comes first; other statements and the past stay put", async () => {
  const memory = await openMemory({ path: join(tempDir(), "revised.db"), now: Date.parse("2026-11-20T12:00:00Z") });
  const say = (text: string, at: string) => memory.remember({ text, at, user: "ines", role: "user", speaker: "ines" });
  try {
    const intro = await say(
      "hello! a few basics. I live at 7 Rowan Terrace in York, YO10 3DD. My GP is Dr Okafor at Heslington surgery. I teach chemistry at Fulford School. I swim on Tuesdays.",
      "2026-11-01T09:00:00Z",
    );
    await say("can you find a plumber who can come on Thursday?", "2026-11-03T09:00:00Z");
    const moved = await say("got the keys!! 12 Minster Yard, YO1 7JF. the cat is already under the bed", "2026-11-12T09:00:00Z");
    const edge = (await memory.list({ limit: 50 })).edges.find((e) => e.type === "supersedes" && e.from === moved.id && e.to === intro.id);
    assert.ok(edge?.statement?.includes("Rowan Terrace"), "the edge names the address statement, not the whole message");

    const live = (await memory.recall("Where do I live now?", { k: 5, filter: { user: "ines" } })).hits;
    assert.equal(live[0].id, moved.id, "the new address first, though it says nothing of living");
    assert.ok(live[0].adjustments.some((a) => a.reason === `revises the statement of ${intro.id} that answers the question`));
    assert.ok(live.findIndex((h) => h.id === intro.id) > 0);

    const teach = (await memory.recall("Where do I teach?", { k: 5, filter: { user: "ines" } })).hits;
    assert.equal(teach[0].id, intro.id, "the school is still current: nothing is raised over it");

    const before = (await memory.recall("What was my address before I moved?", { k: 5, filter: { user: "ines" } })).hits;
    assert.ok(!before.some((h) => h.adjustments.some((a) => a.reason.startsWith("revises the statement"))), "a question about the past raises nothing");
  } finally {
    await memory.close();
  }
});

test("a short message in fragments: the edge names the fragment with the value, the fragment before it still answers for it, and a fact said in passing stays first for its own question", async () => {
  const memory = await openMemory({ path: join(tempDir(), "fragments.db"), now: Date.parse("2026-11-20T12:00:00Z") });
  const say = (text: string, at: string) => memory.remember({ text, at, user: "noor", role: "user", speaker: "noor" });
  try {
    const set = await say("Ravi and Jo picked a date!! 3 May 2027. My brother's birthday is 20 August, remind me in July", "2026-11-01T09:00:00Z");
    await say("can you look for a tailor near the market?", "2026-11-03T09:00:00Z");
    const moved = await say("the registry office only had 10 May 2027 left, so that's the date", "2026-11-12T09:00:00Z");
    const edge = (await memory.list({ limit: 50 })).edges.find((e) => e.type === "supersedes" && e.from === moved.id && e.to === set.id);
    assert.equal(edge?.statement, "3 May 2027.", "the sentence giving the value is named, so the birthday stays current");

    const wedding = (await memory.recall("When is Ravi and Jo's wedding?", { k: 5, filter: { user: "noor" } })).hits;
    assert.equal(wedding[0].id, moved.id, "the new date first: the fragment naming Ravi and Jo answers for the date beside it");
    const birthday = (await memory.recall("When is my brother's birthday?", { k: 5, filter: { user: "noor" } })).hits;
    assert.equal(birthday[0].id, set.id);
    assert.equal(birthday[0].status, "current");
  } finally {
    await memory.close();
  }
});
