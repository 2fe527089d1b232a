/**
 * @module query/coverage
 * Breadth at read time. Some questions are answered by many moments, not one: "summarise how my project has
 * progressed", "in what order did I bring up...", "every time I mentioned...", "how has my plan evolved". Fusion
 * ranks each candidate on its own, so the head of the list can be one exchange and whatever sits next to it, and a
 * reader with a budget of words sees one moment of the several the answer spans.
 *
 * For a question that asks for coverage (`asksForCoverage`, read off its wording), after every other annotate step:
 * - the candidates are taken greedily, as maximal marginal relevance: a moment is a memory and the turns within
 *   `window` of it in its session, and each candidate of its moment already taken multiplies a score by `repeat`;
 * - a memory longer than `longWords` (a document or a file pasted into a chat) has its score scaled by
 *   `longWords` over its length: one moment at the cost of several, which a reader within a budget cannot afford;
 * - for a question that asks for an order, the first `ordered` hits (at most k) are given by date, so the chosen
 *   evidence reads in the order it happened.
 * Each move is in the hit's `adjustments` with its reason. Nothing is brought in or left out: only order changes,
 * and only for such questions; a pinpoint question ("when does my first sprint end?") is left exactly as it was.
 * Memories without a session (notes, documents) are moments of their own. On by default; `coverage: false` (per
 * search, or as a search default) switches it off. Such a question's context also holds short extracts of many of
 * its candidates (query/extracts.ts).
 *
 * Measured on BEAM chats 1–10 (docs/BENCHMARKS.md), where the wording patterns and the settings were also chosen,
 * so those figures are in-sample: on one user–assistant chat a window of two turns joined the user's consecutive
 * requests (each its own evidence) and cost multi-session questions evidence@2000 0.66 → 0.60; one turn keeps a
 * request with its reply. Most of the gain there is the long-memory rule and the date order; LoCoMo is unchanged.
 */
import type { Store } from "../ports/store.js";
import { compareScored } from "./time.js";
import type { Annotated } from "./supersession.js";

/** What a coverage question asks for: every moment of a subject, or those moments in their order. */
export type CoverageAsk = "breadth" | "order";

/** Wordings that ask for an order: "in what order", "the order in which", "chronologically", "timeline". */
const ORDER = /\b(?:in (?:what|which) order|the order (?:in which|of)|in (?:the )?order\b|order(?:ed)? (?:of|in which)|chronolog\w*|(?:a|the) timeline of|sequence of|step by step through|walk me through (?:the )?(?:order|sequence|progress|history|steps))/;

/**
 * Wordings that ask for breadth: a summary or overview, every mention, a list of what was said, a change over
 * time, or something gathered across the conversations.
 */
/** A summary or overview asked for: of what was said and of what was answered. */
const SUMMARY = /\b(?:summar(?:y|ies|i[sz]e|i[sz]ing)|overview|recap|sum up|comprehensive|in (?:a )?nutshell|highlights of)\b/;

const BREADTH: RegExp[] = [
  SUMMARY,
  // every mention, or a count of them
  /\b(?:every time|each time|all the times?|whenever i|both times|the (?:two|three|several) times|every (?:mention|instance|occasion|request|session|conversation|discussion))\b/,
  /\ball (?:of )?(?:my|the|our) (?:\w+ )?(?:mentions|requests|questions|concerns|preferences|plans|goals|ideas|changes|updates|decisions|steps|issues|features|tasks|discussions|conversations|sessions)\b/,
  /\bhow many (?:(?:\w+ )?times (?:did|have) i|different|distinct|total)\b|\bin total\b/,
  // a list asked for ("can you list", "list the", not "how should I list my sources")
  /(?:^|\b(?:you|please) )(?:list|enumerate|itemi[sz]e)\b/,
  // several things named together, to be weighed together
  /^considering (?:my|the|all)\b/,
  // a change over time: "how has my plan evolved", "how did my approach change", "from the start"
  /\bhow (?:has|have|had)\b[^?.!]{0,80}\b(?:evolved|changed|progressed|developed|shifted|grown|improved|adapted|transformed)\b/,
  /\bhow did (?:i|we|my|our|the)\b[^?.!]{0,80}\b(?:evolve|change|progress|develop|shift|grow|improve|adapt|transform)\b/,
  /\b(?:evolution|progression)\b|\bdevelopment of (?:my|our)\b|\bfrom (?:the (?:start|beginning)|my (?:initial|first))\b/,
  // gathered across the conversations
  /\b(?:across|throughout|over the course of|in all of) (?:(?:all|each|every) (?:of )?)?(?:our|my|the|these|those) (?:[\w-]+ ){0,3}(?:conversations?|sessions?|discussions?|chats?|requests?|messages?|exchanges?|interactions?|questions)\b/,
  /\bacross (?:all )?(?:sessions|conversations|discussions|chats)\b/,
  /\bover (?:the (?:past|last) )?(?:several|many|few|recent) (?:conversations|sessions|discussions|weeks|months)\b/,
  // preferences over time
  /\bmy (?:\w+ )?preferences (?:over time|so far|have)\b/,
];

/**
 * Whether a question asks for coverage, and of which kind; null for a pinpoint question. Read off the wording
 * only: a question that names one value, one event or one time ("when does my sprint end", "what did I order")
 * matches none of the patterns.
 */
export function asksForCoverage(question: string): CoverageAsk | null {
  const q = question.toLowerCase().replace(/[’‘]/g, "'").replace(/\s+/g, " ");
  if (ORDER.test(q)) return "order";
  return BREADTH.some((p) => p.test(q)) ? "breadth" : null;
}

