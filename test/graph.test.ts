/**
 * The memory graph: entities written with memories (aliases, forgetting), typed links and their refusals,
 * `graph` neighbourhoods, invalidation that stops where it should, and the graph channel.
 */
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { CascadeError, EDGE_TYPES, type Engine } from "../src/index.js";
import { emptyEngine } from "./helpers.js";

const codeOf = async (p: Promise<unknown>) => {
  try {
    await p;
  } catch (err) {
    assert.ok(err instanceof CascadeError, String(err));
    return `${err.code}:${err.field}`;
  }
  assert.fail("expected a CascadeError");
};

async function edgeCount(engine: Engine, ids: string[]): Promise<number> {
  let n = 0;
  for (const id of ids) n += (await engine.graph(id, { depth: 1, types: [...EDGE_TYPES] })).edges.length;
  return n;
}

describe("entities at ingest", () => {
  test("mentions are stored, and a speaker's short form merges into the speaker (either order)", async () => {
    const { engine } = await emptyEngine();
    await engine.remember({ text: "Hey Mel! How was the trip to Lisbon?", speaker: "Caroline", at: "2026-01-01" });
    await engine.remember({ text: "Lisbon was lovely, thanks Caroline.", speaker: "Melanie", at: "2026-01-02" });
    await engine.remember({ text: "Mel, did you see the Lisbon photos?", speaker: "Caroline", at: "2026-01-03" });
    const { entities } = await engine.entities({ top: 10 });
    const by = Object.fromEntries(entities.map((e) => [e.key, e]));
    assert.equal(by.lisbon.memories, 3);
    assert.equal(by.melanie.memories, 3, "Mel (twice) and the speaker Melanie are one person");
    assert.equal(by.mel, undefined);
    assert.equal(by.caroline.memories, 3);
    assert.deepEqual((await engine.entities({ query: "mel" })).entities.map((e) => e.key), ["melanie"]);
  });

  test("an ambiguous short form stays apart; possessives and plurals merge", async () => {
    const { engine } = await emptyEngine();
    await engine.remember({ text: "notes from the morning meeting.", speaker: "Alexander", at: "2026-01-01" });
    await engine.remember({ text: "notes from the evening meeting.", speaker: "Alexandra", at: "2026-01-02" });
    await engine.remember({ text: "Alex will check the Tesla charger.", at: "2026-01-03" });
    await engine.remember({ text: "Both Teslas are charged; Alex's car is the red one.", at: "2026-01-04" });
    const keys = (await engine.entities({ top: 20 })).entities.map((e) => `${e.key}:${e.memories}`).sort();
    assert.deepEqual(keys, ["alex:2", "alexander:1", "alexandra:1", "tesla:2"]);
  });

  test("forgetting removes the memory's mentions and the entities nothing else mentions", async () => {
    const { engine } = await emptyEngine();
    const a = await engine.remember({ text: "Priya moved the ledger-service to Zurich.", at: "2026-01-01" });
    await engine.remember({ text: "Priya is on call this week.", at: "2026-01-02" });
    await engine.forget(a.id);
    const keys = (await engine.entities({ top: 20 })).entities.map((e) => `${e.key}:${e.memories}`).sort();
    assert.deepEqual(keys, ["priya:1"]);
  });

  test("doctor finds wrong mention counts and orphan entities; repair recounts them", async () => {
    const { engine, path } = await emptyEngine();
    await engine.remember({ text: "Priya fixed the payments-api.", at: "2026-01-01" });
    assert.equal((await engine.doctor()).ok, true);
    const { default: Database } = await import("better-sqlite3");
    const raw = new Database(path);
    raw.prepare("UPDATE entities SET mentioned_by = 9 WHERE key = 'priya'").run();
    raw.prepare("INSERT INTO entities (id, key, name, kind, mentioned_by, created_at_ms) VALUES ('n_x', 'ghost', 'Ghost', 'name', 1, 0)").run();
    raw.close();
    const sick = await engine.doctor();
    assert.equal(sick.checks.find((c) => c.name === "entity mention counts")!.ok, false);
    await engine.doctor({ repair: true });
    assert.equal((await engine.doctor()).ok, true);
    assert.deepEqual((await engine.entities()).entities.map((e) => `${e.key}:${e.memories}`).sort(), ["payments-api:1", "priya:1"]);
  });

  test("extraction can be switched off", async () => {
    const { engine } = await emptyEngine();
    const { openMemory, parseInstant } = await import("../src/index.js");
    const off = await openMemory({ path: ":memory:", now: parseInstant("now", "2026-06-01"), entities: { enabled: false } });
    await off.remember({ text: "Priya went to Zurich.", speaker: "Tom" });
    assert.deepEqual((await off.entities()).entities, []);
    await off.close();
    await engine.close();
  });
});

