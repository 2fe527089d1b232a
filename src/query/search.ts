/**
 * @module query/search
 * The search pipeline: parse the query → run the channels → rank recency among their candidates → fuse by
 * weighted RRF → hydrate only the top k → annotate and present.
 */
import type { BudgetReport, Channel, ChannelQuery } from "../channels/channel.js";
import type { GraphChannel } from "../channels/graph.js";
import { rankByRecency, recencyCandidates } from "../channels/recency.js";
import { fuse } from "../fuse/rrf.js";
import { agreementWeights, type AgreementOptions, type ChannelAgreement } from "../fuse/agreement.js";
import { evidenceLists, withEvidence } from "./evidence.js";
import type { ChannelName, ChannelReport, Hit, Ranked, SearchResult, StepName, StepReport } from "../model/types.js";
import { memoriesPassing } from "./filter.js";
import { matchesLquery } from "../topics/lquery.js";
import { annotateSupersession } from "./supersession.js";
import { laterMentionsFirst } from "./later-mentions.js";
import { annotateRelations } from "./relations.js";
import type { Embedder } from "../ports/embedder.js";
import type { Store } from "../ports/store.js";
import { distinctContentWords } from "../text/tokenize.js";
import type { ResolvedRecall } from "./options.js";
import { adjustForTime, type Scored } from "./time.js";
import { raiseSessionNeighbours, type NeighbourOptions } from "./neighbours.js";
import { cueSpeakers, cueWeights } from "./cue.js";
import { orderLaterValues, type LaterValueOptions } from "./later-values.js";
import { raiseRevisedStatements } from "./revised-statements.js";
import { answerKindFirst } from "./answer-kind.js";
import { echoesBelowSources } from "./echoes.js";
import { formerValuesFirst } from "./former-values.js";
import { standingFirst } from "./standing.js";
import { currentAttributeFirst } from "./current-attribute.js";
import { coverMoments, defaultCoverage } from "./coverage.js";
import { raiseNamedSpeakers, type SpeakerOptions } from "./speakers.js";
import { extractEntities } from "../entities/extract.js";
import { parseTimeExpressions } from "../time/expressions.js";
import { namesOnlyTime } from "../time/only-time.js";
import { defaultTimeAdjustments } from "../config/defaults.js";
import { selectTerms, type TermPruning } from "../text/terms.js";
import { dropSummaries, leaveOutSummaries, summariesRankFor, summaryContext, type ContextOptions } from "./context.js";
import { timeReport } from "./time-note.js";
import { isUnsupported } from "../errors.js";
import { inSpan } from "../tracing.js";
import { readOnce } from "./read-once.js";
import { stepRunner } from "./steps.js";

export interface SearchDeps {
  store: Store;
  embedder: Embedder;
  channels: Channel[];
  pruning: TermPruning;
  /** Score factor for superseded memories. */
  demotion: number;
  /** The time zone time expressions are read in (the pyramid's). */
  zone: string;
  /** Which summaries come back as `context` (see query/context.ts). */
  context: ContextOptions;
  /** Runs after the others: it is seeded by their lists (see channels/graph.ts). */
  graph?: GraphChannel;
  /** Candidates next to other candidates in their session gain a share of their scores (query/neighbours.ts). */
  neighbours: NeighbourOptions;
  /** Candidates said by a person the query names gain a share of their scores (query/speakers.ts). */
  speakers: SpeakerOptions;
  /** A later value of what the question asks ranks above the earlier one (query/later-values.ts). */
  laterValues: LaterValueOptions;
  /** Channel weights adapt to how much each channel's top memories the others share (fuse/agreement.ts). */
  agreement: AgreementOptions;
  /**
   * How one search reads the store: by default each chunk and memory once (query/read-once.ts); `(s) => s` reads
   * through on every call, which tests compare against.
   */
  reads?: (store: Store) => Store;
}

const round = (ms: number) => Math.round(ms * 1000) / 1000;

