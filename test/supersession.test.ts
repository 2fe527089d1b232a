import assert from "node:assert/strict";
import { join } from "node:path";
import { before, describe, test } from "node:test";
import { CascadeError, Engine, SqliteStore, defaultGloveEmbedder, judgeRevision, openMemory, parseInstant } from "../src/index.js";
import { revisionPairs } from "./fixtures/revision-pairs.js";
import { cli, cliHere, emptyEngine, tempDir } from "./helpers.js";

describe("the mission's scenario, end to end on the CLI", () => {
  const db = join(tempDir(), "scenario.db");
  const run = (...args: string[]) => cli([...args, "--db", db, "--now", "2026-06-20T09:00:00Z", "--json"]);
  // the first add a CLI process, the other writes and the reads the CLI in this process (helpers cliHere: the same
  // output and exit code)
  const here = async (...args: string[]) => (await cliHere([...args, "--db", db, "--now", "2026-06-20T09:00:00Z", "--json"])).json;
  let feb: { id: string };
  let june: { id: string };
  before(async () => {
    feb = run("add", "Decision: raise the connection pool size in the service config from 20 to 50, to absorb the checkout peak.", "--topic", "ops.config", "--at", "2026-02-10T10:00:00Z").json;
    await here("add", "Lunch order for Friday: pizza for the whole team.", "--at", "2026-03-02T12:00:00Z");
    await here("add", "The service config now also sets the statement timeout.", "--topic", "ops.config", "--at", "2026-04-02T12:00:00Z");
    june = await here("add", "We reverted the connection pool size in the service config back to 20: 50 connections overloaded the database.", "--topic", "ops.config", "--at", "2026-06-12T15:00:00Z");
  });

  test("the reversal is detected without --supersedes", async () => {
    const h = (await here("history", june.id));
    assert.deepEqual(h.chain.map((c: { id: string }) => c.id), [feb.id, june.id]);
    assert.deepEqual(h.chain.map((c: { status: string }) => c.status), ["superseded", "current"]);
    assert.equal(h.chain[0].valid_to, "2026-06-12T15:00:00Z");
    assert.equal(h.edges.length, 1);
    assert.equal(h.edges[0].provenance, "heuristic");
    assert.ok(h.edges[0].confidence >= 0.8);
    assert.match(h.edges[0].reason, /cue: reverted/);
  });

  test("search returns June first, current, naming February; February marked superseded and below", async () => {
    const r = (await here("search", "what did we decide about the config change"));
    const top = r.hits[0];
    assert.equal(top.id, june.id);
    assert.equal(top.status, "current");
    assert.deepEqual(top.supersedes, [feb.id]);
    const stale = r.hits.findIndex((h: { id: string }) => h.id === feb.id);
    assert.ok(stale > 0, "February is still shown");
    assert.equal(r.hits[stale].status, "superseded");
    assert.deepEqual(r.hits[stale].superseded_by, [june.id]);
    assert.deepEqual(r.hits[stale].adjustments, [{ reason: `superseded by ${june.id}`, factor: 0.5 }]);
  });

  test("--as-of 2026-03-01: February is current and June is not returned", async () => {
    const r = (await here("search", "what did we decide about the config change", "--as-of", "2026-03-01"));
    assert.ok(!r.hits.some((h: { id: string }) => h.id === june.id));
    const f = r.hits.find((h: { id: string }) => h.id === feb.id);
    assert.equal(f.status, "current");
    assert.deepEqual(f.superseded_by, []);
  });

  test("--current-only drops February", async () => {
    const r = (await here("search", "connection pool size", "--current-only"));
    assert.ok(r.hits.some((h: { id: string }) => h.id === june.id));
    assert.ok(!r.hits.some((h: { id: string }) => h.id === feb.id));
  });
});