describe("link", () => {
  test("every type of the closed set can be written, with reason and time", async () => {
    const { engine } = await emptyEngine();
    const r = await engine.rememberMany(
      Array.from({ length: 7 }, (_, i) => ({ text: `note number ${i} about the rollout`, at: `2026-01-0${i + 1}` })),
      { detect: false },
    );
    const ids = r.ids as string[];
    for (const [i, type] of EDGE_TYPES.entries()) {
      const e = await engine.link(ids[i + 1], ids[0], { type, reason: `because ${type}`, at: "2026-02-01" });
      assert.equal(e.type, type);
      assert.equal(e.from, ids[i + 1]);
      assert.equal(e.reason, `because ${type}`);
      assert.equal(e.valid_from, "2026-02-01T00:00:00Z");
    }
    const g = await engine.graph(ids[0], { depth: 1 });
    assert.deepEqual(g.edges.filter((e) => e.type !== "mentions").map((e) => e.type).sort(), [...EDGE_TYPES].sort());
  });

  test("bad input is refused with the field named, and nothing is written", async () => {
    const { engine } = await emptyEngine();
    const a = (await engine.remember({ text: "first", at: "2026-01-01" })).id;
    const b = (await engine.remember({ text: "second", at: "2026-01-02" })).id;
    await engine.link(b, a, { type: "supersedes" });
    await engine.link(b, a, { type: "relates_to" });
    const before = await edgeCount(engine, [a, b]);
    assert.equal(await codeOf(engine.link("m_nope", a, { type: "refines" })), "INVALID_INPUT:from");
    assert.equal(await codeOf(engine.link(a, "m_nope", { type: "refines" })), "INVALID_INPUT:to");
    assert.equal(await codeOf(engine.link(a, a, { type: "refines" })), "INVALID_INPUT:to");
    assert.equal(await codeOf(engine.link(a, b, { type: "supersedes" })), "INVALID_INPUT:supersedes");
    assert.equal(await codeOf(engine.link(a, b, { type: "likes" as never })), "INVALID_INPUT:type");
    assert.equal(await codeOf(engine.link(b, a, { type: "relates_to" })), "INVALID_INPUT:to");
    assert.equal(await codeOf(engine.link(a, b, { type: "refines", at: "yesterday" })), "INVALID_INPUT:at");
    assert.equal(await edgeCount(engine, [a, b]), before);
  });
});

