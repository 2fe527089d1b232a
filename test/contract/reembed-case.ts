/**
 * The contract's re-embedding case (ports/store StoreReembed): new vectors wait beside the live ones while the store
 * searches and writes with the old embedder; a chunk written or corrected meanwhile counts as not done; the switch
 * refuses while one lacks its new vector and changes nothing then; a resume keeps what was saved, another target
 * drops it; the switch puts every new vector in place, stamps the store and keeps the target's spec.
 */
import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { CascadeError } from "../../src/errors.js";
import type { Store } from "../../src/ports/store.js";
import { at, DAY, memoryIds, prepared, queryVector, RECORDED, seeded, stamp } from "./fixture.js";

const NEW_DIMS = 24;
/** Another space: a word's dimension from another hash, 24 of them. */
function otherVector(text: string): Float32Array {
  const v = new Float32Array(NEW_DIMS);
  for (const word of text.toLowerCase().match(/\p{L}+|\p{N}+/gu) ?? []) v[createHash("md5").update(word).digest()[1] % NEW_DIMS] += 1;
  const norm = Math.hypot(...v);
  return norm === 0 ? v : v.map((x) => x / norm);
}

const target = { stamp: { id: "contract-other-24", dimensions: NEW_DIMS }, spec: JSON.stringify({ provider: "glove" }) };

async function embedTodo(store: Store, limit = 1000): Promise<number> {
  const rows = await store.reembed.todo(0, limit);
  await store.reembed.save(rows.map((r) => ({ chunkId: r.chunkId, indexedText: r.indexedText, vector: otherVector(r.text) })));
  return rows.length;
}

export async function reembedCase(open: () => Promise<Store>): Promise<void> {
  const { store, ids } = await seeded(open);
  assert.deepEqual(await store.reembed.progress(), { target: null, done: 0, total: 6 });
  assert.deepEqual(await store.reembed.start(target), { kept: 0 });

  // the chunks to do come in id order, with the text their vector is made from
  const first = await store.reembed.todo(0, 2);
  assert.equal(first.length, 2);
  assert.equal(first[0].text, "We deployed the billing service to the new cluster.");
  assert.ok(first[0].chunkId < first[1].chunkId);
  assert.deepEqual((await store.reembed.todo(first[1].chunkId, 100)).length, 4, "after a chunk id: the rest");
  await store.reembed.save(first.map((r) => ({ chunkId: r.chunkId, indexedText: r.indexedText, vector: otherVector(r.text) })));
  assert.equal((await store.reembed.progress()).done, 2);

  // meanwhile the store answers and takes writes in the old space
  assert.deepEqual(await store.embedderStamp(), stamp);
  assert.equal(memoryIds(await store.nearestChunks({ vector: queryVector("sourdough starter lunch"), depth: 1, filter: {} }))[0], ids[2]);
  const [late] = await prepared([{ text: "A note written during the rebuild about kayaks.", at: at(7) }]);
  await store.writeMemories([late], stamp);
  const [fixed] = await prepared([{ text: "We deployed the payments service to the old cluster.", at: at(1) }]);
  await store.reviseMemory({ ...fixed, memory: { ...fixed.memory, id: ids[0] } }, stamp, RECORDED + DAY);

  // a resume keeps what was saved; the corrected chunk is not done any more
  assert.deepEqual(await store.reembed.start(target), { kept: 2 });
  assert.deepEqual(await store.reembed.progress(), { target, done: 1, total: 7 });
  // the switch refuses while chunks lack their new vector, and changes nothing
  assert.equal(await store.reembed.switchOver(), 6);
  assert.deepEqual(await store.embedderStamp(), stamp);

  assert.equal(await embedTodo(store), 6);
  assert.deepEqual((await store.reembed.todo(0, 100)).length, 0);
  assert.equal(await store.reembed.switchOver(), 0);
  assert.deepEqual(await store.embedderStamp(), target.stamp);
  assert.equal(await store.getMeta("embedder.spec"), target.spec);
  assert.deepEqual(await store.reembed.progress(), { target: null, done: 0, total: 7 });
  // searches now read the new vectors (24-d), and the old embedder's writes are refused
  assert.equal(memoryIds(await store.nearestChunks({ vector: otherVector("Lunch with Maria about the sourdough starter."), depth: 1, filter: {} }))[0], ids[2]);
  assert.equal(memoryIds(await store.nearestChunks({ vector: otherVector("A note written during the rebuild about kayaks."), depth: 1, filter: {} }))[0], late.memory.id);
  assert.equal(memoryIds(await store.nearestChunks({ vector: otherVector("We deployed the payments service to the old cluster."), depth: 1, filter: {} }))[0], ids[0]);
  const vectors: number[] = [];
  for await (const [, v] of store.allVectors()) vectors.push(v.length);
  assert.deepEqual([...new Set(vectors)], [NEW_DIMS]);
  const [refused] = await prepared([{ text: "Old space.", at: at(8) }]);
  await assert.rejects(store.writeMemories([refused], stamp), (e: unknown) => e instanceof CascadeError && e.code === "EMBEDDER_MISMATCH" && /cascade reembed --embedder/.test(e.message));

  // another target drops the vectors kept for the one before
  const back = { stamp, spec: null };
  await store.reembed.start(back);
  await store.reembed.save((await store.reembed.todo(0, 3)).map((r) => ({ chunkId: r.chunkId, indexedText: r.indexedText, vector: queryVector(r.text) })));
  assert.deepEqual(await store.reembed.start({ ...target, stamp: { id: "third", dimensions: 4 } }), { kept: 0 });
  assert.equal((await store.reembed.progress()).done, 0);
  await store.close();
}
