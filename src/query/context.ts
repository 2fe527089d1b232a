/**
 * @module query/context
 * Summaries beside the evidence, not instead of it. A summary in `hits` takes a place a turn would have had
 * (LoCoMo Recall@10 0.740 → 0.725 when summaries rank for questions naming a time span), yet it is the layer that
 * already knows the later state ("we switched to SQLite on Thursday") that an earlier turn does not. So, with the
 * pyramid on, summaries come back in `context`, not in `hits`:
 *
 * - the nodes of the windows of the top hits (a long hit's turn node, its day, its week), most specific level
 *   first, each with its window, the raw memories its sentences came from (`sources`) and the hits it covers;
 * - for a question that names a time span ("what did Melanie do in July 2023"), first the nodes of that span at
 *   the level that fits it (what the time channel would rank).
 *
 * A search filtered to one user (or one agent) reads that scope's nodes, the others the whole namespace's; only the
 * sentences whose every source passes the search's filter are read (query/summary-sentences.ts): a search filtered
 * to one user never quotes another's turn, and a sentence whose source was superseded is marked (or left out with
 * current-only).
 *
 * A context entry's text is an excerpt: the summary's sentences closest to the question (at most `sentences`,
 * in the summary's order), so that an agent reading within a word budget gets the later state without paying for
 * the rest of the week. `pyramid show` and `show ID` give the whole summary. `timeSpan: "rank"` restores the
 * other policy (summaries rank with everything when the question names a span); docs/BENCHMARKS.md measures both.
 *
 * A question asking for coverage also gets, after the summaries, one sentence of each of its first candidates
 * (query/extracts.ts).
 */
import { SUMMARY_KIND, isSummaryId, type ContextEntry, type NodeLevel, type PyramidNode, type SummarySentence } from "../model/pyramid.js";
import type { Hit, Ranked, SearchFilter } from "../model/types.js";
import type { Embedder } from "../ports/embedder.js";
import type { Store } from "../ports/store.js";
import { turnNodeId } from "../pyramid/turns.js";
import { formatInstant } from "../time/iso.js";
import type { ParsedTime } from "../time/expressions.js";
import { MIN_WINDOW_FIT, windowFit } from "../time/windows.js";
import { dot, isZero } from "../vectors/math.js";
import { defaultExtracts, momentExtracts } from "./extracts.js";
import { nodeScopeOf, readSentences, sentenceLine } from "./summary-sentences.js";

export interface ContextOptions {
  /** The summaries of the windows of this many top hits. */
  hits: number;
  /** The levels returned for hits' windows, in the order they are listed (most specific first). */
  levels: readonly NodeLevel[];
  /** At most this many summaries. */
  max: number;
  /** Sentences of each summary returned, those closest to the question (0: the whole summary). */
  sentences: number;
  /** For a question naming a time span: its summaries lead the context, or rank with everything in hits. */
  timeSpan: "context" | "rank";
  /** A sentence less similar than this to the question is not worth the reader's words; an entry left with none is dropped. */
  minSimilarity: number;
  /**
   * Which summaries of the hits' windows come back: `revised`, only those holding a later state of a hit — a
   * sentence that revised a hit's statement or is a hit's revision of an earlier one, or a sentence of a memory
   * that supersedes (or is) a hit in the graph — with those sentences as the excerpt (a long hit's turn node
   * always comes); `always`, every one, with the sentences closest to the question.
   */
  windows: "revised" | "always";
  /** For a question asking for coverage: one sentence of each of this many of its first candidates (query/extracts.ts; 0: none). */
  moments: number;
}

/**
 * Chosen by evidence within a word budget on LoCoMo, leave one conversation out (bench/context-cv.ts): every
 * window of a hit cost evidence@500 and @1000 against no context (its closest sentence is mostly a sentence of a
 * turn the channels rank anyway), so a hit's window comes only when it holds a later state of a hit; the
 * summaries of a span the question names earn their words (temporal questions), at 9 sentences most.
 */
export const defaultContext: Readonly<ContextOptions> = Object.freeze({
  hits: 3, // the first three hits' windows (only those with a later state come back)
  levels: ["turn", "day", "week"] as readonly NodeLevel[], // a month summary rarely adds what its weeks hold
  max: 3,
  sentences: 3, // per window; a named span's excerpt is three times as long; the whole summary is one `show` away
  timeSpan: "context" as const, // ranking summaries for a span cost Recall@10 0.740 → 0.725
  minSimilarity: 0.6, // below this a sentence is about something else (0.5 to 0.7 measured)
  windows: "revised" as const, // every window cost evidence@500/@1000 against none (docs/benchmark-notes.md)
  moments: defaultExtracts.moments, // coverage questions only (query/extracts.ts)
});

/** Whether summaries rank with everything for this query: it names a time span and the policy says rank. */
export function summariesRankFor(time: ParsedTime | null, opts: ContextOptions): boolean {
  return opts.timeSpan === "rank" && time?.span != null;
}

