/**
 * The contract's whole-store copy case (ports/copy): a store holding every kind of record is copied into a new
 * store of the same backend in pages of two, and every section reads back record for record, the counts agree,
 * and searches, history and entities answer alike. Then a page written twice is refused and changes nothing.
 */
import assert from "node:assert/strict";
import { copyStore } from "../../src/api/migrate.js";
import { COPY_ORDER, type CopySection } from "../../src/ports/copy.js";
import type { Store } from "../../src/ports/store.js";
import { windowAt } from "../../src/time/windows.js";
import { at, DAY, edge, memoryIds, prepared, queryVector, RECORDED, seeded, stamp } from "./fixture.js";

/** Every record of a section, page after page. */
async function readAll(store: Store, section: CopySection): Promise<unknown[]> {
  const out: unknown[] = [];
  let after: string | null = null;
  do {
    const page: { records: unknown[]; next: string | null } = await store.copy.read(section, { after, limit: 3 });
    out.push(...page.records);
    after = page.next;
  } while (after !== null);
  return out;
}

/**
 * The source: memories (one indexed with another as its context), a correction, edges (one retracted),
 * suggestions (one decided), topics, a summary node, entities with an alias, meta.
 */
export async function fullStore(open: () => Promise<Store>) {
  const { store, ids } = await seeded(open);
  const named = await prepared([
    { text: "Maria reviewed the billing rollout.", at: at(7) },
    { text: "The Marias team signed off on billing.", at: at(8) },
  ]);
  named[0].entities = [{ name: "Maria", key: "maria", kind: "person" }];
  named[1].entities = [{ name: "Marias", key: "marias", kind: "name" }]; // a plural of a known entity: recorded as its alias
  named[1].contextOf = named[0].memory.id; // indexed with the turn before it
  await store.writeMemories(named, stamp);
  const [fixed] = await prepared([{ text: "We deployed the payments service to the old cluster.", at: at(1), topic: "ops.deploy", user: "alice" }]);
  await store.reviseMemory({ ...fixed, memory: { ...fixed.memory, id: ids[0] } }, stamp, RECORDED + DAY);
  await store.addEdges([edge(ids[4], ids[3])]);
  const [related] = await store.addEdges([edge(ids[1], ids[0], "relates_to")]);
  await store.retractEdge(related.id, RECORDED + 2 * DAY);
  await store.addSuggestions([
    { from: ids[5], to: ids[2], confidence: 0.6, reason: "same starter", createdAt: RECORDED },
    { from: ids[1], to: ids[0], confidence: 0.5, reason: "same deploy", createdAt: RECORDED },
  ]);
  const [first] = await store.listSuggestions("open");
  await store.decideSuggestion(first.id, "rejected", RECORDED + DAY);
  await store.saveTopic("ops", "operations", RECORDED);
  await store.saveTopic("archive.old", null, RECORDED + DAY);
  const [node] = await prepared([{ text: "The billing service was deployed.", at: at(1) }]);
  const day = windowAt("day", Date.parse(at(1)));
  await store.writeSummary({ ...node, memory: { ...node.memory, id: "p_day_contract", kind: "summary" } }, day, [ids[0]], stamp);
  await store.clearDirtyWindows([{ level: "day", start: day.start }]);
  await store.setMeta("contract.copy", "kept");
  return { store, ids };
}

export async function copyCase(open: () => Promise<Store>): Promise<void> {
  const { store: source, ids } = await fullStore(open);
  const target = await open();
  await copyStore(source, target, { batch: 2 });

  for (const section of COPY_ORDER) assert.deepEqual(await readAll(target, section), await readAll(source, section), `section ${section}`);
  const counts = await source.copy.counts();
  assert.deepEqual(await target.copy.counts(), counts);
  assert.deepEqual(counts, { memories: 8, summaries: 1, chunks: 9, revisions: 1, contexts: 1, edges: 2, suggestions: 2, topics: 2, entities: 1, mentions: 2 }, "the source holds every kind");

  // chunk ids are renumbered in memory order, and SQLite's contentless FTS5 keeps the token totals of content a
  // correction replaced (the copy's are exact), so hits and order are compared, not ids or scores
  const search = async (s: Store) => memoryIds(await s.searchBody({ words: ["billing"], depth: 10, filter: {} }));
  assert.deepEqual(await search(target), await search(source), "the same hits in the same order");
  const near = (s: Store) => s.nearestChunks({ vector: queryVector("billing postgres"), depth: 5, filter: {} });
  assert.deepEqual(memoryIds(await near(target)), memoryIds(await near(source)));
  assert.deepEqual(await target.edgesTouching(ids), await source.edgesTouching(ids));
  assert.deepEqual(await target.memoryRevisions(ids[0]), await source.memoryRevisions(ids[0]));
  assert.deepEqual(await target.summaryChildren("p_day_contract"), [ids[0]]);
  assert.deepEqual(await target.entities.list({ top: 10 }), await source.entities.list({ top: 10 }));
  assert.deepEqual((await target.entities.byKeys(["marias"])).map((e) => e.key), ["maria"], "the alias came along");
  assert.equal(await target.getMeta("contract.copy"), "kept");
  assert.deepEqual(await target.embedderStamp(), stamp);

  const page = await source.copy.read("memories", { after: null, limit: 2 });
  await assert.rejects(target.copy.write("memories", page.records), "a memory id the target holds is refused");
  assert.deepEqual(await target.copy.counts(), counts, "a refused page writes nothing");
  await source.close();
  await target.close();
}
