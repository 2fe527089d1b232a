/**
 * @module pyramid/build
 * Incremental rollups. Writes mark the day, week and month of every memory they touch dirty; a build
 * recomputes exactly those windows, days first (they read turns), then weeks (they read day nodes), then months
 * (they read the week nodes overlapping them, keeping only the sentences from their own days). Each window is
 * summarised once for the whole namespace and once for each user and each agent it holds, every scope from its
 * own memories or its own nodes one level down (pyramid/scopes.ts). A window left
 * with nothing to summarise loses its node. An unchanged pyramid is a build that does nothing. A summary is
 * written only if every memory it was read from still exists at that moment (the store checks, under its write
 * lock): a memory forgotten while a slow summariser was at work never comes back in a summary.
 */
import { pacedSentenceSpans } from "../text/sentences.js";
import { withSpeaker } from "../text/speaker.js";
import type { Memory } from "../model/types.js";
import { SUMMARY_KIND, type NodeLevel, type SummarySentence } from "../model/pyramid.js";
import type { Embedder } from "../ports/embedder.js";
import type { EmbedderStamp, Store } from "../ports/store.js";
import type { SummaryLimits, Summarizer } from "../ports/summarizer.js";
import { prepareMemories } from "../ingest/prepare.js";
import { scopeOf, type Scope } from "../model/scope.js";
import { formatInstant } from "../time/iso.js";
import { feeds, nodeScopesOf, sameNodeScope, scopedNodeId, WHOLE } from "./scopes.js";
import { windowAt, windowName, windowTitle, type Window, type WindowLevel } from "../time/windows.js";

export interface PyramidOptions {
  /** IANA time zone the windows are cut in. */
  zone: string;
  /** Length bounds of each level's summaries. */
  limits: Record<NodeLevel, SummaryLimits>;
  /**
   * The pyramid is kept current after every write (and brought up to date when a store is opened), summaries
   * rank with everything for questions that name a time span, and searches return the summaries of their top
   * hits' windows as `context`. Off: windows are still marked dirty, `pyramid build` still builds, search
   * leaves summaries out.
   */
  enabled: boolean;
  /**
   * How long a search waits, at most, for the refresh of a small write (SEARCH_WAIT_MS; keeper.ts, settleSmall);
   * 0: a search never waits, and reads the summaries as they stand (marked stale while their windows are dirty).
   */
  searchWaitMs: number;
}

/**
 * A search waits at most this long for the refresh of a small write: long enough for the offline summariser's
 * refresh of an `add` or a small import (a few windows, tens of milliseconds, so that the next search reads their
 * summaries, as the examples and tests expect), short against a search's own time; a refresh that takes longer (a
 * chat model as summariser, a short write into a day of megabytes) goes on after the search has answered, and the
 * summaries it has not yet rewritten come back marked `stale`.
 */
export const SEARCH_WAIT_MS = 50;

export const defaultPyramid: Readonly<PyramidOptions> = Object.freeze({
  zone: "UTC",
  // a day is read at a glance; each level up covers more and gets a little more room, never a wall of text
  limits: {
    turn: { maxSentences: 5, maxChars: 700 },
    day: { maxSentences: 6, maxChars: 900 },
    week: { maxSentences: 8, maxChars: 1400 },
    month: { maxSentences: 12, maxChars: 2000 },
  },
  enabled: true,
  searchWaitMs: SEARCH_WAIT_MS,
});

export interface BuildDeps {
  store: Store;
  embedder: Embedder;
  summarizer: Summarizer;
  stamp: EmbedderStamp;
  now: number;
}

export interface BuildReport {
  /** Windows recomputed, by level. */
  recomputed: Record<WindowLevel, number>;
  written: number;
  removed: number;
  /** Summaries not written because a memory they were read from was forgotten meanwhile (their windows stay dirty). */
  refused: number;
  took_ms: number;
}

/** The stable id of a window's node: `p_day_2026-06-16`, `p_week_2026-W25`, `p_month_2026-06`. */
export function nodeId(window: Pick<Window, "level" | "start">, zone: string): string {
  return `p_${window.level}_${windowName(window, zone)}`;
}

/**
 * Recomputes the dirty windows (or `only` these). A window whose summary was refused (a memory it read was forgotten
 * meanwhile) stays dirty, and so do the windows above it, which would have been summarised without it: one more
 * pass then reads them again, from what exists now.
 */
export async function buildPyramid(
  deps: BuildDeps,
  opts: PyramidOptions,
  onProgress?: (done: number, total: number) => void,
  /** Only these dirty windows (a forget rebuilds the summaries that quoted the memory, and nothing else). */
  only?: { level: WindowLevel; start: number }[],
): Promise<BuildReport> {
  const started = performance.now();
  const { store } = deps;
  if ((await store.pyramidZone()) !== opts.zone) await store.setPyramidZone(opts.zone);
  const report: BuildReport = { recomputed: { day: 0, week: 0, month: 0 }, written: 0, removed: 0, refused: 0, took_ms: 0 };
  await buildPass(deps, opts, report, onProgress, only);
  if (report.refused > 0) await buildPass(deps, opts, report, onProgress, only); // once more, from what exists now
  report.took_ms = Math.round(performance.now() - started);
  return report;
}

