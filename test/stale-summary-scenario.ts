/**
 * A store with a stale day summary, made deterministically in one process: the pyramid's refresh after a large
 * write is held inside the summariser (HeldSummarizer), so a search meanwhile reads the day's summary computed
 * before the write, marked `stale`. Used by the SDK's own test (search-during-refresh) and by the surfaces that
 * pass the mark on in-process (the agent-tool adapters).
 */
import { join } from "node:path";
import { ExtractiveSummarizer, defaultGloveEmbedder, openMemory, parseInstant, type Engine, type Summarizer, type SummaryRequest } from "../src/index.js";
import type { SummarySentence } from "../src/model/pyramid.js";
import { tempDir } from "./helpers.js";

/**
 * The offline summariser, whose calls can be held on a promise the test releases: a pyramid refresh that is under
 * way for as long as the test wants, with no clock involved.
 */
export class HeldSummarizer implements Summarizer {
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

export const STALE_NOW = parseInstant("now", "2026-06-20T12:00:00Z");
export const STALE_DAY_NODE = "p_day_2026-06-16";
/** A question naming the day: summaries rank among its hits. */
export const STALE_SPAN_QUESTION = "What happened with the Lisbon trip on June 16?";
/** 120 short notes in March 2025, far from the day searched: a batch past what a search waits for (100 memories). */
const IMPORT = Array.from({ length: 120 }, (_, i) => ({ text: `Inventory note ${i}: shelf ${i % 12} restocked with paper towels.`, at: `2025-03-${String(1 + (i % 28)).padStart(2, "0")}T10:00:00Z` }));

/** Every window's summary as context, and summaries ranked in the hits for a question naming a span. */
export const STALE_CONTEXT = { windows: "always", minSimilarity: 0, timeSpan: "rank" } as const;

/**
 * Makes the 2026-06-16 day summary of `engine` (opened with `summarizer`, now STALE_NOW) stale until `release` is
 * called: a memory on that day is written in a large batch after the summary was computed, and the refresh that
 * would rewrite it is held. `release` lets the refresh end and waits for it.
 */
export async function makeDayStale(engine: Engine, summarizer: HeldSummarizer): Promise<{ movedId: string; release: () => Promise<void> }> {
  await engine.remember({ text: "Priya booked the Lisbon trip for the design offsite in July.", at: "2026-06-16T09:00:00Z" });
  await engine.settlePyramid();
  summarizer.hold();
  const written = await engine.rememberMany([...IMPORT, { text: "Priya moved the Lisbon trip to Friday because the venue was double-booked.", at: "2026-06-16T15:00:00Z" }]);
  const refresh = engine.settlePyramid();
  await summarizer.reached;
  return {
    movedId: written.ids.at(-1)!,
    release: async () => {
      summarizer.release();
      await refresh;
    },
  };
}

/** An engine of its own with a stale day summary (makeDayStale); `finish` releases the refresh and closes it. */
export async function heldStaleEngine(): Promise<{ engine: Engine; movedId: string; finish: () => Promise<void> }> {
  const summarizer = new HeldSummarizer();
  const engine = await openMemory({ path: join(tempDir(), "held.db"), now: STALE_NOW, summarizer, context: STALE_CONTEXT });
  const { movedId, release } = await makeDayStale(engine, summarizer);
  return {
    engine,
    movedId,
    finish: async () => {
      await release();
      await engine.close();
    },
  };
}
