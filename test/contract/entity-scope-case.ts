/**
 * The contract's entity-scope case: a name's short form resolves only within the scope (user, agent) of the memories
 * that mention it. Alice's memories name the person "Rosalind"; Bob's say "Ros". Before, "ros" became an alias of
 * Alice's Rosalind on both backends (a short form of exactly one person's name, that person being anyone's), so
 * `entities --filter user=bob --query ros` listed Rosalind and `search Rosalind --filter user=bob` reached Bob's
 * memory through her. Each order is tried: Rosalind first (Bob's "Ros" must not resolve to her), "Ros" first
 * (Alice's Rosalind must not absorb Bob's "Ros"), and both in one batch (the PostgreSQL store plans a batch at once).
 * Alice's own "Ros" still resolves to her Rosalind.
 */
import assert from "node:assert/strict";
import type { ExtractedEntity } from "../../src/model/entity.js";
import type { Store } from "../../src/ports/store.js";
import { parseFilterArg } from "../../src/query/where.js";
import { prepared, stamp } from "./fixture.js";

const rosalind: ExtractedEntity = { name: "Rosalind", key: "rosalind", kind: "person" };
const ros: ExtractedEntity = { name: "Ros", key: "ros", kind: "name" };
type Line = { text: string; user: string; entity: ExtractedEntity };

const aliceSays: Line[] = [
  { text: "Rosalind booked the venue for the spring fair.", user: "alice", entity: rosalind },
  { text: "Rosalind asked for the budget sheet.", user: "alice", entity: rosalind },
];
const bobSays: Line = { text: "Ros from the rowing club lent me a paddle.", user: "bob", entity: ros };
const aliceShort: Line = { text: "Ros says the fair is on.", user: "alice", entity: ros };

const bob = { where: [parseFilterArg("user=bob")] };
const alice = { where: [parseFilterArg("user=alice")] };

async function check(store: Store, order: string, bobId: string, aliceShortId: string | null): Promise<void> {
  const names = (list: { name: string }[]) => list.map((e) => e.name).sort();
  assert.deepEqual(names(await store.entities.list({ top: 10, query: "ros", filter: bob })), ["Ros"], `${order}: Bob's entities for "ros" are his own`);
  assert.deepEqual(names((await store.entities.mentionsOf([bobId], bob)).get(bobId)!), ["Ros"], `${order}: Bob's memory mentions Ros, not Rosalind`);
  const [her] = (await store.entities.byKeys(["rosalind"])).filter((e) => e.name === "Rosalind");
  assert.ok(her, `${order}: Rosalind is an entity`);
  const reached = await store.entities.mentioning({ entityIds: [her.id], limit: 10, filter: bob });
  assert.deepEqual(reached, [], `${order}: Rosalind reaches none of Bob's memories`);
  assert.equal((await store.entities.list({ top: 10, query: "rosalind", filter: alice }))[0]?.memories, aliceShortId ? 3 : 2, `${order}: Alice's Rosalind counts her memories`);
  if (aliceShortId) assert.deepEqual(names((await store.entities.mentionsOf([aliceShortId], alice)).get(aliceShortId)!), ["Rosalind"], `${order}: Alice's own "Ros" is her Rosalind`);
}

export async function entityScopeCase(open: () => Promise<Store>): Promise<void> {
  const orders: [string, Line[][]][] = [
    ["Rosalind first", [aliceSays, [bobSays], [aliceShort]]],
    ["Ros first", [[bobSays], aliceSays, [aliceShort]]],
    ["one batch", [[bobSays, ...aliceSays, aliceShort]]],
  ];
  for (const [order, batches] of orders) {
    const store = await open();
    const ids = new Map<string, string>();
    let minute = 0;
    for (const batch of batches) {
      const memories = await prepared(batch.map((l) => ({ text: l.text, user: l.user, at: `2026-01-05T12:0${minute++}:00.000Z` })));
      await store.writeMemories(memories.map((p, i) => ({ ...p, entities: [batch[i].entity] })), stamp);
      memories.forEach((p, i) => ids.set(batch[i].text, p.memory.id));
    }
    await check(store, order, ids.get(bobSays.text)!, ids.get(aliceShort.text)!);
    await store.close();
  }
}