describe("the graph", () => {
  test("chains of three: A's current successor is C, and C comes back when A is what matched", async () => {
    const { engine } = await emptyEngine();
    const a = await engine.remember({ text: "The on-call rotation is weekly, handover on Monday.", at: "2026-01-01" });
    const b = await engine.remember({ text: "Handover moves to Tuesday mornings.", at: "2026-02-01", supersedes: [a.id] });
    const c = await engine.remember({ text: "Rotation becomes fortnightly.", at: "2026-03-01", supersedes: [b.id] });
    const r = await engine.recall("weekly on-call rotation Monday handover", { channels: ["bm25"], k: 5 });
    const ids = r.hits.map((h) => h.id);
    assert.ok(ids.indexOf(c.id) < ids.indexOf(a.id), "C ranks above A");
    const hitC = r.hits.find((h) => h.id === c.id)!;
    assert.ok(hitC.adjustments.some((x) => x.reason === `current successor of ${a.id}`));
    assert.equal(r.hits.find((h) => h.id === a.id)!.status, "superseded");
    const h = await engine.history(b.id);
    assert.deepEqual(h.chain.map((x) => x.id), [a.id, b.id, c.id]);
    assert.deepEqual(h.chain.map((x) => x.status), ["superseded", "superseded", "current"]);
    await engine.close();
  });

  test("a cycle is refused and changes nothing", async () => {
    const { engine } = await emptyEngine();
    const a = await engine.remember({ text: "Plan A", at: "2026-01-01" });
    const b = await engine.remember({ text: "Plan B", at: "2026-02-01", supersedes: [a.id] });
    const c = await engine.remember({ text: "Plan C", at: "2026-03-01", supersedes: [b.id] });
    await assert.rejects(engine.supersede(a.id, c.id), (e: unknown) => e instanceof CascadeError && e.code === "INVALID_INPUT" && /cycle/.test(e.message));
    await assert.rejects(engine.supersede(a.id, a.id), (e: unknown) => e instanceof CascadeError && /itself/.test(e.message));
    assert.equal((await engine.history(a.id)).edges.length, 2);
    await engine.close();
  });

  test("a retraction restores the earlier status and stays in the history", async () => {
    const { engine } = await emptyEngine();
    // no revision cue in either text: nothing is detected, the edge below is the only one
    const old = await engine.remember({ text: "Backups are handled by the operations team.", at: "2026-01-01" });
    const neu = await engine.remember({ text: "Backups are handled by the platform team.", at: "2026-05-01" });
    assert.equal((await engine.history(old.id)).edges.length, 0);
    const edge = await engine.supersede(neu.id, old.id, { reason: "reorganisation" });
    assert.equal(edge.provenance, "api");
    assert.equal(edge.valid_from, "2026-05-01T00:00:00Z");
    let r = await engine.recall("backups handled team", { channels: ["bm25"] });
    assert.equal(r.hits.find((h) => h.id === old.id)!.status, "superseded");
    const retracted = await engine.retract(edge.id);
    assert.equal(retracted.retracted_at, "2026-06-20T09:00:00Z");
    r = await engine.recall("backups handled team", { channels: ["bm25"] });
    assert.equal(r.hits.find((h) => h.id === old.id)!.status, "current");
    assert.deepEqual(r.hits.find((h) => h.id === neu.id)!.supersedes, []);
    await assert.rejects(engine.retract(edge.id), /already retracted/);
    await assert.rejects(engine.retract("e_nope"), (e: unknown) => e instanceof CascadeError && e.code === "NOT_FOUND");
    const h = await engine.history(old.id);
    assert.deepEqual(h.chain.map((c) => c.id), [old.id]);
    assert.equal(h.edges.length, 1);
    assert.equal(h.edges[0].retracted_at, "2026-06-20T09:00:00Z");
    // and the edge can be recorded again after its retraction
    await engine.supersede(neu.id, old.id);
    await engine.close();
  });

  test("bi-temporal: --known-at sees only edges recorded by then", async () => {
    const path = join(tempDir(), "bitemporal.db");
    const may = await openMemory({ path, now: parseInstant("now", "2026-05-15T00:00:00Z") });
    const a = await may.remember({ text: "The release train leaves every two weeks.", at: "2026-01-10" });
    const b = await may.remember({ text: "The release train leaves every week.", at: "2026-03-10" });
    await may.close();
    // the revision is recorded in June, valid from March (when it happened in the world)
    const june = await openMemory({ path, now: parseInstant("now", "2026-06-15T00:00:00Z") });
    await june.supersede(b.id, a.id);
    const now = await june.recall("release train", { channels: ["bm25"] });
    assert.equal(now.hits.find((h) => h.id === a.id)!.status, "superseded");
    const believedInMay = await june.recall("release train", { channels: ["bm25"], knownAt: "2026-05-20" });
    assert.equal(believedInMay.hits.find((h) => h.id === a.id)!.status, "current");
    const worldInFebruary = await june.recall("release train", { channels: ["bm25"], asOf: "2026-02-01" });
    assert.deepEqual(worldInFebruary.hits.map((h) => h.id), [a.id]);
    await june.close();
  });

  test("JSONL supersedes may name refs of earlier lines", async () => {
    const { engine } = await emptyEngine();
    const r = await engine.rememberMany([
      { text: "Office closes at 18:00.", at: "2026-01-01", metadata: { ref: "hours-v1" } },
      { text: "Office closes at 20:00 from March.", at: "2026-03-01", supersedes: ["hours-v1"] },
      { text: "Bad ref.", supersedes: ["no-such-ref"] },
    ]);
    assert.equal(r.imported, 2);
    assert.equal(r.failed[0].index, 2);
    assert.match(r.failed[0].error, /no memory with id "no-such-ref"/);
    const h = await engine.history(r.ids[0]!);
    assert.equal(h.edges[0].provenance, "api");
    await engine.close();
  });

  test("suggestions: a plausible revision waits for a person, who can accept or reject it", async () => {
    const { engine } = await emptyEngine();
    // a weak cue ("now") on a shared subject, with more than one word said otherwise: plausible, not certain
    // ("... in the small meeting room now" replaces one word of the statement, and is an edge)
    const a = await engine.remember({ text: "The design review happens in the big meeting room.", at: "2026-01-01" });
    const b = await engine.remember({ text: "The design review happens on video calls now.", at: "2026-02-01" });
    const open = await engine.suggestions();
    assert.equal(open.length, 1);
    assert.deepEqual([open[0].from, open[0].to], [b.id, a.id]);
    assert.ok(open[0].confidence >= 0.5 && open[0].confidence < 0.8, String(open[0].confidence));
    const accepted = await engine.decideSuggestion(open[0].id, "accepted");
    assert.equal(accepted.status, "accepted");
    assert.equal((await engine.history(a.id)).edges[0].provenance, "user");
    assert.deepEqual(await engine.suggestions(), []);
    await assert.rejects(engine.decideSuggestion(open[0].id, "rejected"), /already accepted/);
    await engine.close();
  });
});