/**
 * How many more candidates a channel is asked for when summaries are dropped from its list afterwards: a third
 * more, at least 10. Summaries are long and match many words, so in a deep list (an agent reading 1,000 words
 * asks for ~70 results) a fixed 10 ran out and the list came back shorter than asked: evidence@1000 on LoCoMo
 * 0.8387 with a fixed 10, 0.842 with twice the depth.
 */
const summarySlack = (depth: number) => Math.max(10, Math.ceil(depth / 3));

/**
 * Summaries left out of every channel's list (unless the caller asked for the summary kind). A query that already
 * filters gets `excludeKinds` added, exactly. An unfiltered one keeps the channels' unfiltered fast path (a
 * filter that admits 99.9% of the chunks would make the dense channel list every allowed chunk id: 260 ms a query
 * at 100,000 chunks): the channels rank `summarySlack` deeper and the summaries are dropped from their lists.
 */
export function leaveOutSummaries(filter: SearchFilter, depth: number): { filter: SearchFilter; depth: number; drop: boolean } {
  if (filter.kinds?.includes(SUMMARY_KIND)) return { filter, depth, drop: false };
  // liveAt (expiry) is on every search and costs the store nothing (backends/sqlite/expiry-sql): it does not
  // count as a filter here, or every search would take the slower filtered path
  if (Object.entries(filter).some(([key, v]) => v !== undefined && key !== "liveAt")) {
    return { filter: { ...filter, excludeKinds: [...new Set([...(filter.excludeKinds ?? []), SUMMARY_KIND])] }, depth, drop: false };
  }
  return { filter, depth: depth + summarySlack(depth), drop: true };
}

/** A channel's list without summary nodes (their ids are `p_…`: see pyramid/build.ts and pyramid/turns.ts), cut to `depth`. */
export function dropSummaries(list: Ranked[], depth: number): Ranked[] {
  return list.filter((r) => !isSummaryId(r.memoryId)).slice(0, depth);
}

export interface ContextInput {
  hits: Hit[];
  /** The question's vector (zero when the dense channel was not asked: then the excerpt is the summary's start). */
  vector: Float32Array;
  time: ParsedTime | null;
  /** A summary quoting a memory from after this instant is left out: it states what had not happened yet. */
  asOf: number;
  /** A summary recorded after this instant was not known then (see --known-at). */
  knownAt: number;
  /** The search's filter: a sentence is shown only when every memory it came from passes it. */
  filter: SearchFilter;
  /** Superseded sentences are left out rather than marked. */
  currentOnly: boolean;
  /** The question and its candidates best first, when coverage is on: a coverage question's extracts follow the summaries. */
  coverage?: { question: string; candidates: string[] };
}

/**
 * The filter a sentence's sources must pass: the search's, except that asking for the summary kind (or leaving
 * it out of the channels' lists) says nothing about the raw memories a summary is made of.
 */
function sourceFilter(filter: SearchFilter): SearchFilter {
  const { kinds, excludeKinds, ...rest } = filter;
  return { ...rest, ...(kinds && !kinds.includes(SUMMARY_KIND) ? { kinds } : {}), ...(excludeKinds ? { excludeKinds } : {}) };
}

/** The summaries for a search's `context`, then a coverage question's extracts (query/extracts.ts). */
export async function summaryContext(deps: { store: Store; embedder: Embedder }, input: ContextInput, opts: ContextOptions): Promise<ContextEntry[]> {
  const summaries = await windowSummaries(deps, input, opts);
  if (!input.coverage || opts.moments <= 0) return summaries;
  const firstHit = input.hits.find((h) => h.kind !== SUMMARY_KIND);
  const extracts = await momentExtracts(
    deps,
    {
      question: input.coverage.question,
      vector: input.vector,
      candidates: input.coverage.candidates.filter((id) => !isSummaryId(id)),
      readBefore: new Set(firstHit ? [firstHit.id] : []),
      filter: sourceFilter(input.filter),
      time: { asOf: input.asOf, knownAt: input.knownAt },
      currentOnly: input.currentOnly,
    },
    { ...defaultExtracts, moments: opts.moments },
  );
  return [...summaries, ...extracts];
}

