/**
 * The store port's contract: what every backend must do, written once against `Store` and run by a few lines
 * per backend (sqlite.test.ts, ...). A backend that cannot do something names the case in `skips` with its
 * reason, and the case is reported as skipped with that reason: never silently passed.
 */
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { CascadeError } from "../../src/errors.js";
import type { SearchFilter } from "../../src/model/types.js";
import type { Store } from "../../src/ports/store.js";
import { parseFilterArg } from "../../src/query/where.js";
import { windowAt } from "../../src/time/windows.js";
import { copyCase } from "./copy-case.js";
import { copyResumeCase } from "./copy-resume-case.js";
import { enrichmentCase } from "./enrichment-case.js";
import { reembedCase } from "./reembed-case.js";
import { entityBatchCase } from "./entity-batch-case.js";
import { entityFormsCase } from "./entity-forms-case.js";
import { entityScopeCase } from "./entity-scope-case.js";
import { scopeCase } from "./scope-case.js";
import { at, DAY, edge, memoryIds, prepared, queryVector, RECORDED, seeded, stamp } from "./fixture.js";

export const CONTRACT_CASES = [
  "writes and reads memories",
  "lexical search takes words, never syntax",
  "index keys group the words one list serves",
  "curated search reads titles, descriptions and tags",
  "nearest chunks by cosine",
  "nearest chunks for many vectors: what one at a time finds, in the order asked",
  "every channel and the list apply one filter alike",
  "lists page in event-time order",
  "deleting a memory removes it from every index",
  "edges: cycles and unknown memories refused, retraction kept",
  "a batch of edges is written or refused as one edge at a time would be",
  "an edge may name the statement of the older memory it replaces, one at a time and in a batch",
  "suggestions are recorded once and decided once",
  "writes mark their calendar windows dirty",
  "a summary is not written from a memory that no longer exists",
  "an entity keeps only the forms some memory names it by",
  "a batch's mentions resolve as one memory at a time would",
  "topics re-path all or nothing",
  "small values and housekeeping",
  "a correction replaces the content and keeps the revision",
  "expired memories leave every channel and the list",
  "a whole store copies into another, ids and times kept",
  "a copy stopped part-way is marked, and resumes from its mark",
  "memories know their neighbours in their session",
  "memories say who spoke them",
  "scope: exact-scope filter, neighbours, previous turn and entity counts within one scope",
  "a name's aliases resolve within the scope of the memories that mention it",
  "failed enrichment is recorded with its memory until a retry clears it",
  "a re-embedding builds beside the live vectors and switches in one step",
] as const;

export type ContractCase = (typeof CONTRACT_CASES)[number];

