import assert from "node:assert/strict";
import { join } from "node:path";
import { test } from "node:test";
import { ExtractiveSummarizer, defaultGloveEmbedder, openMemory, parseInstant, type Summarizer, type SummaryRequest } from "../src/index.js";
import type { SummarySentence } from "../src/model/pyramid.js";
import { tempDir } from "./helpers.js";

/**
 * The offline summariser, whose calls can be held on a promise the test releases: a pyramid refresh that is under
 * way for as long as the test wants, with no clock involved.
 */
class HeldSummarizer implements Summarizer {
  private readonly inner = new ExtractiveSummarizer(defaultGloveEmbedder());
  readonly id = this.inner.id;
  private gate: Promise<void> | null = null;
  private open: () => void = () => {};
  private entered: () => void = () => {};
  /** Resolves when a refresh has reached the summariser while it is held. */
  reached: Promise<void> = Promise.resolve();

  hold(): void {
    this.gate = new Promise((resolve) => (this.open = resolve));
    this.reached = new Promise((resolve) => (this.entered = resolve));
  }

  release(): void {
    this.gate = null;
    this.open();
  }

  async summarize(request: SummaryRequest): Promise<SummarySentence[]> {
    if (this.gate) {
      this.entered();
      await this.gate;
    }
    return this.inner.summarize(request);
  }
}

const NOW = parseInstant("now", "2026-06-20T12:00:00Z");
const DAY_NODE = "p_day_2026-06-16";
const SPAN_QUESTION = "What happened with the Lisbon trip on June 16?";
/** Every window's summary as context, and summaries ranked in the hits for a question naming a span: both are read. */
const CONTEXT = { windows: "always", minSimilarity: 0, timeSpan: "rank" } as const;

test("a search answers while the pyramid's refresh is held: the memory just written is a hit, its day's summary is marked stale until the refresh ends", { timeout: 120_000 }, async () => {
  const summarizer = new HeldSummarizer();
  const engine = await openMemory({ path: join(tempDir(), "held.db"), now: NOW, summarizer, context: CONTEXT });
  try {
    await engine.remember({ text: "Priya booked the Lisbon trip for the design offsite in July.", at: "2026-06-16T09:00:00Z" }, {});
    await engine.settlePyramid();
    const settled = await engine.recall("Lisbon trip");
    const dayBefore = settled.context.find((c) => c.id === DAY_NODE);
    assert.ok(dayBefore, "the day of the first memory has its summary");
    // nothing pending: no summary carries the field at all (the answer is as it was before searches stopped waiting)
    for (const s of [...settled.hits, ...settled.context]) assert.equal("stale" in s, false, s.id);

    summarizer.hold();
    const moved = await engine.remember({ text: "Priya moved the Lisbon trip to Friday because the venue was double-booked.", at: "2026-06-16T15:00:00Z" });
    let refreshEnded = false;
    const refresh = engine.settlePyramid().then((report) => {
      refreshEnded = true;
      return report;
    });
    await summarizer.reached; // the refresh is under way, held inside the summariser

    // before, recall settled the keeper first and this waited for the held refresh (the test timed out)
    const during = await engine.recall("Lisbon trip");
    assert.equal(refreshEnded, false, "the search answered while the refresh was still held");
    assert.ok(during.hits.some((h) => h.id === moved.id), "the memory the write committed is searchable at once");
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
    assert.ok(span.hits.some((h) => h.id === moved.id));

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

test("settlePyramid is the way to read summaries that include every write: a search after it sees none stale", { timeout: 120_000 }, async () => {
  const summarizer = new HeldSummarizer();
  const engine = await openMemory({ path: join(tempDir(), "settle.db"), now: NOW, summarizer, context: CONTEXT });
  try {
    // held: whether or not the refresh the write scheduled (after a pause in writes) has begun, it cannot end
    summarizer.hold();
    await engine.remember({ text: "Marcus Okafor moved the quarterly review to Thursday.", at: "2026-06-16T10:00:00Z" });
    const early = await engine.recall("quarterly review");
    assert.ok(early.hits.some((h) => h.kind !== "summary"), "the memory is found before any summary exists");
    assert.equal(early.context.some((c) => c.id === DAY_NODE), false, "no summary of its day yet");
    summarizer.release();
    const report = await engine.settlePyramid();
    // the report of the refresh settlePyramid ran, or null when the write's own had run (and ended) meanwhile
    assert.ok(report === null || report.recomputed.day === 1);
    const late = await engine.recall("quarterly review");
    const day = late.context.find((c) => c.id === DAY_NODE);
    assert.ok(day, "after settlePyramid the day's summary is there");
    assert.equal("stale" in day, false);
  } finally {
    summarizer.release();
    await engine.close();
  }
});
