/**
 * Entities written by a batch on PostgreSQL equal those SQLite writes: the same names, keys, kinds and counts,
 * including the alias rules' cases (a plural, a short form of a person's name seen before and after the full
 * name, a name that becomes a person), whether the batch's mentions go the set-based way or one at a time.
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import { openMemory, parseInstant } from "../src/index.js";

const now = parseInstant("now", "2026-03-01T12:00:00Z");

const turns = [
  "Jo said the Falcon project is late again.",
  "Joanna Smith joined the Falcon team from Acme Corp.",
  "The Falcons met Acme Corp about the contract on Monday.",
  "Jo thinks Acme Corp will sign; Joanna agrees.",
  "Dr. Rivera reviewed the Falcon budget with Joanna.",
  "Rivera and Jo went to Lisbon for the Acme Corp kickoff.",
  "Lisbon was rainy; the Falcon demo went well anyway.",
];

async function entitiesOf(path: string) {
  const engine = await openMemory({ path, now });
  try {
    // two batches: the second's mentions mostly name entities the first created
    await engine.rememberMany(turns.slice(0, 3).map((text, i) => ({ text, at: `2026-02-0${i + 1}T10:00:00Z`, speaker: i % 2 ? "Joanna" : "Sam" })));
    await engine.rememberMany(turns.slice(3).map((text, i) => ({ text, at: `2026-02-1${i}T10:00:00Z`, speaker: i % 2 ? "Sam" : "Joanna" })));
    const { entities } = await engine.entities({ top: 100 });
    return entities.map((e) => ({ name: e.name, key: e.key, kind: e.kind, memories: e.memories })).sort((a, b) => (a.key < b.key ? -1 : 1));
  } finally {
    await engine.close();
  }
}

test("a batch's entities on PostgreSQL (PGlite) are SQLite's: names, keys, kinds and counts", async () => {
  const sqlite = await entitiesOf(":memory:");
  assert.ok(sqlite.length >= 5, JSON.stringify(sqlite));
  assert.deepEqual(await entitiesOf("pglite:memory"), sqlite);
});