export async function search(deps: SearchDeps, text: string, opts: ResolvedRecall): Promise<SearchResult> {
  const started = performance.now();
  // the annotate steps each read the head of the ranking: the first read of a chunk or memory serves the others
  deps = { ...deps, store: (deps.reads ?? readOnce)(deps.store) };
  if (opts.match) {
    // an lquery becomes the exact set of the store's topics it matches, which every channel filters on
    const all = await deps.store.topicCounts();
    opts = { ...opts, filter: { ...opts.filter, topics: all.map((t) => t.path).filter((p) => matchesLquery(opts.match!, p)) } };
  }
  const time = opts.time === "off" ? null : parseTimeExpressions(text, opts.now, deps.zone);
  if (time?.span && opts.time === "restrict") {
    const since = Math.max(opts.filter.since ?? -Infinity, time.span.start);
    const until = Math.min(opts.filter.until ?? Infinity, time.span.end);
    opts = { ...opts, filter: { ...opts.filter, since, until: Math.max(since, until) } };
  }
  // summaries rank with everything only for a question naming a time span; otherwise they come as context
  const pyramid = opts.pyramid;
  const left = !pyramid || !summariesRankFor(time, deps.context) ? leaveOutSummaries(opts.filter, opts.depth) : null;
  const depth = opts.depth;
  if (left) opts = { ...opts, filter: left.filter, depth: left.depth };
  // a conversation passed as the question: its vector channels blur (query/cue.ts)
  if (cueSpeakers(text).length) opts = { ...opts, weights: cueWeights(opts.weights) };
  // the lexical and vector channels search the question without its date words, and nothing when what is left
  // only asks what took place ("what happened last Tuesday"): the time channel's window answers that
  const lexical = !time ? text : time.span && namesOnlyTime(time.text) ? "" : time.text;
  const selected = new Set<ChannelName>(opts.channels);
  const wantsVector = selected.has("dense");
  const candidates = distinctContentWords(lexical);
  const stats = await deps.store.termStats(candidates);
  const words = selectTerms(candidates, stats, deps.pruning);
  // the query's names, read once: the graph channel walks from them (to memories that pass the filter), the speaker
  // step raises what they said (among candidates, which passed it)
  const nameKeys = extractEntities(lexical, null).map((e) => e.key);
  const query: ChannelQuery = {
    entities: nameKeys.length ? await deps.store.entities.byKeys(nameKeys) : [],
    text: lexical,
    words,
    stats,
    pruning: deps.pruning,
    // the context's excerpts are chosen by this vector too
    vector: wantsVector || opts.pyramid ? (await deps.embedder.embed([lexical]))[0] : new Float32Array(deps.embedder.dimensions),
    filter: opts.filter,
    time,
    depth: opts.depth,
  };

  const lists: Partial<Record<ChannelName, Ranked[]>> = {};
  const reports: Partial<Record<ChannelName, ChannelReport>> = {};
  // Concurrently: a networked store answers the channels' queries side by side. A channel whose store lacks a
  // capability (UNSUPPORTED) gives an empty list and says why; any other error fails the search.
  const channelsStart = performance.now();
  const answers = await Promise.all(
    deps.channels
      .filter((channel) => selected.has(channel.name))
      .map(async (channel) => {
        let budget: BudgetReport | undefined;
        try {
          const list = await inSpan("cascade.channel", { "cascade.channel": channel.name }, async (span) => {
            const list = await channel.run({ ...query, report: (b) => (budget = b) });
            span.setAttribute("cascade.candidates", list.length);
            return list;
          });
          return { channel, list, ms: performance.now() - channelsStart, budget };
        } catch (err) {
          if (!isUnsupported(err)) throw err;
          return { channel, list: [], ms: performance.now() - channelsStart, unsupported: err.message };
        }
      }),
  );
  // lists in the channels' own order, whatever order they answered in, so that fusion's ties break the same way
  for (const { channel, list, ms, unsupported, budget } of answers) {
    lists[channel.name] = left?.drop ? dropSummaries(list, depth) : list;
    const report: ChannelReport = { weight: opts.weights[channel.name], candidates: lists[channel.name]!.length, ms: round(ms) };
    reports[channel.name] = { ...report, ...(unsupported ? { unsupported } : {}), ...(budget ? { budget } : {}) };
  }
  if (selected.has("recency")) {
    const t0 = performance.now();
    const candidates = recencyCandidates(evidenceLists(lists), opts.recencyPool);
    const list = await inSpan("cascade.channel", { "cascade.channel": "recency", "cascade.candidates": candidates.size }, async () => rankByRecency(candidates, await deps.store.eventTimes([...candidates.keys()])));
    lists.recency = list;
    reports.recency = { weight: opts.weights.recency, candidates: list.length, ms: round(performance.now() - t0) };
  }
  if (selected.has("graph") && deps.graph) {
    const t0 = performance.now();
    // seeded by evidence only: weak dense hits support a memory, they do not lead anywhere
    const walked = await inSpan("cascade.channel", { "cascade.channel": "graph" }, async (span) => {
      const walked = await deps.graph!.run(query, evidenceLists(lists), { asOf: opts.asOf, knownAt: opts.knownAt }, { k: opts.rrfK, hits: opts.k });
      span.setAttribute("cascade.candidates", walked.length);
      return walked;
    });
    // the walk can reach summary nodes through their entities: they stay out of the hits like every channel's
    const list = left?.drop ? dropSummaries(walked, depth) : walked;
    lists.graph = list;
    reports.graph = { weight: opts.weights.graph, candidates: list.length, ms: round(performance.now() - t0) };
  }

  // weights that adapt to this query: a channel the others do not back counts less; its report says why
  const weights = opts.agreement ? agreementWeights(lists, opts.weights, opts.rrfK, deps.agreement) : { weights: opts.weights, why: {} };
  for (const [c, why] of Object.entries(weights.why) as [ChannelName, ChannelAgreement][]) {
    if (reports[c]) reports[c] = { ...reports[c], weight: weights.weights[c]!, agreement: why };
  }

  // Time adjustments see every candidate (one query for their times). Only the head of that list can then reach
  // the top k: demotion only lowers a memory, and a successor is raised to the score of a stale memory that is
  // itself in the head. Annotating supersession for all ~150 candidates cost 3–8 ms a query at 10% superseded.
  // fused results become scored ones in place (a copy of each would be garbage on every search)
  let scored: Scored[] = await inSpan("cascade.fusion", { "cascade.rrf_k": opts.rrfK }, async (span) => {
    const fused = withEvidence(fuse(lists, weights.weights, opts.rrfK), lists).map((f) => {
      const s = f as Scored;
      s.score = f.rrf;
      s.adjustments = [];
      return s;
    });
    span.setAttribute("cascade.candidates", fused.length);
    return fused;
  });
  const annotateStart = performance.now();
  // a fused answer only: one channel asked alone (`--channels bm25`) answers with its own ranking
  const fusedAnswer = [...selected].filter((c) => c !== "recency").length > 1;
  const steps = {} as Record<StepName, StepReport>;
  /** Runs one read-time step when it applies and is on, and says what it did (query/steps.ts). */
  const step = stepRunner(steps, { ...opts.steps, ...(opts.coverage ? {} : { coverage: false }) }, fusedAnswer);
  const related = await inSpan("cascade.annotation", { "cascade.candidates": scored.length, "cascade.k": opts.k }, async () => {
    if (time && opts.time === "boost") scored = await adjustForTime(deps.store, scored, time, defaultTimeAdjustments);
    scored = await step("neighbours", scored, (s) => raiseSessionNeighbours(deps.store, s, deps.neighbours));
    scored = await step("speakers", scored, (s) => raiseNamedSpeakers(deps.store, s, query.entities, deps.speakers, lexical));
    const graphTime = { asOf: opts.asOf, knownAt: opts.knownAt };
    // what a step may bring in that no channel found: only memories passing the search's filter
    const admissible = (ids: string[]) => memoriesPassing(deps.store, ids, opts.filter);
    const annotated = await annotateSupersession(deps.store, scored.slice(0, Math.max(3 * opts.k, 30)), graphTime, { demotion: deps.demotion, currentOnly: opts.currentOnly }, admissible);
    // a reply found through the turn it answers below that turn
    const sourced = await step("echoes", annotated, (a) => echoesBelowSources(deps.store, lexical, a));
    // the kind of value asked first, then the present of a revised statement above the hit it revises
    const answering = await step("answer-kind", sourced, (a) => answerKindFirst(deps.store, lexical, a));
    const revised = await step("revised-statements", answering, (a) => raiseRevisedStatements(deps.store, lexical, a, graphTime, admissible));
    // a question about the present: a later memory naming what the answer names, and changing it, above the answer
    const mentioned = await step("later-mentions", revised, (a) => laterMentionsFirst(deps.store, lexical, a, opts.filter, graphTime, admissible));
    // a standing attribute asked about ("where do I work now?"): its latest statement first
    const present = await step("current-attribute", mentioned, (a) => currentAttributeFirst(deps.store, lexical, a, opts.filter, graphTime, admissible));
    const later = await step("later-values", present, (a) => orderLaterValues(deps.store, lexical, a, opts.k, deps.laterValues, text));
    // a question about a former value: the replaced memories above the rest of the head
    const former = await step("former-values", later, (a) => formerValuesFirst(lexical, a));
    // a request for help: the standing instructions and preferences it falls under among the first hits
    const standing = await step("standing", former, (a) => standingFirst(deps.store, text, a, opts.filter, graphTime, admissible));
    // the whole question: "in what order" and "last week" both say what it asks for
    const ordered = await step("coverage", standing, (a) => coverMoments(deps.store, text, a, opts.k, defaultCoverage));
    return annotateRelations(deps.store, ordered, opts.k, graphTime, admissible);
  });
  const annotateMs = round(performance.now() - annotateStart);
  const chunks = await deps.store.hydrate(related.slice(0, opts.k).map((f) => f.chunkId));
  // a hit whose memory another process forgot (or whose summary it rewrote) since the channels ran is left out
  const top = related.slice(0, opts.k).filter((f) => chunks.has(f.chunkId));
  const hits: Hit[] = top.map((f) => {
    const c = chunks.get(f.chunkId)!;
    const m = c.memory;
    return {
      id: m.id,
      kind: m.kind,
      level: m.kind === "summary" ? ((m.metadata.level as string | undefined) ?? null) : null,
      window: m.kind === "summary" ? { start: String(m.metadata.start), end: String(m.metadata.end) } : null,
      text: m.text,
      title: m.title,
      topic: m.topic,
      at: m.at,
      speaker: m.speaker,
      user: m.user,
      agent: m.agent,
      ref: typeof m.metadata.ref === "string" ? m.metadata.ref : null,
      chunk: { ord: c.ord, start: c.start, end: c.end, text: c.text },
      sources_hit: f.sourcesHit,
      ranks: f.ranks,
      rrf: f.rrf,
      score: f.score,
      adjustments: f.adjustments,
      status: f.status,
      superseded_by: f.supersededBy,
      supersedes: f.supersedes,
      revised: f.revised,
      contradicts: f.contradicts,
    };
  });
  const context = pyramid
    ? await inSpan("cascade.context", { "cascade.hits": hits.length }, async (span) => {
        const entries = await summaryContext(deps, { hits, vector: query.vector, time, asOf: opts.asOf, knownAt: opts.knownAt, filter: opts.filter, currentOnly: opts.currentOnly, ...(opts.coverage ? { coverage: { question: text, candidates: related.map((r) => r.memoryId) } } : {}) }, deps.context);
        span.setAttribute("cascade.summaries", entries.length);
        return entries;
      })
    : [];
  const matched = opts.time === "restrict" ? scored.length : scored.filter((s) => s.adjustments.some((a) => a.reason.startsWith("in time window"))).length;
  return {
    query: text,
    k: opts.k,
    rrf_k: opts.rrfK,
    hits,
    context,
    ...timeReport(time, matched, hits.length),
    channels: reports,
    steps,
    annotate_ms: annotateMs,
    took_ms: round(performance.now() - started),
  };
}
