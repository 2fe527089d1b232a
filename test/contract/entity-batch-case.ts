/**
 * The contract's entity-batch case: the alias rules give the same entities, aliases and mentions whether a
 * sequence of memories is written as one batch or one memory at a time, because each mention sees what the
 * mentions before it in the batch did: an alias of an entity created earlier in the batch, a plural before and
 * after its singular (order decides), the same entity twice in one memory and in several, a short form absorbed
 * by a person named later in the batch (and a chain of them), a name that becomes a person, and the order a
 * person's short forms are tried in (shortest first).
 */
import assert from "node:assert/strict";
import type { ExtractedEntity, EntityKind } from "../../src/model/entity.js";
import type { Store } from "../../src/ports/store.js";
import { at, prepared, stamp } from "./fixture.js";

const named = (name: string, kind: EntityKind = "name", key = name.toLowerCase()): ExtractedEntity => ({ name, key, kind });

/** Each memory's mentions, in the batch's order. */
const SEQUENCE: ExtractedEntity[][] = [
  /* 0 */ [named("Mel")],
  /* 1 */ [named("Falcon"), named("Falcons")], // the plural of an entity the same memory created
  /* 2 */ [named("Melanie", "person")], // absorbs Mel: memory 0 now mentions Melanie
  /* 3 */ [named("Mel"), named("Falcons"), named("Falcon")], // an alias; one entity named twice counts once
  /* 4 */ [named("Teslas")], // a plural before its singular: two entities
  /* 5 */ [named("Tesla")],
  /* 6 */ [named("Rivera")],
  /* 7 */ [named("Riv")], // no person starts with it yet: an entity of its own
  /* 8 */ [named("Rivera", "person")], // becomes a person and absorbs Riv
  /* 9 */ [named("Ale")],
  /* 10 */ [named("Alex", "person")], // absorbs Ale
  /* 11 */ [named("Alexandra", "person")], // absorbs Alex, and Ale's alias with it
  /* 12 */ [named("Ale"), named("Riv")],
  /* 13 */ [named("Lore", "person")],
  /* 14 */ [named("LOR", "identifier", "lor")], // an identifier never takes a person's short form
  /* 15 */ [named("Lorena", "person")], // lor (two people start with it) is tried before lore, which is absorbed
  /* 16 */ [named("Teslas"), named("Tesla"), named("Lore")],
  /* 17 */ [named("Zoëlla", "person")],
  /* 18 */ [named("Zoë")], // a short form past ASCII: the stored people it could stand for are found all the same
];

/** What a reader sees: every entity with its count, what each alias key names, and each memory's entities. */
async function seen(store: Store, ids: string[]) {
  const entities = (await store.entities.list({ top: 100 })).map((e) => `${e.name}/${e.key}/${e.kind}:${e.memories}`).sort();
  const keys = [...new Set(SEQUENCE.flat().map((e) => e.key))].sort();
  const names = Object.fromEntries(await Promise.all(keys.map(async (k) => [k, (await store.entities.byKeys([k])).map((e) => e.name).join(",")])));
  const mentions = await store.entities.mentionsOf(ids);
  return { entities, names, mentions: ids.map((id, i) => `${i}: ${mentions.get(id)!.map((e) => e.name).sort().join(", ")}`) };
}

async function write(store: Store, batches: number[][]): Promise<string[]> {
  const memories = await prepared(SEQUENCE.map((_, i) => ({ text: `Memory number ${i} of the entity sequence.`, at: at(1 + i) })));
  for (const batch of batches) await store.writeMemories(batch.map((i) => ({ ...memories[i], entities: SEQUENCE[i] })), stamp);
  return memories.map((m) => m.memory.id);
}

export async function entityBatchCase(open: () => Promise<Store>): Promise<void> {
  const all = SEQUENCE.map((_, i) => i);
  const batched = await open();
  const one = await open();
  try {
    const inOne = await seen(batched, await write(batched, [all]));
    assert.deepEqual(inOne, {
      entities: [
        "Alexandra/alexandra/person:4",
        "Falcon/falcon/name:2",
        "LOR/lor/identifier:1",
        "Lorena/lorena/person:3",
        "Melanie/melanie/person:3",
        "Rivera/rivera/person:4",
        "Tesla/tesla/name:2",
        "Teslas/teslas/name:2",
        "Zoëlla/zoëlla/person:2",
      ],
      names: {
        ale: "Alexandra", alex: "Alexandra", alexandra: "Alexandra", falcon: "Falcon", falcons: "Falcon", lor: "LOR", lore: "Lorena", lorena: "Lorena",
        mel: "Melanie", melanie: "Melanie", riv: "Rivera", rivera: "Rivera", tesla: "Tesla", teslas: "Teslas", zoë: "Zoëlla", zoëlla: "Zoëlla",
      },
      mentions: [
        "0: Melanie", "1: Falcon", "2: Melanie", "3: Falcon, Melanie", "4: Teslas", "5: Tesla", "6: Rivera", "7: Rivera", "8: Rivera",
        "9: Alexandra", "10: Alexandra", "11: Alexandra", "12: Alexandra, Rivera", "13: Lorena", "14: LOR", "15: Lorena", "16: Lorena, Tesla, Teslas", "17: Zoëlla", "18: Zoëlla",
      ],
    });
    assert.deepEqual(await seen(one, await write(one, all.map((i) => [i]))), inOne, "one memory at a time writes what one batch writes");
  } finally {
    await batched.close();
    await one.close();
  }
}