const cases: Record<ContractCase, (open: () => Promise<Store>) => Promise<void>> = {
  "expired memories leave every channel and the list": expiryCase,
  "a whole store copies into another, ids and times kept": copyCase,
  "a re-embedding builds beside the live vectors and switches in one step": reembedCase,
  "a copy stopped part-way is marked, and resumes from its mark": copyResumeCase,
  "an entity keeps only the forms some memory names it by": entityFormsCase,
  "a batch's mentions resolve as one memory at a time would": entityBatchCase,
  "scope: exact-scope filter, neighbours, previous turn and entity counts within one scope": scopeCase,
  "a name's aliases resolve within the scope of the memories that mention it": entityScopeCase,
  "failed enrichment is recorded with its memory until a retry clears it": enrichmentCase,
  async "memories know their neighbours in their session"(open) {
    const store = await open();
    // written out of order, two at one instant (insertion order decides), another session, no session
    const turns = await prepared([
      { text: "Third turn of the morning.", at: at(1).replace("12:00", "12:03"), session: "morning" },
      { text: "First turn of the morning.", at: at(1).replace("12:00", "12:01"), session: "morning" },
      { text: "Second turn of the morning.", at: at(1).replace("12:00", "12:02"), session: "morning" },
      { text: "Also the third minute, written later.", at: at(1).replace("12:00", "12:03"), session: "morning" },
      { text: "The evening starts.", at: at(1).replace("12:00", "20:00"), session: "evening" },
      { text: "A note outside any session.", at: at(1) },
    ]);
    await store.writeMemories(turns, stamp);
    const [third, first, second, alsoThird, evening, note] = turns.map((m) => m.memory.id);
    const near = await store.sessionNeighbours([first, second, third, alsoThird, evening, note, "m_none"], 2);
    assert.deepEqual(Object.fromEntries(near), {
      [first]: { session: "morning", before: [], after: [second, third] },
      [second]: { session: "morning", before: [first], after: [third, alsoThird] },
      [third]: { session: "morning", before: [second, first], after: [alsoThird] },
      [alsoThird]: { session: "morning", before: [third, second], after: [] },
      [evening]: { session: "evening", before: [], after: [] },
    });
    assert.deepEqual((await store.sessionNeighbours([second], 1)).get(second), { session: "morning", before: [first], after: [third] });
    assert.deepEqual(await store.sessionNeighbours([], 2), new Map());
    await store.deleteMemory(second);
    assert.deepEqual((await store.sessionNeighbours([third], 1)).get(third), { session: "morning", before: [first], after: [alsoThird] }, "a forgotten turn is no one's neighbour");
    await store.close();
  },
  async "memories say who spoke them"(open) {
    const store = await open();
    const turns = await prepared([
      { text: "I moved the standup to ten.", at: at(1), speaker: "Priya", session: "s" },
      { text: "Fine by me.", at: at(1).replace("12:00", "12:01"), speaker: "Tomasz O'Neil", session: "s" },
      { text: "A note nobody said.", at: at(2) },
    ]);
    await store.writeMemories(turns, stamp);
    const [priya, tomasz, note] = turns.map((m) => m.memory.id);
    assert.deepEqual(Object.fromEntries(await store.speakersOf([priya, tomasz, note, "m_none"])), { [priya]: "Priya", [tomasz]: "Tomasz O'Neil" });
    assert.deepEqual(await store.speakersOf([]), new Map());
    await store.deleteMemory(priya);
    assert.deepEqual([...(await store.speakersOf([priya, tomasz])).keys()], [tomasz], "a forgotten memory says nothing");
    await store.close();
  },
  async "a correction replaces the content and keeps the revision"(open) {
    const { store, ids } = await seeded(open);
    const [fixed] = await prepared([{ text: "We deployed the payments service to the old cluster.", at: at(1), topic: "ops.deploy", user: "alice" }]);
    await store.addEdges([edge(ids[1], ids[0], "relates_to")]);
    await store.reviseMemory({ ...fixed, memory: { ...fixed.memory, id: ids[0] } }, stamp, RECORDED + DAY);
    assert.equal((await store.getMemory(ids[0]))?.text, "We deployed the payments service to the old cluster.");
    assert.deepEqual(memoryIds(await store.searchBody({ words: ["payments"], depth: 5, filter: {} })), [ids[0]]);
    assert.ok(!memoryIds(await store.searchBody({ words: ["billing"], depth: 10, filter: {} })).includes(ids[0]), "the old words are out of the index");
    assert.equal((await store.edgesTouching([ids[0]])).length, 1, "edges are kept");
    const revisions = await store.memoryRevisions(ids[0]);
    assert.deepEqual(revisions.map((r) => [r.recordedAt, r.memory.text]), [[RECORDED + DAY, "We deployed the billing service to the new cluster."]]);
    assert.equal((await store.stats()).chunks, 6);
    await assert.rejects(store.reviseMemory({ ...fixed, memory: { ...fixed.memory, id: "m_none" } }, stamp, RECORDED), CascadeError);
    await store.close();
  },

  async "writes and reads memories"(open) {
    const store = await open();
    assert.equal(await store.embedderStamp(), null, "a new store has no embedder stamp");
    await store.close();
    const { store: s, ids } = await seeded(open);
    assert.deepEqual(await s.embedderStamp(), stamp);
    const m = await s.getMemory(ids[0]);
    assert.equal(m?.text, "We deployed the billing service to the new cluster.");
    assert.equal(m?.topic, "ops.deploy");
    assert.equal(m?.user, "alice");
    assert.deepEqual(m?.metadata, { priority: 1, team: "core" });
    assert.equal((await s.getMemory(ids[2]))?.title, "Sourdough notes");
    assert.deepEqual((await s.getMemory(ids[2]))?.tags, ["baking"]);
    assert.equal(await s.getMemory("m_nothing"), null);
    // several at once: each found memory once, equal to the single read, an unknown id left out
    const many = await s.getMemories([ids[2], "m_nothing", ids[0], ids[2]]);
    assert.deepEqual([...many.keys()].sort(), [ids[0], ids[2]].sort());
    assert.deepEqual(many.get(ids[0]), m);
    assert.equal(many.get(ids[2])?.title, "Sourdough notes");
    assert.equal((await s.getMemories([])).size, 0);
    const stats = await s.stats();
    assert.equal(stats.memories, 6);
    assert.equal(stats.chunks, 6);
    await s.close();
  },

  async "lexical search takes words, never syntax"(open) {
    const { store, ids } = await seeded(open);
    const hits = await store.searchBody({ words: ["billing", "timeouts"], depth: 10, filter: {} });
    assert.equal(hits[0].memoryId, ids[1], "the chunk holding both words ranks first");
    assert.ok(memoryIds(hits).includes(ids[0]) && memoryIds(hits).includes(ids[3]));
    for (const hostile of [['"'], ["near(", "and", "or", "not"], ["*"], ["title:billing"], ["'; drop table memories; --"]]) {
      await store.searchBody({ words: hostile, depth: 5, filter: {} });
      await store.searchCurated({ words: hostile, depth: 5, filter: {} });
    }
    assert.deepEqual(await store.searchBody({ words: [], depth: 5, filter: {} }), []);
    assert.equal((await store.stats()).memories, 6, "hostile words changed nothing");
    await store.close();
  },

  async "index keys group the words one list serves"(open) {
    const { store } = await seeded(open);
    const words = ["deployed", "deployment", "deploy", "billing", "starter"];
    const keys = await store.indexKeys(words);
    assert.deepEqual([...keys.keys()].sort(), [...words].sort(), "every word gets a key");
    const lists = await store.chunksWithTerms({ terms: words, filter: {} });
    for (const a of words)
      for (const b of words)
        if (keys.get(a) === keys.get(b)) assert.deepEqual([...lists.get(a)!].sort(), [...lists.get(b)!].sort(), `${a} and ${b} share a key, so one list`);
    assert.equal(lists.get("starter")!.length, 2);
    // a word's list holds at least every chunk whose text has the word as it is
    const owners = await store.memoryIdsOfChunks(lists.get("deployed")!);
    assert.ok([...owners.values()].includes((await store.memoryIdsInOrder())[0]));
    await store.close();
  },

  async "curated search reads titles, descriptions and tags"(open) {
    const { store, ids } = await seeded(open);
    assert.deepEqual(memoryIds(await store.searchCurated({ words: ["sourdough"], depth: 5, filter: {} })), [ids[2]]);
    assert.deepEqual(memoryIds(await store.searchCurated({ words: ["baking"], depth: 5, filter: {} })), [ids[2]]);
    assert.deepEqual(memoryIds(await store.searchCurated({ words: ["bread"], depth: 5, filter: {} })), [ids[5]]);
    assert.deepEqual(await store.searchCurated({ words: ["billing"], depth: 5, filter: {} }), [], "bodies are not curated text");
    await store.close();
  },

  async "nearest chunks by cosine"(open) {
    const { store, ids } = await seeded(open);
    const near = await store.nearestChunks({ vector: queryVector("Billing moves from Postgres to DynamoDB."), depth: 3, filter: {} });
    assert.equal(near[0].memoryId, ids[4]);
    assert.ok(Math.abs(near[0].score - 1) < 1e-5, "the same text has cosine 1");
    for (let i = 1; i < near.length; i++) assert.ok(near[i - 1].score >= near[i].score, "best first");
    const nul = await store.similarityNull(queryVector("billing"));
    assert.ok(nul.rows >= 1 && Number.isFinite(nul.mean) && nul.sd >= 0);
    let vectors = 0;
    for await (const [, v] of store.allVectors()) {
      vectors++;
      assert.equal(v.length, stamp.dimensions);
    }
    assert.equal(vectors, 6);
    await store.close();
  },

  async "every channel and the list apply one filter alike"(open) {
    const { store, ids } = await seeded(open);
    const filters: [string, SearchFilter, number[]][] = [
      ["user=alice", { where: [parseFilterArg("user=alice")] }, [0, 2, 3]],
      ["priority>=3", { where: [parseFilterArg("priority>=3")] }, [1, 3, 4]],
      ["team!=core", { where: [parseFilterArg("team!=core")] }, [1, 2, 3, 4, 5]],
      // tags are a filter like any other: the memory's own tags, not a metadata field of that name
      ["tags=baking", { where: [parseFilterArg("tags=baking")] }, [2]],
      ["tags=x|baking", { where: [parseFilterArg("tags=x|baking")] }, [2]],
      ["tags!=baking", { where: [parseFilterArg("tags!=baking")] }, [0, 1, 3, 4, 5]],
      ["tags>=b", { where: [parseFilterArg("tags>=b")] }, [2]],
      ["under ops", { under: "ops" }, [0, 1, 3, 4]],
      ["topics life", { topics: ["life"] }, [2]],
      ["kinds decision", { kinds: ["decision"] }, [3, 4]],
      ["exclude decision", { excludeKinds: ["decision"] }, [0, 1, 2, 5]],
      ["days 2-4", { since: Date.parse(at(2)), until: Date.parse(at(4)) }, [1, 2]],
    ];
    const everything = ["billing", "deployed", "deployment", "postgres", "starter", "sourdough", "lunch", "rye", "dynamodb", "cluster", "timeouts", "flour"];
    for (const [name, filter, expected] of filters) {
      const want = expected.map((i) => ids[i]).sort();
      const body = memoryIds(await store.searchBody({ words: everything, depth: 50, filter })).sort();
      assert.deepEqual(body, want, `bm25 with ${name}`);
      const near = memoryIds(await store.nearestChunks({ vector: queryVector("billing starter"), depth: 50, filter })).sort();
      assert.deepEqual(near, want, `dense with ${name}`);
      const lists = await store.chunksWithTerms({ terms: everything, filter });
      const owners = await store.memoryIdsOfChunks([...new Set([...lists.values()].flat())]);
      assert.deepEqual([...new Set(owners.values())].sort(), want, `late interaction with ${name}`);
      const listed = await store.listMemories({ filter, limit: 50, order: "asc" });
      assert.deepEqual(listed.memories.map((m) => m.id).sort(), want, `list with ${name}`);
    }
    await store.close();
  },

  async "nearest chunks for many vectors: what one at a time finds, in the order asked"(open) {
    const { store } = await seeded(open);
    const vectors = ["billing postgres", "sourdough bread", "starter plan"].map(queryVector);
    const oneByOne = [];
    for (const vector of vectors) oneByOne.push(await store.nearestChunks({ vector, depth: 4, filter: {} }));
    assert.deepEqual(await store.nearestChunksMany({ vectors, depth: 4 }), oneByOne);
    assert.deepEqual(await store.nearestChunksMany({ vectors: [], depth: 4 }), []);
    await store.close();
  },

  async "lists page in event-time order"(open) {
    const { store, ids } = await seeded(open);
    const seen: string[] = [];
    let page = await store.listMemories({ filter: {}, limit: 4, order: "desc" });
    seen.push(...page.memories.map((m) => m.id));
    assert.equal(page.more, true);
    const last = page.memories.at(-1)!;
    page = await store.listMemories({ filter: {}, limit: 4, order: "desc", after: { at: Date.parse(last.at), id: last.id } });
    seen.push(...page.memories.map((m) => m.id));
    assert.equal(page.more, false);
    assert.deepEqual(seen, [...ids].reverse());
    const bySpeaker = await store.listMemories({ filter: {}, speakers: ["nobody"], limit: 10, order: "asc" });
    assert.deepEqual(bySpeaker.memories, []);
    assert.deepEqual(await store.memoryIdsInOrder(), ids);
    const times = await store.eventTimes([ids[0], ids[5]]);
    assert.equal(times.get(ids[5])! - times.get(ids[0])!, 5 * DAY);
    await store.close();
  },

  async "deleting a memory removes it from every index"(open) {
    const { store, ids } = await seeded(open);
    await store.addEdges([edge(ids[4], ids[3])]);
    const [turn] = await prepared([{ text: "Summary: Postgres serves billing.", at: at(4) }]);
    const instant = { level: "turn" as const, start: Date.parse(at(4)), end: Date.parse(at(4)) + 1 };
    assert.equal(await store.writeSummary({ ...turn, memory: { ...turn.memory, id: "p_turn_contract", kind: "summary" } }, instant, [ids[3]], stamp), true);
    assert.equal(await store.deleteMemory(ids[3]), true);
    assert.equal(await store.getMemory("p_turn_contract"), null, "its turn-level summary goes in the same transaction");
    assert.equal(await store.deleteMemory(ids[3]), false, "a second delete finds nothing");
    assert.equal(await store.getMemory(ids[3]), null);
    assert.ok(!memoryIds(await store.searchBody({ words: ["postgres", "primary"], depth: 10, filter: {} })).includes(ids[3]));
    assert.ok(!memoryIds(await store.nearestChunks({ vector: queryVector("Postgres is the primary store for billing."), depth: 10, filter: {} })).includes(ids[3]));
    const lists = await store.chunksWithTerms({ terms: ["primary"], filter: {} });
    assert.deepEqual(lists.get("primary"), []);
    assert.deepEqual(await store.edgesTouching([ids[3]]), [], "its edges go with it");
    assert.equal((await store.stats()).memories, 5);
    const purged = await store.purgeDeleted();
    assert.ok(purged.terms_dropped >= 1, "words only it held are dropped");
    await store.close();
  },

  async "edges: cycles and unknown memories refused, retraction kept"(open) {
    const { store, ids } = await seeded(open);
    const [a] = await store.addEdges([edge(ids[4], ids[3])]);
    await assert.rejects(store.addEdges([edge(ids[3], ids[4])]), CascadeError, "a supersedes cycle is refused");
    await assert.rejects(store.addEdges([edge(ids[1], ids[0]), edge(ids[0], "m_missing")]), CascadeError, "an unknown memory is refused");
    assert.deepEqual(await store.edgesTouching([ids[0]]), [], "a refused batch writes none of its edges");
    const retracted = await store.retractEdge(a.id, RECORDED + DAY);
    assert.equal(retracted.retractedAt, RECORDED + DAY);
    const kept = await store.edgesTouching([ids[3]]);
    assert.equal(kept.length, 1, "a retracted edge stays in history");
    assert.equal(kept[0].retractedAt, RECORDED + DAY);
    await store.addEdges([edge(ids[3], ids[4], "contradicts")]);
    assert.equal((await store.edgesTouching([ids[4]], "contradicts")).length, 1);
    await store.close();
  },

  async "an edge may name the statement of the older memory it replaces, one at a time and in a batch"(open) {
    const { store, ids } = await seeded(open);
    const statement = "The mooring fee is 180 pounds a month.";
    const [one] = await store.addEdges([{ ...edge(ids[4], ids[3]), statement }]);
    assert.equal(one.statement, statement);
    const batch = await store.addEdges([{ ...edge(ids[2], ids[1]), statement: "Standup is at 9." }, edge(ids[1], ids[0])]);
    assert.deepEqual(batch.map((e) => e.statement), ["Standup is at 9.", null]);
    const read = await store.edgesTouching([ids[3], ids[1], ids[0]]);
    assert.deepEqual(read.map((e) => [e.to, e.statement]).sort(), [[ids[0], null], [ids[1], "Standup is at 9."], [ids[3], statement]].sort(), "read back as written");
    await store.close();
  },

  async "a batch of edges is written or refused as one edge at a time would be"(open) {
    const { store, ids } = await seeded(open);
    const chain = await store.addEdges([edge(ids[5], ids[4]), edge(ids[4], ids[3]), edge(ids[5], ids[0], "relates_to"), edge(ids[3], ids[2])]);
    assert.deepEqual(chain.map((e) => [e.from, e.to, e.type]), [[ids[5], ids[4], "supersedes"], [ids[4], ids[3], "supersedes"], [ids[5], ids[0], "relates_to"], [ids[3], ids[2], "supersedes"]]);
    assert.equal(new Set(chain.map((e) => e.id)).size, 4);
    assert.deepEqual((await store.edgesTouching([ids[4]])).map((e) => e.id).sort(), [chain[0].id, chain[1].id].sort(), "read back as written");
    const refused: [string, Parameters<Store["addEdges"]>[0], RegExp][] = [
      ["a cycle within the batch", [edge(ids[1], ids[0]), edge(ids[0], ids[1])], /already supersedes/],
      ["a cycle through the stored chain", [edge(ids[1], ids[0]), edge(ids[2], ids[5])], /already supersedes/],
      ["a supersession already stored", [edge(ids[1], ids[0]), edge(ids[4], ids[3])], /already supersedes/],
      ["the same supersession twice", [edge(ids[1], ids[0]), edge(ids[1], ids[0])], /already supersedes/],
      ["a memory relating to itself", [edge(ids[1], ids[0]), edge(ids[2], ids[2], "relates_to")], /itself/],
      ["an unknown memory", [edge(ids[1], ids[0]), edge(ids[1], "m_missing", "relates_to")], /no memory/],
    ];
    for (const [what, batch, message] of refused) {
      await assert.rejects(store.addEdges(batch), (e: unknown) => e instanceof CascadeError && message.test(e.message), what);
      assert.deepEqual(await store.edgesTouching([ids[0], ids[1]]), [chain[2]], `${what}: none of the batch is written`);
    }
    // a retracted supersession no longer closes a cycle
    await store.retractEdge(chain[1].id, RECORDED + DAY);
    assert.equal((await store.addEdges([edge(ids[2], ids[5]), edge(ids[1], ids[0])])).length, 2);
    await store.close();
  },

  async "suggestions are recorded once and decided once"(open) {
    const { store, ids } = await seeded(open);
    const s = { from: ids[4], to: ids[3], confidence: 0.6, reason: "same subject", createdAt: RECORDED };
    await store.addSuggestions([s]);
    await store.addSuggestions([{ ...s, confidence: 0.7 }]);
    const open1 = await store.listSuggestions("open");
    assert.equal(open1.length, 1);
    assert.equal(open1[0].confidence, 0.6, "the first record is kept");
    const decided = await store.decideSuggestion(open1[0].id, "accepted", RECORDED + 1, edge(ids[4], ids[3]));
    assert.equal(decided.status, "accepted");
    assert.equal((await store.edgesTouching([ids[3]], "supersedes")).length, 1, "accepting adds its edge");
    await assert.rejects(store.decideSuggestion(open1[0].id, "rejected", RECORDED + 2));
    await store.close();
  },

  async "writes mark their calendar windows dirty"(open) {
    const { store, ids } = await seeded(open);
    const dirty = await store.dirtyWindows();
    const zone = await store.pyramidZone();
    assert.equal(zone, "UTC");
    for (const level of ["day", "week", "month"] as const) {
      assert.ok(dirty.some((w) => w.level === level && w.start === windowAt(level, Date.parse(at(1))).start), `the ${level} of the first memory`);
    }
    await store.clearDirtyWindows(dirty);
    assert.deepEqual(await store.dirtyWindows(), []);
    await store.addEdges([edge(ids[4], ids[3])]);
    assert.ok((await store.dirtyWindows()).some((w) => w.level === "day" && w.start === windowAt("day", Date.parse(at(4))).start), "an edge dirties the windows of what it touches");
    const inputs = await store.windowInputs(windowAt("day", Date.parse(at(2))));
    assert.deepEqual(inputs.map((m) => m.id), [ids[1]]);
    await store.close();
  },

  async "a summary is not written from a memory that no longer exists"(open) {
    const { store, ids } = await seeded(open);
    const day = windowAt("day", Date.parse(at(1)));
    const [node] = await prepared([{ text: "The billing service was deployed.", at: at(1) }]);
    const summary = { ...node, memory: { ...node.memory, id: "p_day_contract", kind: "summary" as const } };
    assert.equal(await store.writeSummary(summary, day, [ids[0]], stamp, [ids[0], ids[1]]), true);
    assert.equal((await store.pyramidNodes({ level: "day" })).length, 1);
    assert.equal(await store.deleteMemory(ids[1]), true);
    // read from ids[1] before it was forgotten: refused, and the node written before stays as it was
    const later = { ...summary, memory: { ...summary.memory, text: "Written from a forgotten memory." } };
    assert.equal(await store.writeSummary(later, day, [ids[0]], stamp, [ids[0], ids[1]]), false);
    assert.equal(await store.writeSummary(later, day, [ids[1]], stamp), false, "a forgotten child refuses it too");
    assert.equal((await store.getMemory("p_day_contract"))?.text, "The billing service was deployed.");
    assert.deepEqual(memoryIds(await store.searchBody({ words: ["forgotten"], depth: 10, filter: {} })), []);
    await store.close();
  },

  async "topics re-path all or nothing"(open) {
    const { store, ids } = await seeded(open);
    await store.saveTopic("archive", "old things", RECORDED);
    await store.saveTopic("archive.x", null, RECORDED);
    await assert.rejects(store.moveTopic("ops", "archive", { merge: false }), CascadeError, "the target holds a topic already");
    assert.equal((await store.getMemory(ids[0]))?.topic, "ops.deploy", "a refused move changes nothing");
    assert.equal(await store.moveTopic("ops", "infra", { merge: false }), 4);
    assert.equal((await store.getMemory(ids[0]))?.topic, "infra.deploy");
    assert.deepEqual(memoryIds(await store.searchBody({ words: ["billing"], depth: 10, filter: { under: "infra" } })).sort(), [ids[0], ids[1], ids[3], ids[4]].sort());
    await assert.rejects(store.deleteTopic("infra"), CascadeError, "a topic holding memories is not deleted");
    assert.ok((await store.deleteTopic("archive")) >= 1);
    const counts = await store.topicCounts();
    assert.deepEqual(counts.find((c) => c.path === "infra.db")?.count, 2);
    assert.ok(!(await store.topicRows()).some((t) => t.path.startsWith("archive")));
    await store.close();
  },

  async "small values and housekeeping"(open) {
    const { store, ids } = await seeded(open);
    assert.equal(await store.getMeta("contract.key"), null);
    await store.setMeta("contract.key", "v1");
    assert.equal(await store.getMeta("contract.key"), "v1");
    const stats = await store.termStats(["billing", "nonexistentword"]);
    assert.equal(stats.chunks, 6);
    assert.equal(stats.df.get("billing"), 4);
    assert.equal(stats.df.get("nonexistentword"), 0);
    const firsts = await store.firstChunkIds([ids[0]]);
    const hydrated = await store.hydrate([firsts.get(ids[0])!]);
    assert.equal(hydrated.get(firsts.get(ids[0])!)?.memory.id, ids[0]);
    await store.settle();
    const checks = await store.doctor(false);
    assert.ok(checks.every((c) => c.ok), `doctor: ${checks.filter((c) => !c.ok).map((c) => c.name).join(", ")}`);
    await store.close();
  },
};

