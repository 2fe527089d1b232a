/**
 * A question that names a time finds that time's memories: on the demo store (docs/GUIDE.md's
 * own example), and on a second fixture of dated sessions and notes written before the rule (fixtures/dated-days).
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { test } from "node:test";
import { DEMO_NOW, type Engine, type SearchResult } from "../src/index.js";
import { cli, cliHere, demoEngine, emptyEngine, tempDir } from "./helpers.js";
import { DAYS_NOW, contentAndTimeQuestions, datedDays, onlyTimeQuestions } from "./fixtures/dated-days.js";

const README_NOW = "2026-06-20T00:00:00Z";
const topics = (r: SearchResult, n = r.hits.length) => r.hits.slice(0, n).map((h) => h.title ?? h.text.slice(0, 40));

test("demo store: 'what happened last Tuesday' returns the handbook written that Tuesday first, and says so", async () => {
  const { engine } = await demoEngine();
  await engine.settlePyramid(); // the day's summary is read (a search does not wait for the refresh)
  const r = await engine.recall("what happened last Tuesday", { now: README_NOW });
  assert.equal(r.hits[0].title, "On-call handbook: database failover", JSON.stringify(topics(r, 3)));
  assert.equal(r.hits[0].at.slice(0, 10), "2026-06-16");
  assert.ok(r.hits[0].sources_hit.includes("time"));
  assert.equal(r.time_note, null);
  assert.deepEqual(r.time, { phrase: "last Tuesday", start: "2026-06-16T00:00:00Z", end: "2026-06-17T00:00:00Z", level: "day", matched: 1 });
  assert.equal(r.context[0].id, "p_day_2026-06-16", "that Tuesday's summary leads the context");
  const restricted = await engine.recall("what happened last Tuesday", { now: README_NOW, time: "restrict" });
  assert.deepEqual(topics(restricted), ["On-call handbook: database failover"]);
  assert.equal(restricted.time_note, null);
  await engine.close();
});

test("demo store: 'what happened last week' ranks that week's two turns first", async () => {
  const { engine } = await demoEngine();
  await engine.settlePyramid(); // the day's summary is read (a search does not wait for the refresh)
  const r = await engine.recall("what happened last week", { now: README_NOW });
  const inWeek = (at: string) => at >= "2026-06-08" && at < "2026-06-15";
  assert.deepEqual(r.hits.slice(0, 2).map((h) => inWeek(h.at)), [true, true], JSON.stringify(r.hits.map((h) => h.at)));
  assert.ok(r.hits.slice(2).every((h) => !inWeek(h.at)));
  assert.equal(r.time?.matched, 2);
  await engine.close();
});

test("the guide's command on the demo store prints the handbook first and no 'matched no memory'", async () => {
  const db = join(tempDir(), "demo.db");
  assert.equal(cli(["demo", "--db", db]).status, 0);
  const r = await cliHere(["search", "what happened last Tuesday", "--now", "2026-06-20", "--db", db]);
  assert.equal(r.status, 0, r.stderr);
  assert.match(r.stdout.split("\n")[0], /^ 1\. .*\[.*time#1.*\].*2026-06-16 .*ops\.runbooks/);
  assert.doesNotMatch(r.stdout, /matched no memory/);
});

async function daysEngine(): Promise<{ engine: Engine; key: (id: string) => string }> {
  const { engine } = await emptyEngine(DEMO_NOW);
  const { ids } = await engine.rememberMany(datedDays.map(({ key: _key, ...m }) => m));
  const keys = new Map((ids as string[]).map((id, i) => [id, datedDays[i].key]));
  return { engine, key: (id) => keys.get(id) ?? id };
}

test("dated sessions and notes: a question naming only a time has its window's memories first", async () => {
  const { engine, key } = await daysEngine();
  for (const { query, window } of onlyTimeQuestions) {
    const r = await engine.recall(query, { now: DAYS_NOW });
    const top = r.hits.slice(0, window.length).map((h) => key(h.id));
    assert.deepEqual([...top].sort(), [...window].sort(), `${query}: ${r.hits.map((h) => key(h.id))}`);
    assert.equal(r.time_note, null, query);
    assert.equal(r.time?.matched, window.length, query);
    const restricted = await engine.recall(query, { now: DAYS_NOW, time: "restrict" });
    assert.deepEqual(restricted.hits.map((h) => key(h.id)).sort(), [...window].sort(), `${query} (restrict)`);
  }
  await engine.close();
});

test("dated sessions and notes: with content words the window nudges, and an older, clearly better answer still wins", async () => {
  const { engine, key } = await daysEngine();
  for (const { query, first, why } of contentAndTimeQuestions) {
    const r = await engine.recall(query, { now: DAYS_NOW });
    assert.ok(first.includes(key(r.hits[0].id)), `${query} (${why}): ${r.hits.slice(0, 4).map((h) => key(h.id))}`);
  }
  await engine.close();
});

test("dated sessions and notes: a question naming only an empty day returns nothing, and says the day matched no memory", async () => {
  const { engine } = await daysEngine();
  const r = await engine.recall("what happened on March 2?", { now: DAYS_NOW });
  assert.deepEqual(r.hits, []);
  assert.equal(r.time, null);
  assert.equal(r.time_note, '"on March 2" (2026-03-02T00:00:00Z to 2026-03-03T00:00:00Z) matched no memory');
  const other = await engine.recall("Dana promotion on March 2", { now: DAYS_NOW });
  assert.ok(other.hits.length > 0);
  assert.match(other.time_note ?? "", /matched no memory: the results come from outside it$/);
  await engine.close();
});

test("'what did I do last weekend?' ranks the weekend's memory first, above a weekday note about the weekend", async () => {
  const { engine } = await emptyEngine("2026-11-20T12:00:00Z"); // a Friday: last weekend is 14-15 November
  const { ids } = await engine.rememberMany([
    { at: "2026-11-08T10:00:00Z", text: "Cleaned out the garage and took old paint to the recycling centre." },
    { at: "2026-11-12T18:00:00Z", text: "Booked a table for the weekend; the weekend forecast says rain." },
    { at: "2026-11-14T11:00:00Z", text: "Hiked the ridge trail with Priya and grilled dinner at her place after." },
    { at: "2026-11-17T09:00:00Z", text: "Sprint planning: the team agreed to cut scope on the billing export." },
    { at: "2026-11-19T20:00:00Z", text: "Finished reading the second volume of the trilogy." },
  ]);
  const r = await engine.recall("what did I do last weekend?", { now: "2026-11-20T12:00:00Z" });
  assert.equal(r.hits[0]?.id, ids[2], JSON.stringify(topics(r, 3)));
  assert.deepEqual(r.time, { phrase: "last weekend", start: "2026-11-14T00:00:00Z", end: "2026-11-16T00:00:00Z", level: "day", matched: 1 });
  const range = await engine.recall("what did I do between November 11 and November 13?", { now: "2026-11-20T12:00:00Z" });
  assert.equal(range.hits[0]?.id, ids[1], JSON.stringify(topics(range, 3)));
  assert.equal(range.time?.end, "2026-11-14T00:00:00Z");
  await engine.close();
});