test("revision detection on the 40-pair fixture: precision and recall of the default judge", () => {
  assert.ok(revisionPairs.length >= 40);
  assert.equal(revisionPairs.filter((p) => p.revises).length, revisionPairs.length / 2);
  let tp = 0, fp = 0, fn = 0;
  const suggested: string[] = [];
  for (const p of revisionPairs) {
    const v = judgeRevision(p.older, p.newer);
    const edge = v.confidence >= 0.8;
    if (edge && p.revises) tp++;
    if (edge && !p.revises) fp++;
    if (!edge && p.revises) fn++;
    if (!edge && v.confidence >= 0.5) suggested.push(`${p.kind} ${v.confidence}`);
  }
  const precision = tp / (tp + fp);
  const recall = tp / (tp + fn);
  console.log(`# revision judge on ${revisionPairs.length} pairs: precision ${precision.toFixed(3)}, recall ${recall.toFixed(3)} (edge threshold 0.8); left as suggestions: ${suggested.join(", ") || "none"}`);
  assert.ok(precision >= 0.9, `precision ${precision}`);
  assert.ok(recall >= 0.7, `recall ${recall}`);
});

test("propagation: adding or retracting a supersedes edge marks both memories' day, week and month dirty", async () => {
  const store = new SqliteStore(":memory:");
  const e = defaultGloveEmbedder();
  // the pyramid off: these windows are only marked, so the marks can be read (with it on, each write rebuilds them)
  const engine = await Engine.create({ store, embedder: e, tokens: e }, { detection: { enabled: false }, pyramid: { enabled: false } });
  const a = await engine.remember({ text: "Retro notes are kept in the wiki.", at: "2026-03-04T10:00:00Z" }); // a Wednesday
  const b = await engine.remember({ text: "Retro notes are kept in the repository.", at: "2026-05-31T10:00:00Z" }); // a Sunday
  const windows = (await store.dirtyWindows()).map((w) => `${w.level} ${new Date(w.start).toISOString().slice(0, 10)}`);
  assert.deepEqual(windows, ["day 2026-03-04", "day 2026-05-31", "week 2026-03-02", "week 2026-05-25", "month 2026-03-01", "month 2026-05-01"]);
  await store.clearDirtyWindows(await store.dirtyWindows());
  const edge = await engine.supersede(b.id, a.id);
  assert.equal((await store.dirtyWindows()).length, 6);
  await store.clearDirtyWindows(await store.dirtyWindows());
  await engine.retract(edge.id);
  assert.equal((await store.dirtyWindows()).length, 6);
  await store.clearDirtyWindows(await store.dirtyWindows());
  await engine.forget(a.id);
  assert.deepEqual((await store.dirtyWindows()).map((w) => w.level), ["day", "week", "month"]);
  await engine.close();
});