async function expiryCase(open: () => Promise<Store>) {
  const store = await open();
  const memories = await prepared([
    { text: "The staging password rotates weekly", at: at(1), ttl: "2d" },
    { text: "The staging password is kept in the vault", at: at(1) },
    { text: "Staging password reminder for tomorrow", at: at(2), expires: at(9) },
  ]);
  await store.writeMemories(memories, stamp);
  const ids = memories.map((m) => m.memory.id);
  assert.equal((await store.getMemory(ids[0]))?.expires, new Date(Date.parse(at(1)) + 2 * DAY).toISOString().replace(".000Z", "Z"));
  const liveAt = Date.parse(at(5)); // the first has expired, the third not yet
  const words = ["staging", "password"];
  const expect = [ids[1], ids[2]].sort();
  assert.deepEqual(memoryIds(await store.searchBody({ words, depth: 10, filter: { liveAt } })).sort(), expect, "bm25");
  assert.deepEqual(memoryIds(await store.nearestChunks({ vector: queryVector("staging password"), depth: 10, filter: { liveAt } })).sort(), expect, "dense");
  const lists = await store.chunksWithTerms({ terms: words, filter: { liveAt } });
  assert.deepEqual([...new Set((await store.memoryIdsOfChunks(lists.get("staging")!)).values())].sort(), expect, "late interaction");
  assert.deepEqual((await store.listMemories({ filter: { liveAt }, limit: 10, order: "asc" })).memories.map((m) => m.id).sort(), expect, "list");
  assert.deepEqual((await store.listMemories({ filter: { expiredBy: liveAt }, limit: 10, order: "asc" })).memories.map((m) => m.id), [ids[0]], "the expired ones");
  assert.equal(memoryIds(await store.searchBody({ words, depth: 10, filter: {} })).length, 3, "without liveAt every memory is found");
  // the graph channel's word lookup: expired memories left out before the limit, so the limit still counts live ones
  const holding = async (filter: SearchFilter, limit = 10) => (await store.entities.holdingWords({ words: ["staging"], limit, filter })).map((r) => r.memoryId).sort();
  assert.deepEqual(await holding({ liveAt }), expect, "graph word lookup");
  assert.equal((await holding({ liveAt }, 1)).length, 1, "graph word lookup, limit 1");
  assert.ok(expect.includes((await holding({ liveAt }, 1))[0]), "the one kept is live");
  assert.deepEqual(await holding({}), [...ids].sort(), "graph word lookup without liveAt");
  assert.deepEqual(await holding({ liveAt, until: Date.parse(at(2)) }), [ids[1]], "graph word lookup with another filter");
  await store.close();
}

/**
 * Registers the contract's cases for one backend; `skips` names a case the backend cannot do, and why. `open` is
 * told which case asks, so a backend can give most cases a store in a shared database (a namespace of its own)
 * and the few that need it a database of their own.
 */
export function storeContract(backend: string, open: (name: ContractCase) => Promise<Store>, skips: Partial<Record<ContractCase, string>> = {}): void {
  describe(`store contract: ${backend}`, () => {
    for (const name of CONTRACT_CASES) {
      const reason = skips[name];
      test(name, reason ? { skip: reason } : {}, () => cases[name](() => open(name)));
    }
  });
}
