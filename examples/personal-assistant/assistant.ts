/**
 * A personal assistant's long-term memory with the Cascade SDK: it keeps what the user says, records when a fact
 * changed, and answers from what is true now (saying what that replaced).
 *
 *   node dist/examples/personal-assistant/assistant.js [--db FILE] [--now ISO]
 */
import { parseArgs } from "node:util";
import { openMemory, parseInstant } from "cascade-memory";

const { values } = parseArgs({ options: { db: { type: "string", default: ":memory:" }, now: { type: "string" } } });
const memory = await openMemory({ path: values.db, ...(values.now && { now: parseInstant("now", values.now) }) });
// `user` scopes every memory: another user's never mix in
const sam = { user: "sam", speaker: "Sam", role: "user" };

// What Sam told the assistant over a few weeks.
await memory.remember({ ...sam, text: "I live in Berlin, in Prenzlauer Berg.", at: "2026-03-02T08:10:00Z" });
await memory.remember({ ...sam, text: "I'm allergic to peanuts, so no satay for me.", at: "2026-03-09T19:30:00Z" });
await memory.remember({ ...sam, text: "My sister Mia's birthday is on 14 July.", at: "2026-04-11T12:00:00Z" });

// Then Sam moved. The assistant looks up what this changes and records it as replacing that: the old memory
// stays (its history is kept) but is marked superseded, and searches put the new one first.
const [home] = (await memory.recall("where does Sam live", { filter: { user: "sam" }, k: 1 })).hits;
await memory.remember({ ...sam, text: "We moved to Munich last weekend; I live in Schwabing now.", at: "2026-05-18T09:00:00Z", supersedes: [home.id] });
console.log("Remembered 4 things Sam said; the move replaces where Sam lived.");

for (const question of ["Where does Sam live?", "What is Sam allergic to?", "When is Mia's birthday?"]) {
  const { hits } = await memory.recall(question, { filter: { user: "sam" }, k: 3 });
  const best = hits.find((h) => h.status === "current")!;
  console.log(`\nQ: ${question}\nA: "${best.text}" (${best.speaker}, ${best.at.slice(0, 10)})`);
  for (const id of best.supersedes) {
    const old = await memory.show(id);
    console.log(`   no longer true: "${old.text}" (${old.at.slice(0, 10)})`);
  }
}
await memory.close();
