import assert from "node:assert/strict";
import { join } from "node:path";
import { test } from "node:test";
import { openMemory, parseInstant, type Engine } from "../src/index.js";
import type { PyramidKeeper } from "../src/pyramid/keeper.js";
import { tempDir } from "./helpers.js";
import { HeldSummarizer } from "./stale-summary-scenario.js";

const NOW = parseInstant("now", "2026-06-20T12:00:00Z");
const DAY_NODE = "p_day_2026-06-16";
const SPAN_QUESTION = "What happened with the Lisbon trip on June 16?";
/** Every window's summary as context, and summaries ranked in the hits for a question naming a span: both are read. */
const CONTEXT = { windows: "always", minSimilarity: 0, timeSpan: "rank" } as const;
/** 120 short notes in March 2025, far from the day searched: a batch past what a search waits for (100 memories). */
const IMPORT = Array.from({ length: 120 }, (_, i) => ({ text: `Inventory note ${i}: shelf ${i % 12} restocked with paper towels.`, at: `2025-03-${String(1 + (i % 28)).padStart(2, "0")}T10:00:00Z` }));

test("a search after a large write answers while the pyramid's refresh is held: the memory just written is a hit, its day's summary is marked stale until the refresh ends", { timeout: 120_000 }, async () => {
  const summarizer = new HeldSummarizer();
  const engine = await openMemory({ path: join(tempDir(), "held.db"), now: NOW, summarizer, context: CONTEXT });
  try {
    await engine.remember({ text: "Priya booked the Lisbon trip for the design offsite in July.", at: "2026-06-16T09:00:00Z" });
    await engine.settlePyramid();
    const settled = await engine.recall("Lisbon trip");
    const dayBefore = settled.context.find((c) => c.id === DAY_NODE);
    assert.ok(dayBefore, "the day of the first memory has its summary");
    // nothing pending: no summary carries the field at all (the answer is as it was before searches stopped waiting)
    for (const s of [...settled.hits, ...settled.context]) assert.equal("stale" in s, false, s.id);

    summarizer.hold();
    const moved = "Priya moved the Lisbon trip to Friday because the venue was double-booked.";
    const written = await engine.rememberMany([...IMPORT, { text: moved, at: "2026-06-16T15:00:00Z" }]);
    const movedId = written.ids.at(-1)!;
    let refreshEnded = false;
    const refresh = engine.settlePyramid().then((report) => {
      refreshEnded = true;
      return report;
    });
    await summarizer.reached; // the refresh is under way, held inside the summariser

    // before, recall settled the keeper first and this waited for the held refresh (the test never ended)
    const during = await engine.recall("Lisbon trip");
    assert.equal(refreshEnded, false, "the search answered while the refresh was still held");
    assert.ok(during.hits.some((h) => h.id === movedId), "the memory the write committed is searchable at once");
    const dayDuring = during.context.find((c) => c.id === DAY_NODE);
    assert.ok(dayDuring, "the day's summary as it stands is still given as context");
    assert.equal(dayDuring.stale, true, "and marked stale: its window was written to since it was computed");
    const texts = (c: { sentences: { text: string }[] }) => c.sentences.map((x) => x.text);
    assert.deepEqual(texts(dayDuring), texts(dayBefore), "it is the summary computed before the write");
    assert.doesNotMatch(dayDuring.text, /double-booked/);
    // the summaries ranked in the hits of a question naming the day are marked too; a memory never is
    const span = await engine.recall(SPAN_QUESTION);
    assert.equal(refreshEnded, false);
    const summaryHits = span.hits.filter((h) => h.kind === "summary");
    assert.ok(summaryHits.some((h) => h.id === DAY_NODE), "the day's summary ranks for a question naming it");
    for (const h of summaryHits) assert.equal(h.stale, true, h.id);
    for (const h of span.hits.filter((h) => h.kind !== "summary")) assert.equal("stale" in h, false, h.id);
    assert.ok(span.hits.some((h) => h.id === movedId));

    summarizer.release();
    const report = await refresh;
    assert.ok(report && report.recomputed.day >= 1, "the held refresh recomputed the day once released");
    const after = await engine.recall("Lisbon trip");
    const dayAfter = after.context.find((c) => c.id === DAY_NODE);
    assert.ok(dayAfter);
    assert.match(dayAfter.text, /double-booked/, "the refreshed summary holds the new memory");
    for (const s of [...after.hits, ...after.context]) assert.equal("stale" in s, false, s.id);
    const spanAfter = await engine.recall(SPAN_QUESTION);
    for (const h of spanAfter.hits) assert.equal("stale" in h, false, h.id);
  } finally {
    summarizer.release();
    await engine.close();
  }
});

test("a search after a small write waits for its refresh, and reads the summary it wrote", { timeout: 120_000 }, async () => {
  const summarizer = new HeldSummarizer();
  // a wait bound far past the test's own ticks, so that what is seen is the wait, not its deadline (tested below)
  const engine = await openMemory({ path: join(tempDir(), "small.db"), now: NOW, summarizer, context: CONTEXT, pyramid: { searchWaitMs: 60_000 } });
  try {
    summarizer.hold();
    await engine.remember({ text: "Marcus Okafor moved the quarterly review to Thursday.", at: "2026-06-16T10:00:00Z" });
    let answered = false;
    const search = engine.recall("quarterly review").then((r) => {
      answered = true;
      return r;
    });
    await summarizer.reached; // the search started the refresh, held
    for (let i = 0; i < 20; i++) await new Promise((resolve) => setImmediate(resolve));
    assert.equal(answered, false, "the search waits for the refresh of a small write");
    summarizer.release();
    const r = await search;
    const day = r.context.find((c) => c.id === DAY_NODE);
    assert.ok(day, "the day's summary, written by the refresh it waited for");
    assert.match(day.text, /quarterly review/);
    assert.equal("stale" in day, false);
  } finally {
    summarizer.release();
    await engine.close();
  }
});