test("supersede is idempotent: saying it again (or after detection found it) returns the same edge and writes nothing", async () => {
  const { engine } = await emptyEngine();
  const old = await engine.remember({ text: "We chose Postgres as the primary store for the billing service.", at: "2026-02-10T00:00:00Z" });
  const fresh = await engine.remember({ text: "Change of plan for billing: we are no longer using Postgres, the billing service will run on DynamoDB instead.", at: "2026-06-03T00:00:00Z" });
  const first = await engine.supersede(fresh.id, old.id, { reason: "moved" });
  const again = await engine.supersede(fresh.id, old.id);
  assert.equal(again.id, first.id);
  const history = await engine.history(old.id);
  assert.equal(history.edges.filter((e) => e.type === "supersedes").length, 1);
  await assert.rejects(engine.supersede(old.id, fresh.id), /cycle/, "the reverse is still a cycle");
  await engine.close();
});

test("remember says what it changed: the edges it created (named or detected) and the suggestions it left", async () => {
  const { engine } = await emptyEngine();
  const old = await engine.remember({ text: "We chose Postgres as the primary store for the billing service.", at: "2026-02-10T00:00:00Z" });
  assert.deepEqual([old.edges, old.suggestions], [[], []]);
  const detected = await engine.remember({ text: "Change of plan for billing: we are no longer using Postgres, the billing service will run on DynamoDB instead.", at: "2026-06-03T00:00:00Z" });
  assert.equal(detected.edges.length, 1);
  assert.equal(detected.edges[0].to, old.id);
  assert.ok(["heuristic", "llm"].includes(detected.edges[0].provenance));
  const named = await engine.remember({ text: "Billing now runs on Aurora.", at: "2026-07-01T00:00:00Z", supersedes: detected.id });
  assert.deepEqual(named.edges.map((e) => [e.from, e.to, e.provenance]), [[named.id, detected.id, "api"]]);
  const bus = await engine.remember({ text: "Our message bus is Kafka, with three brokers.", at: "2026-03-01T00:00:00Z" });
  const maybe = await engine.remember({ text: "Actually we switched the message bus from Kafka to NATS instead", at: "2026-05-01T00:00:00Z" });
  const open = await engine.suggestions();
  assert.deepEqual(maybe.suggestions.map((s) => s.id), open.filter((s) => s.from === maybe.id).map((s) => s.id), "what remember reports is what was recorded");
  assert.ok(maybe.edges.length + maybe.suggestions.length >= 1, `the Kafka → NATS switch is linked or suggested (bus ${bus.id})`);
  await engine.close();
});

test("update corrects a memory in place: same id, time and edges; the old text leaves the indexes and stays in history", async () => {
  const { engine } = await emptyEngine();
  const old = await engine.remember({ text: "The billing database runs Postgres 13.", at: "2026-02-10T00:00:00Z", topic: "ops.db", title: "Billing DB" });
  const next = await engine.remember({ text: "Billing moves to DynamoDB next quarter.", at: "2026-06-03T00:00:00Z", supersedes: old.id });
  const fixed = await engine.update(old.id, { text: "The billing database runs Postgres 15.", title: null });
  assert.equal(fixed.id, old.id);
  assert.equal(fixed.at, "2026-02-10T00:00:00Z");
  assert.equal(fixed.title, null, "null clears a field");
  assert.equal(fixed.topic, "ops.db", "what was not named is kept");
  const found = await engine.recall("postgres 15 billing database", { channels: ["bm25"], k: 3 });
  const hit = found.hits.find((x) => x.id === old.id)!;
  assert.match(hit.text, /Postgres 15/, "the corrected text is found");
  assert.equal(hit.status, "superseded", "its edges are kept");
  assert.deepEqual(hit.superseded_by, [next.id]);
  const stale = await engine.recall("postgres 13", { channels: ["bm25"], k: 3 });
  assert.ok(!stale.hits.some((h) => /Postgres 13/.test(h.text)), "the old text is out of the index");
  const h = await engine.history(old.id);
  assert.deepEqual(h.revisions.map((r) => [r.text, r.title]), [["The billing database runs Postgres 13.", "Billing DB"]]);
  assert.ok((await engine.doctor()).ok, "every index agrees with the tables after the correction");
  await assert.rejects(engine.update(old.id, {}), /name at least one field/);
  await assert.rejects(engine.update("m_missing", { text: "x" }), /no memory with id/);
  await assert.rejects(engine.update(old.id, { at: "2026-01-01" } as never), /at/);
  await engine.close();
});
