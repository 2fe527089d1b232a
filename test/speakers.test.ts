/**
 * Who said it (query/speakers.ts): a candidate said by a person the query names gains a share of its score;
 * nothing is brought in, and a query naming everyone (or no one who speaks) changes nothing.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { test } from "node:test";
import { openMemory, parseInstant, type Hit } from "../src/index.js";
import { tempDir } from "./helpers.js";

const NOW = parseInstant("now", "2026-03-10T12:00:00Z");
const turn = (day: number, minute: number, speaker: string, text: string) => ({
  text,
  speaker,
  session: `day-${day}`,
  at: `2026-03-0${day}T10:${String(minute).padStart(2, "0")}:00Z`,
});
// each day's session is far from the others so that session neighbours stay out of the arithmetic below
const CHAT = [
  turn(2, 0, "Priya", "I finally booked the flights for our trip to Lisbon."),
  turn(3, 0, "Tomasz", "My sister recommended a small hotel near the old town for the Lisbon trip."),
  turn(4, 0, "Priya", "I want to try the custard tarts everyone talks about on the trip."),
  turn(5, 0, "Tomasz", "We should plan a day trip to the coast while we are there."),
  turn(6, 0, "Priya", "The plants on the balcony need watering."),
];

async function chat(engine: Parameters<typeof openMemory>[0] = {}) {
  const memory = await openMemory({ path: join(tempDir(), "chat.db"), now: NOW, ...engine });
  const ids = (await memory.rememberMany(CHAT)).ids as string[];
  return { memory, ids };
}

const raised = (h: Hit) => h.adjustments.find((a) => a.reason.includes("whom the query names"));
const factorOf = (a: Hit["adjustments"][number]) => ("factor" in a ? a.factor : NaN);

test("a question naming a speaker raises what that speaker said by the share, and only that", async () => {
  const { memory, ids } = await chat({ speakers: { share: 0.2 } });
  const r = await memory.recall("what did Priya say about the trip", { k: 20 });
  await memory.close();
  const byId = new Map(r.hits.map((h) => [h.id, h]));
  const [flights, hotel, tarts, coast, plants] = ids.map((id) => byId.get(id));
  assert.ok(flights && hotel && tarts && coast, "the four trip turns are hits");
  for (const h of [flights, tarts]) {
    const a = raised(h);
    assert.ok(a, `${h.text}: raised`);
    assert.equal(factorOf(a), 1.2);
    assert.match(a.reason, /^said by Priya, whom the query names$/);
  }
  for (const h of [hotel, coast]) assert.equal(raised(h), undefined, `${h.text}: Tomasz's turn is not raised`);
  // the score is the fused score times the factors listed, whatever else adjusted it
  for (const h of r.hits) {
    const product = h.adjustments.reduce((p, a) => p * factorOf(a), h.rrf);
    assert.ok(Math.abs(h.score - product) < 1e-12, `${h.text}: score = rrf × factors`);
  }
  // nothing brought in: the plants turn shares no word with the question, and was said by Priya
  if (plants) assert.ok(plants.sources_hit.some((c) => c !== "recency"), "a hit only if a channel found it");
});

test("a short form the store knows counts for its speaker", async () => {
  const { memory, ids } = await chat();
  // "Tom" becomes an alias of Tomasz once the store has seen him speak and a turn calls him Tom
  await memory.remember({ text: "Thanks Tom, the hotel looks lovely.", speaker: "Priya", session: "day-7", at: "2026-03-07T10:00:00Z" });
  const r = await memory.recall("which hotel did Tom find for the trip", { k: 20 });
  await memory.close();
  const hotel = r.hits.find((h) => h.id === ids[1]);
  assert.ok(hotel && raised(hotel), "Tomasz's hotel turn is raised for a question about Tom");
  assert.match(raised(hotel)!.reason, /said by Tomasz/);
});

test("no change when the query names everyone who speaks, no speaker, or one channel is asked alone; share 0 is off", async () => {
  const { memory } = await chat();
  for (const q of ["what did Priya and Tomasz plan for the trip", "what is planned for the trip", "what did Lisbon offer on the trip"]) {
    const r = await memory.recall(q, { k: 20 });
    assert.ok(r.hits.length > 0 && r.hits.every((h) => raised(h) === undefined), q);
  }
  const alone = await memory.recall("what did Priya say about the trip", { k: 20, channels: ["bm25"] });
  assert.ok(alone.hits.length > 0 && alone.hits.every((h) => raised(h) === undefined && h.score === h.rrf));
  await memory.close();

  const { memory: off } = await chat({ speakers: { share: 0 } });
  const r = await off.recall("what did Priya say about the trip", { k: 20 });
  await off.close();
  assert.ok(r.hits.every((h) => raised(h) === undefined));
});

test("the step's setting is checked like every engine setting", async () => {
  await assert.rejects(openMemory({ path: join(tempDir(), "bad.db"), speakers: { share: 2 } }), /speakers\.share/);
  await assert.rejects(openMemory({ path: join(tempDir(), "bad.db"), speakers: { share: -0.1 } }), /speakers\.share/);
});