test("settlePyramid is the way to read summaries that include every write: after a large write, a search after it sees none stale", { timeout: 120_000 }, async () => {
  const engine = await openMemory({ path: join(tempDir(), "settle.db"), now: NOW, context: CONTEXT });
  try {
    await engine.rememberMany([...IMPORT, { text: "Marcus Okafor moved the quarterly review to Thursday.", at: "2026-06-16T10:00:00Z" }]);
    await engine.settlePyramid();
    const r = await engine.recall("quarterly review");
    const day = r.context.find((c) => c.id === DAY_NODE);
    assert.ok(day, "after settlePyramid the day's summary is there");
    for (const s of [...r.hits, ...r.context]) assert.equal("stale" in s, false, s.id);
  } finally {
    await engine.close();
  }
});

/** The engine's keeper, to hand its search wait a deadline the test resolves itself (the engine's is a timer). */
const keeperOf = (engine: Engine) => (engine as unknown as { keeper: PyramidKeeper }).keeper;
const SMALL = { memories: 100, chars: 20_000, ms: 50 };

test("a search after a small write whose refresh is held answers at the wait's bound (50 ms by default): the day's summary marked stale, the refresh going on", { timeout: 120_000 }, async () => {
  const summarizer = new HeldSummarizer();
  const engine = await openMemory({ path: join(tempDir(), "bounded.db"), now: NOW, summarizer, context: CONTEXT });
  try {
    await engine.remember({ text: "Priya booked the Lisbon trip for the design offsite in July.", at: "2026-06-16T09:00:00Z" });
    await engine.settlePyramid();
    summarizer.hold();
    // one short memory: a write whose refresh a search waits for, and which never ends while the summariser is held
    const moved = await engine.remember({ text: "Priya moved the Lisbon trip to Friday.", at: "2026-06-16T15:00:00Z" });
    let refreshEnded = false;
    const search = engine.recall("Lisbon trip");
    await summarizer.reached; // the search started the refresh, held
    const r = await search; // answered only because the wait has a bound: the refresh cannot end while held
    const refresh = engine.settlePyramid().then(() => (refreshEnded = true));
    assert.equal(refreshEnded, false, "the refresh is still under way");
    assert.ok(r.hits.some((h) => h.id === moved.id), "the memory just written is a hit");
    const day = r.context.find((c) => c.id === DAY_NODE);
    assert.ok(day, "the day's summary as it stands");
    assert.equal(day.stale, true);
    assert.doesNotMatch(day.text, /Friday/);
    summarizer.release();
    await refresh;
    const after = await engine.recall("Lisbon trip");
    const dayAfter = after.context.find((c) => c.id === DAY_NODE);
    assert.match(dayAfter!.text, /Friday/, "the refresh went on and wrote the new summary");
    assert.equal("stale" in dayAfter!, false);
  } finally {
    summarizer.release();
    await engine.close();
  }
});

test("the search's wait (keeper.settleSmall): a refresh that ends before the deadline is waited out; one still held at the deadline is left running", { timeout: 120_000 }, async () => {
  const summarizer = new HeldSummarizer();
  const engine = await openMemory({ path: join(tempDir(), "deadline.db"), now: NOW, summarizer, context: CONTEXT });
  const keeper = keeperOf(engine);
  const ticks = async () => {
    for (let i = 0; i < 20; i++) await new Promise((resolve) => setImmediate(resolve));
  };
  try {
    // quick: the refresh ends (released) while the deadline has not come: the wait ends with the refresh
    summarizer.hold();
    await engine.remember({ text: "Marcus Okafor moved the quarterly review to Thursday.", at: "2026-06-16T10:00:00Z" });
    let endWait!: () => void;
    let quick: string | null = null;
    const waiting = keeper.settleSmall(SMALL, () => new Promise<void>((resolve) => (endWait = resolve))).then((how) => (quick = how));
    await summarizer.reached;
    await ticks();
    assert.equal(quick, null, "waiting for the refresh, the deadline not come");
    summarizer.release();
    await waiting;
    assert.equal(quick, "settled");
    endWait(); // (the deadline comes after: nothing changes)
    assert.equal((await engine.pyramid()).dirty, 0, "the refresh it waited for is done");

    // slow: the deadline comes while the refresh is held: the wait ends, the refresh does not
    summarizer.hold();
    await engine.remember({ text: "Marcus Okafor moved the quarterly review to Friday.", at: "2026-06-16T11:00:00Z" });
    let late: string | null = null;
    const waitingLate = keeper.settleSmall(SMALL, () => new Promise<void>((resolve) => (endWait = resolve))).then((how) => (late = how));
    await summarizer.reached;
    await ticks();
    assert.equal(late, null);
    endWait();
    await waitingLate;
    assert.equal(late, "late", "the wait ended at its deadline");
    let refreshEnded = false;
    const refresh = engine.settlePyramid().then(() => (refreshEnded = true));
    await ticks();
    assert.equal(refreshEnded, false, "the refresh is still held");
    summarizer.release();
    await refresh;
    assert.equal((await engine.pyramid()).dirty, 0, "and ends once released");

    // nothing pending: no wait at all
    assert.equal(await keeper.settleSmall(SMALL, () => new Promise<void>(() => {})), "settled");
  } finally {
    summarizer.release();
    await engine.close();
  }
});