async function buildPass(deps: BuildDeps, opts: PyramidOptions, report: BuildReport, onProgress?: (done: number, total: number) => void, only?: { level: WindowLevel; start: number }[]) {
  const { store } = deps;
  const dirty = (await store.dirtyWindows()).filter((d) => !only || only.some((o) => o.level === d.level && o.start === d.start)); // days, weeks, months
  const refused: Window[] = [];
  for (const [i, d] of dirty.entries()) {
    const window = windowAt(d.level, d.start, opts.zone);
    if (refused.some((r) => r.start >= window.start && r.start < window.end)) continue; // it would miss a refused child
    const inputs = await store.windowInputs(window);
    // every scope the window's memories (or its child nodes) call for, and every scope it has a node for now:
    // a user whose last memory of the day was forgotten loses that day's node
    const existing = (await store.pyramidNodes({ level: window.level, from: window.start, to: window.end })).filter((n) => n.start === window.start);
    const scopes: Scope[] = [];
    for (const s of [...(window.level === "day" ? nodeScopesOf(inputs) : inputs.map(scopeOf)), ...existing.map(scopeOf)]) {
      if (!scopes.some((t) => sameNodeScope(t, s))) scopes.push(s);
    }
    let complete = true;
    for (const scope of scopes) {
      // a day reads the scope's own turns; a week or a month the nodes of the same scope one level down
      const own = inputs.filter((m) => (window.level === "day" ? feeds(scope, m) : sameNodeScope(scopeOf(m), scope)));
      const id = scopedNodeId(nodeId(window, opts.zone), scope);
      const sentences = await candidateSentences(store, window, own);
      const summary = sentences.length
        ? await deps.summarizer.summarize({ window, title: windowTitle(window, opts.zone), sentences, limits: opts.limits[window.level] })
        : [];
      if (summary.length > 0) {
        const read = [...new Set(sentences.flatMap((s) => s.sources))];
        const node = await prepareNode(deps, window, opts.zone, summary, undefined, scope);
        if (await store.writeSummary(node, window, own.map((m) => m.id), deps.stamp, read)) report.written++;
        else complete = false;
      } else if (await store.deleteSummary(id)) report.removed++;
    }
    if (complete) await store.clearDirtyWindows([d]);
    else {
      refused.push(window);
      report.refused++;
    }
    report.recomputed[window.level]++;
    onProgress?.(i + 1, dirty.length);
  }
}

/**
 * A day's turns split into sentences, or the sentences of the child nodes (a month keeps those of its own
 * days). Sentences from a memory that another memory of the window supersedes are left out: the window already
 * knows the newer version. When the edge names one statement of the memory, only that sentence is left out: a fact
 * said in passing beside it ("my sister's birthday is on the 22nd") is still the window's.
 */
async function candidateSentences(store: Store, window: Window, inputs: Memory[]): Promise<SummarySentence[]> {
  // a day's memories are split with pauses for I/O: a day holding a megabyte memory held the thread ~100 ms here
  const sentences =
    window.level === "day"
      ? await daySentences(inputs)
      : inputs
          .flatMap((node) => (node.metadata.sentences as SummarySentence[] | undefined) ?? [])
          .filter((s) => {
            const at = Date.parse(s.at);
            return at >= window.start && at < window.end;
          });
  const sources = [...new Set(sentences.flatMap((s) => s.sources))];
  if (sources.length === 0) return sentences;
  // a memory replaced whole, or the statements of a memory an edge names (the rest of that message still stands)
  const whole = new Set<string>();
  const statements = new Map<string, string[]>();
  for (const e of await store.edgesTouching(sources, "supersedes")) {
    if (e.retractedAt !== null || e.validFrom < window.start || e.validFrom >= window.end) continue;
    if (e.statement === null) whole.add(e.to);
    else statements.set(e.to, [...(statements.get(e.to) ?? []), e.statement.trim()]);
  }
  const replaced = (s: SummarySentence, id: string) => whole.has(id) || (statements.get(id) ?? []).some((st) => st.includes(s.text.trim()) || s.text.includes(st));
  return sentences.filter((s) => !s.sources.every((id) => replaced(s, id)));
}

/** The sentences of a day's memories, in order, each naming its memory. */
async function daySentences(inputs: Memory[]): Promise<SummarySentence[]> {
  const out: SummarySentence[] = [];
  for (const m of inputs) for (const s of await pacedSentenceSpans(m.text)) out.push({ text: m.text.slice(s.start, s.end), speaker: m.speaker, at: m.at, sources: [m.id] });
  return out;
}

/** The summary memory of a node, ready to write (its id is the node's stable id). */
export async function prepareNode(
  deps: BuildDeps,
  window: Window | { level: "turn"; start: number; end: number },
  zone: string,
  summary: SummarySentence[],
  node?: { id: string; title: string },
  /** A window's node for one user or one agent (see pyramid/scopes.ts); the whole namespace's by default. */
  scope: Scope = WHOLE,
) {
  const [prepared] = await prepareMemories(
    [
      {
        text: summary.map((s) => withSpeaker(s.speaker, s.text)).join("\n"),
        kind: SUMMARY_KIND,
        title: node?.title ?? windowTitle(window as Window, zone),
        description: null,
        tags: [window.level],
        topic: null,
        expires: null,
        at: formatInstant(window.start),
        role: null,
        speaker: null,
        session: null,
        user: scope.user,
        agent: scope.agent,
        metadata: {
          level: window.level,
          start: formatInstant(window.start),
          end: formatInstant(window.end),
          summarizer: deps.summarizer.id,
          sentences: summary,
        },
      },
    ],
    deps.embedder,
    deps.now,
  );
  // A summary restates its turns: counting its words again would make them look commoner than they are, and
  // every lexical channel's term weights (and which words are pruned) would shift with the pyramid on or off.
  const chunks = prepared.chunks.map((c) => ({ ...c, terms: [] }));
  return { ...prepared, chunks, memory: { ...prepared.memory, id: node?.id ?? scopedNodeId(nodeId(window as Window, zone), scope) } };
}