/**
 * Whether a coverage question asks for a summary ("a comprehensive summary of how my project progressed"): the
 * answers given are part of what it covers, where an order or a count asks for what the person brought up.
 */
export function asksForSummary(question: string): boolean {
  return asksForCoverage(question) !== null && SUMMARY.test(question.toLowerCase().replace(/\s+/g, " "));
}

export interface CoverageOptions {
  /** Turns either side of a memory, in its session, that count as the same moment (0: off). */
  window: number;
  /** A candidate's score is multiplied by this for each candidate of its moment chosen before it (1: off). */
  repeat: number;
  /** For an order question, how many of the first hits (at most k) are given by date (0: none). */
  ordered: number;
  /** A memory longer than this many words has its score scaled by this over its length (0: off). */
  longWords: number;
}

/**
 * One turn either side: a request and its reply are one moment, the user's next request another (two turns joined
 * those and lost evidence on BEAM). Each candidate of a moment already taken halves a score: a second hit of one
 * moment still ranks above a weak hit of another. Ten hits in time order: what a reader takes in as one answer. A
 * thousand words: a pasted document or file, twice a long reply (BEAM's assistant replies run ~450 words).
 */
export const defaultCoverage: Readonly<CoverageOptions> = Object.freeze({ window: 1, repeat: 0.5, ordered: 10, longWords: 1000 });

/** The candidates whose memory is longer than `limit` words, with their length. */
async function longMemories(store: Pick<Store, "hydrate">, ranked: Annotated[], limit: number): Promise<Map<string, number>> {
  const chunks = await store.hydrate(ranked.map((r) => r.chunkId));
  const out = new Map<string, number>();
  for (const c of chunks.values()) {
    const words = c.memory.text.split(/\s+/).filter(Boolean).length;
    if (words > limit) out.set(c.memory.id, words);
  }
  return out;
}

/** A score just below `score`: the gap a move needs to sort under a hit, and no more. */
const justBelow = (score: number): number => score - Number.EPSILON * Math.max(1, Math.abs(score)) * 4;

export async function coverMoments(
  store: Pick<Store, "sessionNeighbours" | "eventTimes" | "hydrate">,
  question: string,
  ranked: Annotated[],
  k: number,
  o: CoverageOptions,
): Promise<Annotated[]> {
  const ask = asksForCoverage(question);
  if (!ask || o.window <= 0 || ranked.length < 2) return ranked;
  const near = await store.sessionNeighbours(
    ranked.map((r) => r.memoryId),
    o.window,
  );
  const long = o.longWords > 0 ? await longMemories(store, ranked, o.longWords) : new Map<string, number>();
  let changed = false;
  // a long memory pays for its length first: its score per word, as an ordinary message's
  for (const r of ranked) {
    const words = long.get(r.memoryId);
    if (words === undefined) continue;
    const factor = o.longWords / words;
    r.score *= factor;
    r.adjustments.push({ reason: `breadth: ${words} words, one moment at the cost of several (over ${o.longWords})`, factor });
    changed = true;
  }
  // Greedy, as maximal marginal relevance: the next hit is the candidate of highest score once each candidate of
  // its moment already chosen has cost it `repeat`. A choice only lowers others, so the order is by final score.
  const index = new Map(ranked.map((r, i) => [r.memoryId, i]));
  const seen = new Array<number>(ranked.length).fill(0);
  const first = new Array<string | null>(ranked.length).fill(null);
  const left = new Set(ranked.map((_, i) => i));
  const value = (i: number) => ranked[i].score * o.repeat ** seen[i];
  const order: Annotated[] = [];
  while (left.size) {
    let best = -1;
    for (const i of left) if (best < 0 || value(i) > value(best) || (value(i) === value(best) && compareScored(ranked[i], ranked[best]) < 0)) best = i;
    left.delete(best);
    const r = ranked[best];
    if (seen[best] > 0) {
      const factor = o.repeat ** seen[best];
      r.score *= factor;
      const around = near.get(r.memoryId)!;
      r.adjustments.push({
        reason: `breadth: the question asks for many moments and ${seen[best] === 1 ? `${first[best]} ranks` : `${seen[best]} hits of its moment rank`} above it (within ${o.window} turns, session ${JSON.stringify(around.session)})`,
        factor,
      });
      changed = true;
    }
    order.push(r);
    const around = near.get(r.memoryId);
    for (const id of around ? [...around.before, ...around.after] : []) {
      const j = index.get(id);
      if (j === undefined || !left.has(j)) continue;
      seen[j]++;
      first[j] ??= r.memoryId;
    }
  }
  // the first hits only, and never more than the k asked for: dating deeper would bring a turn into the results for
  // being early rather than relevant
  const ordered = Math.min(o.ordered, k);
  if (ask === "order" && ordered > 1) {
    const head = order.slice(0, ordered);
    const times = await store.eventTimes(head.map((r) => r.memoryId));
    const at = (r: Annotated) => times.get(r.memoryId) ?? Infinity;
    const dated = [...head].sort((a, b) => at(a) - at(b) || compareScored(a, b));
    // scores follow the new order: a hit that would sort above the one it now follows is lowered just below it
    const all = [...dated, ...order.slice(ordered)];
    for (let i = 1; i < all.length; i++) {
      const r = all[i];
      const limit = justBelow(all[i - 1].score);
      if (r.score <= limit) continue;
      r.adjustments.push({ reason: i < ordered ? `in time order: the question asks for an order, so its first ${head.length} hits are given by date` : "follows the hits given by date", delta: limit - r.score });
      r.score = limit;
      changed = true;
    }
    return all;
  }
  return changed ? order : ranked;
}
