/**
 * The contract's enrichment case: a step that failed on a memory is written with it, in its transaction; a second
 * failure counts one more attempt; a retry that works clears the row (entities: with the mentions it found); the
 * rows go with their memory.
 */
import assert from "node:assert/strict";
import type { Store } from "../../src/ports/store.js";
import { prepared, stamp } from "./fixture.js";

export async function enrichmentCase(open: () => Promise<Store>): Promise<void> {
  const store = await open();
  const [a, b, c] = await prepared([
    { text: "My flight to Oslo is on Monday.", at: "2026-01-05T12:01:00.000Z" },
    { text: "The flight moved to Tuesday.", at: "2026-01-05T12:02:00.000Z" },
    { text: "Lunch with Priya.", at: "2026-01-05T12:03:00.000Z" },
  ]);
  const T = Date.parse("2026-01-06T00:00:00Z");
  await store.writeMemories([
    { ...a, failures: [{ step: "entities", reason: "RangeError: Invalid array length", at: T }] },
    { ...b, failures: [{ step: "topic", reason: "TypeError: no", at: T + 1 }] },
    c,
  ], stamp);
  await store.enrichment.record([
    { memoryId: b.memory.id, step: "revisions", reason: "TypeError: cannot read", at: T + 2 },
    { memoryId: "m_gone", step: "revisions", reason: "left out", at: T },
  ]);
  let pending = await store.enrichment.pending(10);
  assert.deepEqual(pending.byStep, { entities: 1, revisions: 1, topic: 1 });
  assert.deepEqual(pending.first.map((f) => [f.memoryId, f.step, f.at, f.attempts]), [
    [a.memory.id, "entities", T, 1],
    [b.memory.id, "topic", T + 1, 1],
    [b.memory.id, "revisions", T + 2, 1],
  ]);
  assert.equal(pending.first[0].reason, "RangeError: Invalid array length");
  assert.equal((await store.enrichment.pending(1)).first.length, 1, "the limit bounds the list, not the counts");

  // failed again: the new reason and time, one more attempt
  await store.enrichment.record([{ memoryId: b.memory.id, step: "revisions", reason: "TypeError: still", at: T + 3 }]);
  pending = await store.enrichment.pending(10);
  assert.deepEqual(pending.first.find((f) => f.step === "revisions"), { memoryId: b.memory.id, step: "revisions", reason: "TypeError: still", at: T + 3, attempts: 2 });

  // retries that worked
  await store.enrichment.attachEntities(a.memory.id, [{ name: "Oslo", key: "oslo", kind: "name" }]);
  assert.deepEqual((await store.entities.mentionsOf([a.memory.id])).get(a.memory.id)?.map((e) => e.name), ["Oslo"]);
  await store.enrichment.clear(b.memory.id, "revisions");
  assert.deepEqual((await store.enrichment.pending(10)).byStep, { topic: 1 });

  // the rows go with their memory
  await store.deleteMemory(b.memory.id);
  assert.deepEqual(await store.enrichment.pending(10), { byStep: {}, first: [] });
  await store.close();
}
