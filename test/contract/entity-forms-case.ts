/**
 * The contract's entity-forms case: an entity keeps only the forms some memory still names it
 * by. 'Mel' merged into 'Melanie' as an alias; forgetting the only memory that said 'Mel' forgets the alias, and
 * forgetting every memory that said 'Melanie' leaves the entity named 'Mel' (before, it kept the forgotten name).
 */
import assert from "node:assert/strict";
import type { ExtractedEntity } from "../../src/model/entity.js";
import type { Store } from "../../src/ports/store.js";
import { prepared, stamp } from "./fixture.js";

const melanie: ExtractedEntity = { name: "Melanie", key: "melanie", kind: "person" };
const mel: ExtractedEntity = { name: "Mel", key: "mel", kind: "name" };

export async function entityFormsCase(open: () => Promise<Store>): Promise<void> {
  const store = await open();
  const write = async (text: string, entity: ExtractedEntity, minute: number) => {
    const [p] = await prepared([{ text, at: `2026-01-05T12:0${minute}:00.000Z` }]);
    await store.writeMemories([{ ...p, entities: [entity] }], stamp);
    return p.memory.id;
  };
  const listed = async () => (await store.entities.list({ top: 10 })).map((e) => `${e.name}/${e.key}:${e.memories}`);
  const keyOf = async (key: string) => (await store.entities.byKeys([key])).map((e) => e.name);

  const painted = await write("I painted a sunset yesterday.", melanie, 1);
  const hiking = await write("Mel went hiking with her dog.", mel, 2);
  const lake = await write("Melanie said the lake was cold.", melanie, 3);
  assert.deepEqual(await listed(), ["Melanie/melanie:3"], "Mel is merged into Melanie");
  assert.deepEqual(await keyOf("mel"), ["Melanie"]);

  await store.deleteMemory(hiking);
  assert.deepEqual(await keyOf("mel"), [], "the only memory that said Mel is gone, and the alias with it");
  assert.deepEqual(await listed(), ["Melanie/melanie:2"]);

  const camping = await write("Hey Mel, how was the camping?", mel, 4);
  assert.deepEqual(await keyOf("mel"), ["Melanie"], "merged again");
  await store.deleteMemory(lake);
  // a correction of the one memory left saying 'Melanie', still saying it: the name stays, and so does the entity
  const id = (await store.entities.byKeys(["melanie"]))[0].id;
  const [fixed] = await prepared([{ text: "I painted a sunrise yesterday.", at: "2026-01-05T12:01:00.000Z" }]);
  await store.reviseMemory({ ...fixed, memory: { ...fixed.memory, id: painted }, entities: [melanie] }, stamp, Date.parse("2026-01-06T00:00:00Z"));
  assert.deepEqual(await listed(), ["Melanie/melanie:2"]);
  assert.equal((await store.entities.byKeys(["melanie"]))[0].id, id);
  await store.deleteMemory(painted);
  assert.deepEqual(await listed(), ["Mel/mel:1"], "no memory says Melanie any more: the entity is named as the one that is left says");
  assert.deepEqual(await keyOf("melanie"), []);

  await store.deleteMemory(camping);
  assert.deepEqual(await listed(), []);
  await store.close();
}
