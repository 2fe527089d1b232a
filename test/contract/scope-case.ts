/**
 * The contract's scope case (model/scope.ts): a session shared by two users, an agent and an unscoped note. An
 * exact scope filters nearest chunks, session neighbours and the previous turn stay within a scope, and entity
 * lists and mentions given a filter know only the entities its memories mention, counted over them.
 */
import assert from "node:assert/strict";
import type { Store } from "../../src/ports/store.js";
import { parseFilterArg } from "../../src/query/where.js";
import { memoryIds, prepared, queryVector, stamp } from "./fixture.js";

const minute = (m: number) => `2026-01-05T12:0${m}:00.000Z`;

export async function scopeCase(open: () => Promise<Store>): Promise<void> {
  const store = await open();
  const turns = await prepared([
    { text: "Prefers window seats on flights with Iberia.", at: minute(1), session: "s1", user: "alice" },
    { text: "No longer prefers window seats; flies Iberia in the aisle.", at: minute(2), session: "s1", user: "bob" },
    { text: "Window seats on Iberia flights again, please.", at: minute(3), session: "s1", user: "alice" },
    { text: "Window seats are booked by the planner.", at: minute(4), session: "s1", user: "alice", agent: "planner" },
    { text: "Window seats cost extra on Hertz shuttles.", at: minute(5), session: "s1" },
  ]);
  const iberia = { name: "Iberia", key: "iberia", kind: "name" as const };
  [0, 1, 2].forEach((i) => (turns[i].entities = [iberia]));
  turns[4].entities = [{ name: "Hertz", key: "hertz", kind: "name" }];
  await store.writeMemories(turns, stamp);
  const [alice1, bob, alice2, planner, unscoped] = turns.map((t) => t.memory.id);

  const near = async (user: string | null, agent: string | null) =>
    memoryIds(await store.nearestChunks({ vector: queryVector("window seats"), depth: 10, filter: { scope: { user, agent } } })).sort();
  assert.deepEqual(await near("alice", null), [alice1, alice2].sort(), "Alice's own, not her agent's");
  assert.deepEqual(await near("alice", "planner"), [planner]);
  assert.deepEqual(await near(null, null), [unscoped], "the unscoped scope is the memories with neither");

  const neighbours = Object.fromEntries(await store.sessionNeighbours([alice1, bob, planner, unscoped], 1));
  assert.deepEqual(neighbours, {
    [alice1]: { session: "s1", before: [], after: [alice2] },
    [bob]: { session: "s1", before: [], after: [] },
    [planner]: { session: "s1", before: [], after: [] },
    [unscoped]: { session: "s1", before: [], after: [] },
  }, "a shared session's turns neighbour only their own scope's");
  const previous = async (user: string | null, agent: string | null) => (await store.previousInSession("s1", minute(6), { user, agent }))?.id ?? null;
  assert.deepEqual([await previous("alice", null), await previous("bob", null), await previous(null, null), await previous("carol", null)], [alice2, bob, unscoped, null]);

  const alice = { where: [parseFilterArg("user=alice")] };
  const counts = (list: { key: string; memories: number }[]) => Object.fromEntries(list.map((e) => [e.key, e.memories]));
  assert.deepEqual(counts(await store.entities.list({ top: 10 })), { iberia: 3, hertz: 1 });
  assert.deepEqual(counts(await store.entities.list({ top: 10, filter: alice })), { iberia: 2 }, "Alice's entities, counted over her memories");
  assert.deepEqual(counts(await store.entities.list({ top: 10, query: "iber", filter: { where: [parseFilterArg("user=bob")] } })), { iberia: 1 });
  assert.deepEqual(await store.entities.list({ top: 10, query: "hertz", filter: alice }), []);
  assert.deepEqual(counts((await store.entities.mentionsOf([alice1, unscoped], alice)).get(alice1)!), { iberia: 2 });
  assert.deepEqual((await store.entities.mentionsOf([unscoped], alice)).get(unscoped), [], "an entity no memory of the filter mentions is not there");
  assert.deepEqual(counts((await store.entities.mentionsOf([unscoped])).get(unscoped)!), { hertz: 1 });
  await store.close();
}
