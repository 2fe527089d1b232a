import assert from "node:assert/strict";
import { copyFileSync, existsSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { Engine, SqliteStore, defaultGloveEmbedder, scratchStores, openMemory, parseInstant, runPyramidBench, type EngineConfig } from "../src/index.js";
import { CACHE_DECISION, DEPLOYMENT_PLAN, DIARY_NOW, projectDiary } from "./fixtures/project-diary.js";
import { cli, cliHere, emptyEngine, tempDir } from "./helpers.js";

/** The project diary stored (ids in its order) and its pyramid built, with `config`. */
async function diaryEngine(config: EngineConfig = {}): Promise<{ engine: Engine; ids: string[]; path: string }> {
  const path = join(tempDir(), "diary.db");
  const engine = await openMemory({ path, now: parseInstant("now", DIARY_NOW), ...config });
  // no revision detection: the pyramid must find the reversal on its own
  const r = await engine.rememberMany(projectDiary(), { detect: false });
  assert.equal(r.failed.length, 0);
  await engine.buildPyramid();
  return { engine, ids: r.ids as string[], path };
}

/**
 * The diary of the default configuration, stored and its pyramid built once for the file, then a copy of that store
 * per test, opened as diaryEngine() leaves it: seven tests read or change their own copy, and the ingest and build
 * (about 1 s of CPU) are the same each time. A test with a configuration of its own stores the diary afresh.
 */
let stored: Promise<{ path: string; ids: string[] }> | undefined;
async function defaultDiary(): Promise<{ engine: Engine; ids: string[] }> {
  stored ??= diaryEngine().then(async ({ engine, ids, path }) => {
    await engine.close();
    return { path, ids };
  });
  const { path, ids } = await stored;
  const copy = join(tempDir(), "diary.db");
  for (const suffix of ["", "-wal"]) if (existsSync(path + suffix)) copyFileSync(path + suffix, copy + suffix);
  return { engine: await openMemory({ path: copy, now: parseInstant("now", DIARY_NOW) }), ids };
}

const DAY = 86_400_000;

test("day, week and month nodes exist with correct windows and child counts", async () => {
  const { engine } = await defaultDiary();
  const { nodes } = await engine.pyramid();
  const days = nodes.filter((n) => n.level === "day");
  const weeks = nodes.filter((n) => n.level === "week");
  const months = nodes.filter((n) => n.level === "month");
  assert.equal(days.length, 80, "16 weeks of weekdays");
  assert.equal(weeks.length, 16);
  assert.deepEqual(months.map((m) => [m.start, m.end]), [
    ["2026-03-01T00:00:00Z", "2026-04-01T00:00:00Z"],
    ["2026-04-01T00:00:00Z", "2026-05-01T00:00:00Z"],
    ["2026-05-01T00:00:00Z", "2026-06-01T00:00:00Z"],
    ["2026-06-01T00:00:00Z", "2026-07-01T00:00:00Z"],
  ]);
  const diary = projectDiary();
  for (const d of days) {
    assert.equal(parseInstant("end", d.end) - parseInstant("start", d.start), DAY);
    const expected = diary.filter((m) => m.at!.slice(0, 10) === d.start.slice(0, 10)).length;
    assert.equal(d.children, expected, `children of ${d.id}`);
  }
  for (const w of weeks) {
    assert.equal(new Date(w.start).getUTCDay(), 1, "weeks start on Monday");
    assert.equal(parseInstant("end", w.end) - parseInstant("start", w.start), 7 * DAY);
    assert.equal(w.children, 5, `the five weekdays of ${w.id}`);
  }
  // a week reaching into the next month is a child of both: March 2-30, March 30-April 27, April 27-May 25, June 1-15
  assert.deepEqual(months.map((m) => m.children), [5, 5, 5, 3]);
  const week = await engine.show("p_week_2026-W20");
  assert.deepEqual(week.children, ["p_day_2026-05-11", "p_day_2026-05-12", "p_day_2026-05-13", "p_day_2026-05-14", "p_day_2026-05-15"]);
  const day = await engine.show("p_day_2026-05-11");
  assert.equal(day.kind, "summary");
  assert.ok(day.children!.every((id) => id.startsWith("m_")));
  await engine.close();
});

test("rebuilding recomputes only dirty windows; forgetting a turn rebuilds exactly its three windows", async () => {
  // the pyramid off (kept by explicit builds), so that what a write leaves dirty can be seen
  const { engine, ids } = await diaryEngine({ pyramid: { enabled: false } });
  const again = await engine.buildPyramid();
  assert.deepEqual(again.recomputed, { day: 0, week: 0, month: 0 }, "an unchanged pyramid does no work");
  const victim = ids[40];
  const m = await engine.show(victim);
  const forgotten = await engine.forget(victim);
  assert.equal(forgotten.summaries_rebuilt, 3, "forget rebuilds its day, week and month before returning");
  assert.equal((await engine.pyramid()).dirty, 0);
  assert.deepEqual((await engine.buildPyramid()).recomputed, { day: 0, week: 0, month: 0 });
  const day = await engine.show(`p_day_${m.at.slice(0, 10)}`);
  assert.ok(!day.children!.includes(victim));
  await engine.remember({ text: "A new note about the audit log export.", at: "2026-04-07T12:00:00Z" });
  assert.deepEqual((await engine.buildPyramid()).recomputed, { day: 1, week: 1, month: 1 });
  await engine.close();
});

test("with the pyramid on (the default) every write and forget leaves it current", async () => {
  const { engine, ids } = await defaultDiary();
  const m = await engine.show(ids[40]);
  await engine.forget(ids[40]);
  assert.equal((await engine.pyramid()).dirty, 0);
  assert.ok(!(await engine.show(`p_day_${m.at.slice(0, 10)}`)).children!.includes(ids[40]));
  const added = await engine.remember({ text: "A new note about the audit log export.", at: "2026-04-07T12:00:00Z" });
  assert.ok((await engine.show("p_day_2026-04-07")).children!.includes(added.id));
  assert.deepEqual((await engine.buildPyramid({ full: true })).recomputed, { day: 80, week: 16, month: 4 }, "--full recomputes every node");
  await engine.close();
});

test("a reversal inside one week: the week summary keeps the later statement only", async () => {
  const { engine } = await defaultDiary();
  const week = await engine.show("p_week_2026-W20");
  assert.match(week.text, /Memcached/);
  assert.ok(!week.text.includes(CACHE_DECISION.first.text), week.text);
  const month = await engine.show("p_month_2026-05");
  assert.ok(!month.text.includes(CACHE_DECISION.first.text), month.text);
  await engine.close();
});

test("what happened last Tuesday: that Tuesday's day node leads the context (or, ranked with everything, the hits)", async () => {
  const { engine: byDefault } = await defaultDiary();
  const c = await byDefault.recall("what happened last Tuesday", { now: DIARY_NOW });
  assert.equal(c.context[0].id, "p_day_2026-06-16");
  assert.deepEqual(c.context[0].window, { start: "2026-06-16T00:00:00Z", end: "2026-06-17T00:00:00Z" });
  assert.ok(c.hits.every((h) => h.kind !== "summary"));
  await byDefault.close();
  const { engine } = await diaryEngine({ context: { timeSpan: "rank" } });
  const r = await engine.recall("what happened last Tuesday", { now: DIARY_NOW });
  assert.equal(r.hits[0].id, "p_day_2026-06-16");
  assert.equal(r.hits[0].level, "day");
  assert.deepEqual(r.hits[0].window, { start: "2026-06-16T00:00:00Z", end: "2026-06-17T00:00:00Z" });
  assert.ok(r.hits[0].sources_hit.includes("time"));
  assert.ok(r.hits[0].adjustments.some((a) => /time window/.test(a.reason)));
  await engine.close();
});

test("how did the deployment plan evolve over the last 3 months: month nodes in the top 3", async () => {
  const { engine } = await defaultDiary();
  const r = await engine.recall("how did the deployment plan evolve over the last 3 months", { now: DIARY_NOW });
  const top3 = r.context.slice(0, 3);
  assert.ok(top3.some((h) => h.level === "month"), JSON.stringify(top3.map((h) => h.id)));
  // the plan's latest statement is in June's summary
  const june = await engine.show("p_month_2026-06");
  assert.match(june.text, /canary releases/);
  assert.ok(DEPLOYMENT_PLAN.length === 4);
  await engine.close();
});

test("summaries can be excluded or searched alone, and time parsing can be switched off", async () => {
  const { engine } = await defaultDiary();
  const raw = await engine.recall("deployment plan Nomad", { excludeKinds: ["summary"], k: 20 });
  assert.ok(raw.hits.length > 0 && raw.hits.every((h) => h.kind !== "summary"));
  const only = await engine.recall("deployment plan Nomad", { kinds: ["summary"], k: 20 });
  assert.ok(only.hits.length > 0 && only.hits.every((h) => h.kind === "summary" && h.level !== null));
  const off = await engine.recall("what happened last Tuesday", { now: DIARY_NOW, time: "off" });
  assert.ok(off.hits.every((h) => !h.sources_hit.includes("time")));
  const restricted = await engine.recall("code review last week", { now: DIARY_NOW, time: "restrict", k: 50 });
  assert.ok(restricted.hits.length > 0);
  for (const h of restricted.hits) assert.ok(h.at >= "2026-06-08" && h.at < "2026-06-15", h.at);
  await engine.close();
});

test("cascade pyramid build / show and search over summaries, on the command line", async () => {
  const dir = tempDir();
  const db = join(dir, "p.db");
  const file = join(dir, "diary.jsonl");
  writeFileSync(file, projectDiary().map((m) => JSON.stringify(m)).join("\n"));
  // the first call a CLI process, the others in this process (helpers cliHere: the same output and exit code)
  const proc = (...args: string[]) => cli([...args, "--db", db, "--now", DIARY_NOW]);
  const run = (...args: string[]) => cliHere([...args, "--db", db, "--now", DIARY_NOW]);
  assert.equal(proc("import", file, "--no-detect").status, 0);
  const shown = await run("pyramid", "show", "--json");
  assert.equal(shown.status, 0);
  assert.equal(shown.json.nodes.length, 100, "the import kept the pyramid current");
  assert.equal(shown.json.dirty, 0);
  assert.match((await run("pyramid", "build")).stdout, /up to date/);
  const built = await run("pyramid", "build", "--full", "--json");
  assert.equal(built.status, 0, built.stderr);
  assert.deepEqual(built.json.recomputed, { day: 80, week: 16, month: 4 });
  const weeks = await run("pyramid", "show", "--level", "week", "--json");
  assert.equal(weeks.json.nodes.length, 16);
  assert.deepEqual(Object.keys(weeks.json.nodes[0]).sort(), ["agent", "children", "end", "id", "level", "sentences", "start", "text", "user"]);
  assert.equal((await run("pyramid", "show", "--level", "year")).status, 2);
  const hits = await run("search", "what happened last Tuesday", "--json");
  assert.equal(hits.json.context[0].level, "day");
  assert.equal(hits.json.time.phrase, "last Tuesday");
  const summaries = await run("search", "what happened last Tuesday", "--kind", "summary", "--json");
  assert.equal(summaries.json.hits[0].level, "day");
  assert.match((await run("show", "p_week_2026-W20")).stdout, /children\s+5: p_day_2026-05-11/);
  const bad = await run("search", "x", "--time", "sometimes");
  assert.equal(bad.status, 2);
  assert.equal((await run("add", "x", "--kind", "summary")).status, 2);
});

test("the pyramid bench builds a small synthetic span and refreshes exactly three windows (smoke test)", async () => {
  const r = await runPyramidBench(defaultGloveEmbedder(), { stores: scratchStores("files"), turns: 600, days: 30, seed: 3 });
  assert.deepEqual(r.nodes.day, 30);
  assert.equal(r.refresh_windows, 3);
  assert.ok(r.build_s > 0 && r.refresh_s > 0 && r.ingest_per_s > 0 && r.ingest_off_per_s > 0);
});

test("with pyramid.onIngest, every write brings the pyramid up to date", async () => {
  const e = defaultGloveEmbedder();
  const engine = await Engine.create({ store: new SqliteStore(":memory:"), embedder: e, tokens: e }, { detection: { enabled: false }, pyramid: { onIngest: true } });
  await engine.remember({ text: "Kick-off meeting for the billing rewrite with the whole team.", at: "2026-06-15T10:00:00Z" });
  let p = await engine.pyramid();
  assert.equal(p.dirty, 0);
  assert.deepEqual(p.nodes.map((n) => n.id), ["p_day_2026-06-15", "p_week_2026-W25", "p_month_2026-06"]);
  await engine.remember({ text: "Billing rewrite: the invoice model is drafted.", at: "2026-06-16T10:00:00Z" });
  p = await engine.pyramid({ level: "day" });
  assert.deepEqual(p.nodes.map((n) => n.id), ["p_day_2026-06-15", "p_day_2026-06-16"]);
  assert.equal((await engine.show("p_week_2026-W25")).children!.length, 2);
  await engine.close();
});

test("revision detection never takes a summary for a belief to revise", async () => {
  const { engine } = await defaultDiary();
  const r = await engine.remember({ text: "We will store the session cache in Memcached on the new cluster instead of Redis.", at: "2026-06-18T10:00:00Z" });
  const h = await engine.history(r.id);
  assert.ok(h.edges.length > 0, "the revision of the cache decision is found");
  assert.ok(h.edges.every((e) => !e.to.startsWith("p_") && !e.from.startsWith("p_")), JSON.stringify(h.edges));
  await engine.close();
});
