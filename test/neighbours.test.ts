/**
 * Conversational locality (query/neighbours.ts): a candidate next to other candidates in its session gains a share
 * of their scores; nothing else moves, and nothing is brought in.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { test } from "node:test";
import { openMemory, parseInstant, type Hit } from "../src/index.js";
import { tempDir } from "./helpers.js";

const NOW = parseInstant("now", "2026-03-10T12:00:00Z");
const turn = (session: string, minute: number, speaker: string, text: string) => ({ text, speaker, session, at: `2026-03-0${session === "weekend" ? 7 : 9}T10:${String(minute).padStart(2, "0")}:00Z` });
const CHAT = [
  turn("weekend", 0, "Ana", "Did you go anywhere over the weekend?"),
  turn("weekend", 1, "Ben", "Yes, we drove up to the lake cabin with the kids."),
  turn("weekend", 2, "Ben", "The kids caught their first trout off the dock."),
  turn("weekend", 3, "Ana", "Nice! What bait did they use?"),
  turn("weekend", 4, "Ben", "Just worms from the garden."),
  turn("monday", 0, "Ben", "Our printer is out of toner again."),
  turn("monday", 1, "Ana", "I will order two cartridges today."),
  turn("monday", 2, "Ben", "The kids have a school concert next week."),
];
const QUERY = "where did the kids catch a trout";

async function chatStore(engine: Parameters<typeof openMemory>[0] = {}) {
  const memory = await openMemory({ path: join(tempDir(), "chat.db"), now: NOW, ...engine });
  const ids = (await memory.rememberMany(CHAT)).ids as string[];
  return { memory, ids };
}

const raisedBy = (h: Hit) => h.adjustments.find((a) => a.reason.includes("within 2 turns"));

test("a hit with other hits close by in its session gains 15% of their scores; an isolated one is left as it was", async () => {
  const { memory, ids } = await chatStore();
  const r = await memory.recall(QUERY, { k: 20 });
  await memory.close();
  const byId = new Map(r.hits.map((h) => [h.id, h]));
  const cabin = byId.get(ids[1])!;
  const trout = byId.get(ids[2])!;
  const concert = byId.get(ids[7])!;
  assert.ok(cabin && trout && concert, "the three turns that share the question's words are hits");
  assert.ok(!byId.has(ids[5]) && !byId.has(ids[6]), "the printer turns are not");
  // the two weekend turns are one turn apart: each gains 0.15 of the other's score (no other adjustment here)
  for (const [hit, other] of [[cabin, trout], [trout, cabin]]) {
    assert.ok(raisedBy(hit), `${hit.text}: raised`);
    const weekend = ids.slice(0, 5);
    const neighbours = r.hits.filter((h) => h !== hit && weekend.includes(h.id) && Math.abs(weekend.indexOf(h.id) - weekend.indexOf(hit.id)) <= 2);
    assert.ok(neighbours.includes(other));
    assert.ok(Math.abs(hit.score - (hit.rrf + 0.15 * neighbours.reduce((s, h) => s + h.rrf, 0))) < 1e-12, `${hit.text}: score = rrf + 0.15 × neighbours' rrf`);
  }
  assert.equal(raisedBy(concert), undefined, "the Monday turn has no hit within two turns");
  assert.equal(concert.score, concert.rrf);
  // nothing is brought in: every hit was found by a channel with evidence of its own
  for (const h of r.hits) assert.ok(h.sources_hit.some((c) => c !== "recency"), `${h.text} has a channel of its own`);
});

test("one channel asked alone answers with its own ranking; window 0 switches the step off; notes without a session are untouched", async () => {
  const { memory } = await chatStore();
  const alone = await memory.recall(QUERY, { k: 20, channels: ["bm25"] });
  await memory.close();
  assert.ok(alone.hits.length >= 2);
  assert.ok(alone.hits.every((h) => raisedBy(h) === undefined && h.score === h.rrf));

  const { memory: off } = await chatStore({ neighbours: { window: 0 } });
  const r = await off.recall(QUERY, { k: 20 });
  await off.close();
  assert.ok(r.hits.every((h) => raisedBy(h) === undefined));

  const notes = await openMemory({ path: join(tempDir(), "notes.db"), now: NOW });
  await notes.rememberMany(CHAT.map(({ session: _, ...note }) => note));
  const n = await notes.recall(QUERY, { k: 20 });
  await notes.close();
  assert.ok(n.hits.length >= 2 && n.hits.every((h) => raisedBy(h) === undefined));
});

test("the step's settings are checked like every engine setting", async () => {
  await assert.rejects(openMemory({ path: join(tempDir(), "bad.db"), neighbours: { window: -1 } }), /neighbours\.window/);
  await assert.rejects(openMemory({ path: join(tempDir(), "bad.db"), neighbours: { share: 2 } }), /neighbours\.share/);
});