/** The summaries of the question's span and of the top hits' windows. */
async function windowSummaries(deps: { store: Store; embedder: Embedder }, input: ContextInput, opts: ContextOptions): Promise<ContextEntry[]> {
  const { store } = deps;
  const top = input.hits.filter((h) => h.kind !== SUMMARY_KIND).slice(0, opts.hits);
  if (opts.max === 0) return [];
  const shown = new Set(input.hits.map((h) => h.id));
  const reading = { filter: sourceFilter(input.filter), time: { asOf: input.asOf, knownAt: input.knownAt }, currentOnly: input.currentOnly };
  const holdsLaterState = laterStateOf(input.hits);
  // a search filtered to one user (or agent) reads that scope's nodes: its week is chosen from its own days
  const scope = nodeScopeOf(input.filter);
  const levels = new Set(opts.levels);
  const candidates: { n: PyramidNode; hits: string[]; group: number; order: number; span?: true }[] = [];
  const at = (h: Hit) => Date.parse(h.at);

  // the question's own span first, best-fitting and latest first (as the time channel ranks them)
  const span = input.time?.span;
  if (opts.timeSpan === "context" && span && input.time?.level) {
    const nodes = (await store.pyramidNodes({ level: input.time.level, from: span.start, to: span.end, scope }))
      .map((n) => ({ n, fit: windowFit(n, span) }))
      .filter((x) => x.fit >= MIN_WINDOW_FIT)
      .sort((a, b) => b.fit - a.fit || b.n.start - a.n.start);
    nodes.forEach(({ n }, i) => candidates.push({ n, hits: top.filter((h) => n.start <= at(h) && at(h) < n.end).map((h) => h.id), group: 0, order: i, span: true }));
  }
  if (top.length > 0) {
    // the hits' turn nodes and the windows holding them: two independent reads, side by side
    const nodes: PyramidNode[] = (
      await Promise.all([
        levels.has("turn") ? store.pyramidNodes({ ids: top.map((h) => turnNodeId(h.id)) }) : [],
        [...levels].some((l) => l !== "turn") ? store.pyramidNodes({ containing: top.map(at), scope }) : [],
      ])
    ).flat();
    const rankOf = new Map(top.map((h, i) => [h.id, i]));
    for (const n of nodes) {
      if (!levels.has(n.level)) continue;
      const covers = top.filter((h) => (n.level === "turn" ? n.id === turnNodeId(h.id) : n.start <= at(h) && at(h) < n.end)).map((h) => h.id);
      if (covers.length) candidates.push({ n, hits: covers, group: 1 + opts.levels.indexOf(n.level), order: rankOf.get(covers[0])! });
    }
  }
  candidates.sort((a, b) => a.group - b.group || a.order - b.order);

  const entries: ContextEntry[] = [];
  const taken = new Set<string>();
  // the candidates' summaries in one read (most are passed over below: a round trip each on a server)
  const summaries = await store.getMemories(candidates.filter((c) => !shown.has(c.n.id)).map((c) => c.n.id));
  for (const { n, hits, span: ofSpan } of candidates) {
    if (entries.length >= opts.max) break;
    if (taken.has(n.id) || shown.has(n.id)) continue;
    taken.add(n.id);
    const m = summaries.get(n.id);
    const stored = (m?.metadata.sentences as SummarySentence[] | undefined) ?? [];
    // a summary quoting what came after as-of was written knowing it (a reversal it left out): not a view of then
    if (!m || Date.parse(m.recordedAt) > input.knownAt || stored.some((s) => Date.parse(s.at) > input.asOf)) continue;
    // a hit's window is worth the reader's words only for the later state of what the hits say (a long hit's
    // turn node always comes: the hit shows one chunk, the node the whole memory); only those sentences are read
    const laterOnly = !ofSpan && opts.windows === "revised" && n.level !== "turn";
    const summary = await readSentences(store, laterOnly ? stored.filter(holdsLaterState) : stored, reading);
    if (summary.length === 0) continue;
    // the span the question names is what it asks about: a longer excerpt, whatever its similarity
    const pick = ofSpan ? { sentences: 3 * opts.sentences, minSimilarity: -1 } : laterOnly ? { ...opts, minSimilarity: -1 } : opts;
    const excerpt = await closestSentences(deps.embedder, summary, input.vector, pick);
    const sentences = excerpt ?? summary;
    if (sentences.length === 0) continue;
    entries.push({
      id: n.id,
      level: n.level,
      window: { start: formatInstant(n.start), end: formatInstant(n.end) },
      text: sentences.map(sentenceLine).join("\n"),
      sentences,
      sources: [...new Set(sentences.flatMap((s) => s.sources))],
      hits,
    });
  }
  return entries;
}

/**
 * Whether a summary sentence states a later state of these hits: it revised one of them, or is one of them
 * revising something, or comes from a memory the graph records as superseding a hit (or from a hit that supersedes
 * something).
 */
function laterStateOf(hits: Hit[]): (s: SummarySentence) => boolean {
  const shown = new Set(hits.map((h) => h.id));
  const successors = new Set(hits.flatMap((h) => [...(h.supersedes.length ? [h.id] : []), ...h.superseded_by]));
  return (s) => (!!s.revises?.length && (s.revises.some((id) => shown.has(id)) || s.sources.some((id) => shown.has(id)))) || s.sources.some((id) => successors.has(id));
}

/** The `count` sentences closest to the question, in their order; null when the whole summary is wanted or fits. */
async function closestSentences<S extends SummarySentence>(
  embedder: Embedder,
  sentences: S[],
  vector: Float32Array,
  opts: Pick<ContextOptions, "sentences" | "minSimilarity">,
): Promise<S[] | null> {
  const count = opts.sentences;
  if (count === 0 || sentences.length === 0) return null;
  const vectors = isZero(vector) ? null : await embedder.embed(sentences.map((s) => s.text));
  const similarity = sentences.map((_, i) => (vectors ? dot(vectors[i], vector) : 1));
  const keep = new Set(
    [...sentences.keys()]
      .filter((i) => similarity[i] >= opts.minSimilarity)
      .sort((a, b) => similarity[b] - similarity[a] || a - b)
      .slice(0, count),
  );
  return sentences.filter((_, i) => keep.has(i));
}
