/**
 * The pyramid on by default — kept current on every write, summaries beside the hits as `context`
 * (never instead of evidence), the turn level, a time phrase that matched nothing said so, stores from before
 * brought up to date on open.
 */
import assert from "node:assert/strict";
import { copyFileSync, existsSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import Database from "better-sqlite3";
import { Engine, SqliteStore, defaultGloveEmbedder, openMemory, parseInstant } from "../src/index.js";
import { CACHE_DECISION, DIARY_NOW, projectDiary } from "./fixtures/project-diary.js";
import { cli, cliHere, emptyEngine, tempDir } from "./helpers.js";

const LONG_NOTE = Array.from(
  { length: 21 },
  (_, i) =>
    [
      "The architecture review met on Tuesday with the platform and billing teams.",
      "We decided to move invoice rendering into a separate worker service.",
      "Maria will own the migration plan and report progress every Friday.",
      "The old PDF library is dropped in favour of the HTML renderer.",
      "Latency targets stay at 200 ms for the invoice API.",
      "Thanks everyone for joining, great discussion!",
      "Any questions before we wrap up?",
    ][i % 7],
).join(" ");

/**
 * The project diary stored once for the file (default configuration, no revision detection, the pyramid kept
 * current by the writes), then a copy per test that reads it or reopens it with another configuration: three tests
 * ask of the same store, whose ingest (about 1 s of CPU) would be the same each time.
 */
let diaryStore: Promise<{ path: string; ids: string[] }> | undefined;
async function diaryCopy(): Promise<{ engine: Engine; ids: string[]; path: string }> {
  diaryStore ??= emptyEngine(DIARY_NOW).then(async ({ engine, path }) => {
    const { ids } = await engine.rememberMany(projectDiary(), { detect: false });
    await engine.close();
    return { path, ids: ids as string[] };
  });
  const { path, ids } = await diaryStore;
  const copy = join(tempDir(), "diary.db");
  for (const suffix of ["", "-wal"]) if (existsSync(path + suffix)) copyFileSync(path + suffix, copy + suffix);
  return { engine: await openMemory({ path: copy, now: parseInstant("now", DIARY_NOW) }), ids, path: copy };
}

test("a reversal inside a week: the current statement first, the week summary with the later decision in context", async () => {
  const { engine } = await emptyEngine(DIARY_NOW);
  const diary = projectDiary().map((m, i, all) => (i === all.length - 1 ? { ...m, metadata: { ref: "reversal" } } : i === all.length - 2 ? { ...m, metadata: { ref: "first" } } : m));
  // the reversal names what it replaces (as an agent would, or as revision detection would find)
  diary[diary.length - 1] = { ...diary[diary.length - 1], supersedes: ["first"] };
  await engine.rememberMany(diary);
  const p = await engine.pyramid();
  assert.equal(p.dirty, 0, "kept current by the write itself, no build needed");
  const r = await engine.recall("where do we store the session cache?");
  assert.equal(r.hits[0].text, CACHE_DECISION.reversal.text, "the current statement ranks first");
  assert.ok(r.hits.every((h) => h.kind !== "summary"), "no summary takes a hit's place");
  const week = r.context.find((c) => c.id === "p_week_2026-W20");
  assert.ok(week, `the week of the decision is in context: ${JSON.stringify(r.context.map((c) => c.id))}`);
  assert.equal(week.level, "week");
  assert.deepEqual(week.window, { start: "2026-05-11T00:00:00Z", end: "2026-05-18T00:00:00Z" });
  assert.match(week.text, /Memcached/, "the week summary states the later decision");
  assert.doesNotMatch(week.text, /store the session cache in Redis/, "and not the reversed one");
  assert.ok(week.hits.includes(r.hits[0].id));
  assert.ok(week.sources.length > 0 && week.sources.every((id) => id.startsWith("m_")));
  // most specific level first
  const order = r.context.map((c) => ["turn", "day", "week", "month"].indexOf(c.level));
  assert.deepEqual(order, [...order].sort((a, b) => a - b));
  await engine.close();
});

test("when nothing recorded the reversal, the stale statement comes with the week that already knows better", async () => {
  const { engine } = await diaryCopy();
  const r = await engine.recall("where do we store the session cache?");
  assert.equal(r.hits[0].text, CACHE_DECISION.first.text, "without an edge the first statement matches best");
  assert.equal(r.hits[0].status, "current");
  const week = r.context.find((c) => c.level === "week");
  assert.equal(week?.id, "p_week_2026-W20");
  assert.equal(week.text, CACHE_DECISION.reversal.text, "the week's sentence closest to the question is the later decision");
  await engine.close();
});

test("a summary sentence names the memories it revised; a routine hit's windows stay out of context unless asked", async () => {
  const { engine, path, ids } = await diaryCopy();
  const diary = projectDiary();
  const first = ids[diary.findIndex((m) => m.text === CACHE_DECISION.first.text)];
  const week = (await engine.show("p_week_2026-W20")).metadata.sentences as { text: string; revises?: string[] }[];
  const later = week.find((s) => s.text === CACHE_DECISION.reversal.text);
  assert.deepEqual(later?.revises, [first], "the later decision names the statement it revised");
  assert.ok(week.filter((s) => s !== later).every((s) => !s.revises), "routine sentences revise nothing");
  // a routine question: its windows hold no later state of it, so they would only spend the reader's words
  const routine = await engine.recall("customer call with Acme about invoice export");
  assert.match(routine.hits[0].text, /Acme/);
  assert.deepEqual(routine.context, []);
  await engine.close();
  // the other policy, for a reader who wants every window: the config's engine.context.windows
  const always = await openMemory({ path, now: parseInstant("now", DIARY_NOW), context: { windows: "always" } });
  const r = await always.recall("customer call with Acme about invoice export");
  assert.ok(r.context.some((c) => c.level === "day" && c.hits.includes(r.hits[0].id)), JSON.stringify(r.context.map((c) => c.id)));
  await always.close();
});

test("--no-pyramid (and pyramid.enabled false) leave summaries out of hits and context", async () => {
  const { engine } = await diaryCopy();
  const off = await engine.recall("what happened last week?", { pyramid: false });
  assert.deepEqual(off.context, []);
  assert.ok(off.hits.every((h) => h.kind !== "summary"));
  const on = await engine.recall("what happened last week?");
  assert.equal(on.context[0].id, "p_week_2026-W24", "a question naming a span gets that span's summary first");
  assert.ok(on.hits.every((h) => h.kind !== "summary"));
  await engine.close();

  const e = defaultGloveEmbedder();
  const disabled = await Engine.create({ store: new SqliteStore(":memory:"), embedder: e, tokens: e }, { pyramid: { enabled: false } });
  await disabled.remember({ text: "Kick-off meeting for the billing rewrite.", at: "2026-06-15T10:00:00Z" });
  assert.deepEqual((await disabled.pyramid()).nodes, [], "nothing is maintained");
  assert.equal((await disabled.pyramid()).dirty, 3, "but the windows are marked for a later build");
  assert.deepEqual((await disabled.recall("billing rewrite")).context, []);
  await disabled.close();
});

test("the turn level: a memory longer than a chunk gets a turn node with its chunks as sources; short ones none; forget removes it", async () => {
  const { engine } = await emptyEngine(DIARY_NOW);
  const long = await engine.remember({ text: LONG_NOTE, title: "Architecture review", at: "2026-06-16T10:00:00Z" });
  const short = await engine.remember({ text: "Lunch with the billing team on Friday.", at: "2026-06-16T12:00:00Z" });
  assert.ok((await engine.show(long.id)).chunks > 1);
  const turns = (await engine.pyramid({ level: "turn" })).nodes;
  assert.deepEqual(turns.map((n) => n.id), [`p_turn_${long.id}`]);
  const node = await engine.show(`p_turn_${long.id}`);
  assert.equal(node.kind, "summary");
  assert.deepEqual(node.children, [long.id]);
  const sentences = node.metadata.sentences as { text: string; sources: string[]; chunk: number }[];
  assert.ok(sentences.every((s) => s.sources[0] === long.id && Number.isInteger(s.chunk)));
  assert.ok(sentences.every((s) => !s.text.endsWith("?") && !/^Thanks/.test(s.text)), "questions and thanks are not summary material");
  assert.notEqual(short.id, long.id);
  // indexed like the others: found by --kind summary
  const found = await engine.recall("invoice rendering worker service", { kinds: ["summary"] });
  assert.ok(found.hits.some((h) => h.id === `p_turn_${long.id}` && h.level === "turn"));
  // in context for the hit it summarises
  const r = await engine.recall("who owns the invoice migration plan?");
  assert.equal(r.hits[0].id, long.id);
  assert.equal(r.context[0].id, `p_turn_${long.id}`);
  await engine.forget(long.id);
  assert.deepEqual((await engine.pyramid({ level: "turn" })).nodes, []);
  await engine.close();
});

test("a store written with the pyramid off is brought up to date on open", async () => {
  const path = join(tempDir(), "old.db");
  const now = parseInstant("now", DIARY_NOW);
  const old = await openMemory({ path, now, pyramid: { enabled: false } });
  await old.rememberMany(projectDiary().slice(0, 40), { detect: false });
  await old.remember({ text: LONG_NOTE, at: "2026-03-20T10:00:00Z" });
  await old.close();
  const steps: number[] = [];
  const opened = await openMemory({ path, now, onPyramidCatchUp: (d, t) => steps.push(d / t) });
  const p = await opened.pyramid();
  assert.equal(p.dirty, 0);
  assert.ok(p.nodes.some((n) => n.level === "turn") && p.nodes.some((n) => n.level === "month"));
  assert.equal(steps.at(-1), 1, "progress reaches the end");
  await opened.close();
  const again: number[] = [];
  await (await openMemory({ path, now, onPyramidCatchUp: (d) => again.push(d) })).close();
  assert.deepEqual(again, [], "an up-to-date store does nothing on open");
});

test("summaries written by an older offline summariser are rebuilt once on open, with progress", async () => {
  const path = join(tempDir(), "older.db");
  const now = parseInstant("now", DIARY_NOW);
  const first = await openMemory({ path, now });
  await first.rememberMany(projectDiary(), { detect: false });
  await first.remember({ text: LONG_NOTE, at: "2026-03-20T10:00:00Z" });
  await first.close();
  // as a store summarised by the previous version (no `revises`) records it
  const db = new Database(path);
  db.prepare("UPDATE meta SET value = 'extractive-mmr/2' WHERE key = 'engine.pyramid.summarizer'").run();
  assert.equal((db.prepare("SELECT changes() AS n").get() as { n: number }).n, 1, "the store records its summariser");
  db.close();
  const steps: number[] = [];
  const opened = await openMemory({ path, now, onPyramidCatchUp: (d, t) => steps.push(d / t) });
  assert.ok(steps.length > 0 && steps.at(-1) === 1, "rebuilt with progress");
  const p = await opened.pyramid();
  assert.equal(p.dirty, 0);
  assert.ok(p.nodes.some((n) => n.level === "turn"), "turn nodes are rebuilt too");
  const week = (await opened.show("p_week_2026-W20")).metadata.sentences as { text: string; revises?: string[] }[];
  assert.ok(week.some((s) => s.revises?.length), "the rebuilt week records what was revised");
  await opened.close();
  const again: number[] = [];
  await (await openMemory({ path, now, onPyramidCatchUp: (d) => again.push(d) })).close();
  assert.deepEqual(again, [], "once only");
});

test("a time phrase that matched nothing says so: time null and why", async () => {
  const { engine } = await emptyEngine(DIARY_NOW);
  await engine.rememberMany(projectDiary().slice(0, 20), { detect: false });
  const nothing = await engine.recall("what did we review in July 2023?");
  assert.equal(nothing.time, null);
  assert.match(nothing.time_note!, /July 2023.*matched no memory/);
  const bad = await engine.recall("what happened on February 30?");
  assert.equal(bad.time, null);
  assert.match(bad.time_note!, /February 30.*names none/);
  const good = await engine.recall("what did we review in March 2026?");
  assert.equal(good.time!.phrase, "in March 2026");
  assert.ok(good.time!.matched > 0);
  assert.equal(good.time_note, null);
  const none = await engine.recall("code review");
  assert.equal(none.time, null);
  assert.equal(none.time_note, null);
  await engine.close();
});

test("CLI: search JSON carries context; human output shows it; --no-pyramid empties it", async () => {
  const db = join(tempDir(), "cli.db");
  // the three memories written in this process (what is tested is search's output; add has CLI tests of its own)
  const writer = await openMemory({ path: db });
  try {
    await writer.remember({ text: CACHE_DECISION.first.text, at: CACHE_DECISION.first.at });
    await writer.remember({ text: CACHE_DECISION.reversal.text, at: CACHE_DECISION.reversal.at });
    await writer.remember({ text: "Standup: the platform team reviewed open tickets.", at: "2026-05-12T09:00:00Z" });
  } finally {
    await writer.close();
  }
  const r = cli(["--db", db, "--json", "--now", DIARY_NOW, "search", "session cache"]);
  assert.equal(r.status, 0, r.stderr);
  assert.ok(Array.isArray(r.json.context) && r.json.context.length > 0);
  for (const c of r.json.context) assert.deepEqual(Object.keys(c).sort(), ["hits", "id", "level", "sentences", "sources", "text", "window"]);
  const off = await cliHere(["--db", db, "--json", "--now", DIARY_NOW, "search", "session cache", "--no-pyramid"]);
  assert.deepEqual(off.json.context, []);
  const human = await cliHere(["--db", db, "--now", DIARY_NOW, "search", "session cache"]);
  assert.match(human.stdout, /context \(summaries of the top hits' windows\):\n {2}day 2026-05-1\d\.\.2026-05-1\d {2}p_day_/);
});