describe("graph", () => {
  test("nodes are memories and entities; edges carry type, validity and provenance; depth and type limit the walk", async () => {
    const { engine } = await emptyEngine();
    const a = (await engine.remember({ text: "Priya owns the payments-api.", at: "2026-01-01" })).id;
    const b = (await engine.remember({ text: "The payments-api moved to Kubernetes.", at: "2026-01-02" })).id;
    const c = (await engine.remember({ text: "Kubernetes upgrades happen monthly.", at: "2026-01-03" })).id;
    const d = (await engine.remember({ text: "An unrelated lunch note.", at: "2026-01-04" })).id;
    await engine.link(d, a, { type: "relates_to", reason: "same week" });
    const one = await engine.graph(a, { depth: 1 });
    const names = (g: typeof one) => g.nodes.map((n) => (n.type === "entity" ? n.name : n.id)).sort();
    assert.deepEqual(names(one), [a, d, "Priya", "payments-api"].sort());
    const rel = one.edges.find((e) => e.type === "relates_to")!;
    assert.equal((rel as { provenance: string }).provenance, "api");
    assert.equal((rel as { reason: string }).reason, "same week");
    const mention = one.edges.find((e) => e.type === "mentions")!;
    assert.equal(mention.from, a);
    assert.equal(mention.valid_from, "2026-01-01T00:00:00Z");
    assert.equal(mention.current, true);
    const two = await engine.graph(a, { depth: 2 });
    assert.ok(two.nodes.some((n) => n.id === b && n.depth === 2));
    assert.ok(!two.nodes.some((n) => n.id === c), "c is three hops away");
    const three = await engine.graph(a, { depth: 3 });
    assert.ok(three.nodes.some((n) => n.type === "entity" && n.name === "Kubernetes" && n.depth === 3));
    const onlyLinks = await engine.graph(a, { depth: 2, types: ["relates_to"] });
    assert.deepEqual(onlyLinks.nodes.map((n) => n.id).sort(), [a, d].sort());
  });

  test("bad depth, unknown type and unknown id are refused", async () => {
    const { engine } = await emptyEngine();
    const a = (await engine.remember({ text: "x", at: "2026-01-01" })).id;
    assert.equal(await codeOf(engine.graph(a, { depth: 1000 })), "INVALID_INPUT:depth");
    assert.equal(await codeOf(engine.graph(a, { depth: 0 })), "INVALID_INPUT:depth");
    assert.equal(await codeOf(engine.graph(a, { types: ["likes" as never] })), "INVALID_INPUT:types.0");
    assert.equal(await codeOf(engine.graph("m_nope")), "NOT_FOUND:id");
  });
});

describe("invalidation propagates only as far as it should", () => {
  test("superseding one of two memories that mention an entity leaves the entity and the other memory untouched", async () => {
    const { engine } = await emptyEngine();
    // revision detection is off for these two, so that only the explicit supersession below counts
    const [old, other] = (await engine.rememberMany([
      { text: "Priya leads the Zurich office.", at: "2026-01-01" },
      { text: "The Zurich office opens at nine.", at: "2026-01-02" },
    ], { detect: false })).ids as string[];
    const fresh = (await engine.remember({ text: "Marco now leads the Zurich office, not Priya.", at: "2026-03-01", supersedes: [old] })).id;
    const after = await engine.graph(other, { depth: 2, asOf: "2026-04-01" });
    const zurich = after.nodes.find((n) => n.name === "Zurich")!;
    assert.equal(zurich.status, "current");
    assert.equal(after.nodes.find((n) => n.id === other)!.status, "current");
    assert.equal(after.nodes.find((n) => n.id === old)!.status, "superseded");
    const mentionOf = (g: typeof after, m: string) => g.edges.find((e) => e.type === "mentions" && e.from === m && e.to === zurich.id)!;
    assert.equal(mentionOf(after, other).current, true);
    assert.equal(mentionOf(after, other).valid_to, null);
    assert.equal(mentionOf(after, old).current, false, "what was known only through the old memory is no longer current");
    assert.equal(mentionOf(after, old).valid_to, "2026-03-01T00:00:00Z");
    assert.equal(mentionOf(after, fresh).current, true);
    // before the supersession everything reads as it was
    const before = await engine.graph(other, { depth: 2, asOf: "2026-02-01" });
    assert.equal(mentionOf(before, old).current, true);
    assert.equal(before.nodes.find((n) => n.id === old)!.status, "current");
    // Priya was mentioned by the old memory and by its successor: still current
    const whole = await engine.graph(old, { depth: 1, asOf: "2026-04-01" });
    assert.equal(whole.nodes.find((n) => n.name === "Priya")!.status, "current");
  });

  test("an entity only the superseded memory mentioned is no longer current; a relation it alone asserted neither", async () => {
    const { engine } = await emptyEngine();
    const target = (await engine.remember({ text: "Vendor review for tokenisation.", at: "2026-01-01" })).id;
    const old = (await engine.remember({ text: "We picked Vaultline for tokenisation.", at: "2026-01-02" })).id;
    const also = (await engine.remember({ text: "Security signed off the vendor review.", at: "2026-01-03" })).id;
    await engine.link(old, target, { type: "refines" });
    await engine.link(also, target, { type: "relates_to" });
    await engine.remember({ text: "We picked Basis Theory instead.", at: "2026-02-01", supersedes: [old] });
    const g = await engine.graph(old, { depth: 1, asOf: "2026-03-01" });
    assert.equal(g.nodes.find((n) => n.name === "Vaultline")!.status, "superseded");
    assert.equal(g.edges.find((e) => e.type === "refines")!.current, false);
    const t = await engine.graph(target, { depth: 1, asOf: "2026-03-01" });
    assert.equal(t.edges.find((e) => e.type === "relates_to")!.current, true, "a relation asserted by a current memory stays");
    assert.equal(t.nodes.find((n) => n.id === also)!.status, "current");
  });
});

describe("relations in search", () => {
  test("contradicts flags both sides; refines brings the refinement along, just below what it refines", async () => {
    const { engine } = await emptyEngine();
    const [claim, counter, base, detail] = (await engine.rememberMany([
      { text: "The warehouse robots charge overnight in bay four.", at: "2026-01-01" },
      { text: "Night shift says charging happens at noon instead.", at: "2026-01-02" },
      { text: "Quarterly budget for the marketing offsite is approved.", at: "2026-01-03" },
      { text: "Catering is capped at forty euros per head.", at: "2026-01-04" },
    ], { detect: false })).ids as string[];
    await engine.link(counter, claim, { type: "contradicts" });
    await engine.link(detail, base, { type: "refines" });
    const r = await engine.recall("warehouse robots charge overnight bay", { k: 10, channels: ["bm25"] });
    const a = r.hits.find((h) => h.id === claim)!;
    assert.deepEqual(a.contradicts, [counter]);
    const b = r.hits.find((h) => h.id === counter);
    if (b) assert.deepEqual(b.contradicts, [claim]);
    const q = await engine.recall("quarterly marketing offsite budget", { k: 10, channels: ["bm25"] });
    assert.equal(q.hits[0].id, base);
    assert.equal(q.hits[1].id, detail, "the refinement comes along, right below");
    assert.deepEqual(q.hits[1].adjustments.map((x) => x.reason), [`refines ${base}`]);
    assert.ok(Math.abs(q.hits[1].score - q.hits[0].score * 0.9) < 1e-12);
  });
});

describe("the graph channel", () => {
  test("reaches a memory that shares no query word but shares an entity with one that matched", async () => {
    const { engine } = await emptyEngine();
    const a = (await engine.remember({ text: "Priya moved to Lisbon last spring for the new job.", at: "2026-01-01" })).id;
    const b = (await engine.remember({ text: "The Lisbon flat has a view of the river.", at: "2026-01-05" })).id;
    for (let i = 0; i < 20; i++) await engine.remember({ text: `filler memory number ${i} about tea and biscuits`, at: "2026-01-10" });
    const r = await engine.recall("where did Priya move for her job", { k: 10 });
    assert.ok(r.channels.graph, "the graph channel ran");
    const hb = r.hits.find((h) => h.id === b);
    assert.ok(hb, "b is found");
    assert.ok(hb.ranks.graph !== undefined && hb.sources_hit.includes("graph"));
    const ha = r.hits.find((h) => h.id === a)!;
    assert.ok(ha.sources_hit.includes("bm25"));
    // without the graph channel nothing ranks b through the graph
    const off = await engine.recall("where did Priya move for her job", { k: 10, channels: ["bm25", "dense", "curated", "recency", "colbert", "time"] });
    assert.ok(!off.hits.some((h) => h.sources_hit.includes("graph")));
  });

  test("a superseded memory passes its activation to its successor", async () => {
    const { engine } = await emptyEngine();
    await engine.remember({ text: "Gina runs the Brooklyn store.", at: "2026-01-01" });
    const old = (await engine.remember({ text: "The Brooklyn store closes at six.", at: "2026-01-02" })).id;
    const next = (await engine.remember({ text: "Closing time changes to eight.", at: "2026-02-02", supersedes: [old] })).id;
    const r = await engine.recall("Gina store", { k: 10, channels: ["bm25", "graph"] });
    const graphIds = r.hits.filter((h) => h.ranks.graph !== undefined).map((h) => h.id);
    assert.ok(graphIds.includes(next), "the successor collects what the stale memory was given");
    assert.ok(!graphIds.includes(old) || r.hits.find((h) => h.id === old)!.ranks.graph! > r.hits.find((h) => h.id === next)!.ranks.graph!);
  });
});
