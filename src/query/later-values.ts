/**
 * @module query/later-values
 * The later state wins at read time. A person who tells their assistant "I've reached 65% coverage" and weeks
 * later "coverage is now 78%" has revised a value, but in a chat the revision is rarely a sentence of its own:
 * it sits inside a request ("...which has recently improved to 78%, how do I ..."), so detection at write time
 * (graph/detect.ts), which judges whole statements against their nearest older neighbours, misses most of them. The
 * question supplies what detection lacks: the slot. When two hits of one speaker in one scope each have a sentence
 * that answers the question (it holds the question's words) and both give a value of the same kind (a percentage,
 * an amount of money, a date, a time of day, a weekday, a count of the same thing) but the later sentence gives
 * one the earlier did not, the later hit is ranked just above the earlier one, with the reason on it.
 *
 * It acts only on a question that asks what a value is now ("what is my quota", "when is my call", "how many
 * interviews have I secured"), not on one about the past, an order or a span ("when did I", "between"), and only
 * on values of the kind the question asks for ("what time": a time of day). Only order changes: nothing is
 * demoted, marked superseded or written. A later statement is looked for among the first `depth` × k candidates,
 * so a move can bring one memory into the results, in place of the last.
 *
 * Measured (docs/BENCHMARKS.md, "Later values"): BEAM chats 1–10, update_first 9/18 → 12/18 with Recall@10 unchanged
 * (0.496) and nDCG@10 0.370 → 0.364; two fixtures of value updates and hard negatives written by colleagues who had
 * not seen the rule: 8/24 → 10/24 and 11/24 → 12/24, their control questions unchanged. LoCoMo and MADial unchanged.
 */
import { stemmer } from "stemmer";
import { isTimeWord, NUMBER_WORDS } from "../graph/revision-values.js";
import { sameScope } from "../model/scope.js";
import type { HydratedChunk, Store } from "../ports/store.js";
import { isStopWord } from "../text/stopwords.js";
import { sentencesAndWhole, sentencesOf } from "../text/sentences.js";
import { words } from "../text/tokenize.js";
import { MONTH_NAME } from "../time/expressions.js";
import type { Annotated } from "./supersession.js";
import { raiseAbove } from "./raise.js";

export interface LaterValueOptions {
  /** How far below the k results a later statement is looked for, as a multiple of k (0: off). */
  depth: number;
}

export const defaultLaterValues: Readonly<LaterValueOptions> = Object.freeze({ depth: 2 });

const NUMBER = `\\d[\\d,]*(?:\\.\\d+)?|${NUMBER_WORDS.join("|")}`;
/** A sentence that may state a value: a digit, a number word or a day. */
const MAY_STATE_VALUE = new RegExp(`\\d|\\b(?:${NUMBER_WORDS.join("|")})\\b|day\\b`, "i");

/** Kinds of value a sentence states, each with the pattern that finds it; a count is keyed by what it counts. */
const KINDS: [string, RegExp][] = [
  ["percent", /(\d+(?:\.\d+)?)\s?(?:%|percent\b)/gi],
  // a dose is a kind of its own ("50mg" → "100mg"), not a count of milligrams
  ["dose", /\b(\d+(?:\.\d+)?\s?(?:mg|mcg|µg|ml|iu))\b/gi],
  ["money", /[$£€]\s?(\d[\d,]*(?:\.\d+)?k?)/gi],
  ["clock", /\b(\d{1,2}(?::\d\d)?\s?[ap]\.?m\.?|\d{1,2}:\d\d)(?![\d%])/gi],
  ["date", new RegExp(`\\b((?:${MONTH_NAME})\\.?\\s+\\d{1,2}(?!\\d)|\\d{1,2}(?:st|nd|rd|th)?\\s+(?:of\\s+)?(?:${MONTH_NAME})\\b)`, "gi")],
  ["weekday", /\b((?:mon|tues|wednes|thurs|fri|satur|sun)day)s?\b/gi],
];
const COUNT = new RegExp(`(?<![$£€\\d.,:])\\b(${NUMBER})\\s+(?:(?:new|more|total|extra|additional|other)\\s+)?([a-z][a-z-]+)`, "gi");

type Values = Map<string, Set<string>>;

/** The values a sentence states, by kind ("percent", "date", "count:interview", ...). */
export function valuesIn(sentence: string): Values {
  const out: Values = new Map();
  const add = (kind: string, value: string) => {
    if (!out.has(kind)) out.set(kind, new Set());
    out.get(kind)!.add(value.toLowerCase().replace(/[,\s]/g, "").replace(/([ap])\.?m\.?$/, "$1m").replace(/\.$/, ""));
  };
  let rest = sentence;
  for (const [kind, pattern] of KINDS) {
    rest = rest.replace(pattern, (whole, value: string) => {
      add(kind, value);
      return " ".repeat(whole.length);
    });
  }
  for (const m of rest.matchAll(COUNT)) {
    const unit = m[2].toLowerCase();
    // "the 1998 source" is a year, not a count
    // ("coffee number 3 today": a day is when, not what is counted)
    if (isStopWord(unit) || /^\d/.test(unit) || /^(?:19|20)\d\d$/.test(m[1]) || isTimeWord(unit) || unit === "yesterday") continue;
    const n = NUMBER_WORDS.indexOf(m[1].toLowerCase());
    add(`count:${stemmer(unit)}`, n >= 0 ? String(n) : m[1]);
  }
  return out;
}

/** Stems of the content words, split as every channel splits them ("first-fix" is "first" and "fix"). */
export const stems = (text: string): Set<string> => new Set(words(text).filter((w) => !isStopWord(w) && !/^\d/.test(w)).map((w) => stemmer(w)));

/** How many of the question's stems a sentence holds. */
export const held = (sentence: string, asked: Set<string>): number => [...stems(sentence)].filter((s) => asked.has(s)).length;

interface Statement {
  /** The question's words the sentence holds. */
  matched: Set<string>;
  /** Every content stem of the sentence. */
  words: Set<string>;
  values: Values;
}

/** A condition or a possibility names a value without stating it ("if the slot moved to April 2"). */
const UNREAL = /\b(?:if|unless|might|could|would|maybe|perhaps|suppose|supposing|assuming|whether)\b/i;

/** Stems of the words a question names a kind of value with ("what dose", "how much does it cost"). */
const KIND_WORDS: Record<string, string[]> = {
  dose: ["dose", "dosag"],
  money: ["cost", "price", "pai", "fee", "charg"],
  clock: ["time"],
  date: ["date", "deadlin"],
  percent: ["percentag", "rate"],
};

/**
 * A hit's sentence that speaks to the question: the one holding most of its words, among those stating a value. A
 * message in fragments is also read whole (text/sentences: sentencesAndWhole), which answers when it holds more of
 * the question's words than any of its sentences.
 */
function answeringStatement(text: string, asked: Set<string>): Statement | null {
  return bestStatement(sentencesAndWhole(sentencesOf(text)), asked);
}

function bestStatement(sentences: string[], asked: Set<string>): Statement | null {
  let best: Statement | null = null;
  for (const sentence of sentences) {
    if (!MAY_STATE_VALUE.test(sentence) || UNREAL.test(sentence)) continue;
    const all = stems(sentence);
    const values = valuesIn(sentence);
    // "100mg" answers "what dose" as "dose" would: a word naming the kind of a value the sentence gives is held
    const named = [...asked].filter((w) => [...values.keys()].some((k) => KIND_WORDS[k]?.includes(w)));
    const matched = new Set([...all.values()].filter((s) => asked.has(s)).concat(named));
    if (matched.size === 0 || (best && matched.size <= best.matched.size)) continue;
    if (values.size) best = { matched, words: all, values };
  }
  return best;
}

/** A kind of value both give where the later gives one the earlier did not, and what changed ("percent 65 → 78"). */
function changedValue(earlier: Statement, later: Statement, asked: ((kind: string) => boolean) | null, fixed: Values): { kind: string; text: string } | null {
  for (const [kind, before] of earlier.values) {
    // a kind of value the question gives itself is not what it asks ("what do I do on Tuesday evenings?": a later
    // Friday is another evening, not a new answer)
    if ((asked && !asked(kind)) || fixed.has(kind)) continue;
    const after = later.values.get(kind);
    if (!after) continue;
    const fresh = [...after].filter((v) => !before.has(v));
    if (fresh.length) return { kind, text: `${kind.replace(/^count:/, "")} ${[...before].join("/")} → ${fresh.join("/")}` };
  }
  return null;
}

/** Share of the two sentences' words they have in common (Jaccard). */
const overlap = (a: Set<string>, b: Set<string>): number => {
  const shared = [...a].filter((w) => b.has(w)).length;
  return shared / (a.size + b.size - shared || 1);
};
/**
 * Below a tenth of their words in common, two sentences that give the same kind of value speak of different
 * things ("1,350 words a week" and "the essay's 30,000 words"): on BEAM chats 1–10 every pair the step joined
 * below it was a different thing, and two of three revisions it found stood above 0.2.
 */
const MIN_OVERLAP = 0.1;

/**
 * The later statement speaks of what the earlier one answered. The earlier answers the question: it holds two of
 * its words (one, for a question of one word). A revision is often terse ("they've pushed it back a week to May
 * 25"), so the later need only hold half of those words, or name the thing both count when the question names it
 * ("how many interviews"); a later value of another thing ("the bathroom tiles are £52") holds fewer.
 */
function sameSlot(earlier: Statement, later: Statement, kind: string, asked: Set<string>, names: Set<string>): boolean {
  if (earlier.matched.size < Math.min(2, asked.size) || overlap(earlier.words, later.words) < MIN_OVERLAP) return false;
  const common = [...earlier.matched].filter((s) => later.matched.has(s));
  // a name in common says whose, not what: "Kai's birthday on 3 October" and "NZ531 on 13 November, with Kai" give
  // dates of two things; one of the question's other words must be shared when the earlier holds one
  if (common.every((s) => names.has(s)) && [...earlier.matched].some((s) => !names.has(s))) return false;
  const shared = common.length;
  // a word of the question naming the kind of value both give ("deadline") and one more in common tie a terse revision
  // ("the new sprint deadline of April 5") to a long first statement
  const kindNamed = (KIND_WORDS[kind] ?? []).some((w) => asked.has(w) && earlier.matched.has(w) && later.matched.has(w)) && shared >= 2;
  return (shared > 0 && shared * 2 >= earlier.matched.size) || kindNamed || (kind.startsWith("count:") && asked.has(kind.slice("count:".length)) && later.matched.has(kind.slice("count:".length)));
}

/** Words that ask for the present ("currently", "these days") say when, not what: no statement need hold them. */
const PRESENT = new Set(["now", "current", "these", "dai", "present", "moment", "right", "todai", "anymor"]);

const whoSaid = (c: HydratedChunk): string | null => c.memory.speaker?.toLowerCase() ?? c.memory.role;

/**
 * Whether the question asks what a value is now ("what is my quota", "how many interviews have I secured", "when
 * is my call"): a question about the past ("when did I", "what was"), about order or spans ("between", "first",
 * "before") or about every mention ("ever", "all") wants the earlier statements as much as the later ones.
 */
/** The content stems a question asks about, without the words that only ask for the present. */
export const askedStems = (question: string): Set<string> => new Set([...stems(question.replace(HOW, " "))].filter((s) => !PRESENT.has(s)));

/** "How much", "how many", "how long", "how often", "how far" ask for a kind of value: "much" is no word of the thing. */
const HOW = /\bhow\s+(?:much|many|long|often|far)\b/gi;

export function asksForCurrentValue(question: string): boolean {
  const q = question.toLowerCase();
  if (!/^\s*(?:what|which|when|who|where|how (?:many|much|long|often))\b/.test(q)) return false;
  // ("the first sprint" names a thing; "what did I do first" asks for an order)
  if (/\b(?:did|was|were|had|ever|between|before|after|(?<!\b(?:the|my|our|your) )first|order|since|all|each|every|total|change[ds]?|improve[ds]?|increase[ds]?|decrease[ds]?)\b/.test(q)) return false;
  return /\b(?:is|are|am|do|does|have|has|should|will|can)\b|['’]s\b/.test(q);
}

/**
 * The kinds of value a question asks for, read off its wh-phrase: "what time" a time of day, "when" a date, day or
 * time, "how many" a count or a share, "how much" an amount or a count, "what percentage" a share. Null: any kind
 * ("what is my quota").
 */
export function kindsAsked(question: string): ((kind: string) => boolean) | null {
  const q = question.toLowerCase();
  if (/\bwhat time\b/.test(q)) return (k) => k === "clock";
  if (/\b(?:percentage|percent|rate|share)\b/.test(q)) return (k) => k === "percent";
  if (/^\s*when\b|\bwhat (?:date|day)\b|\bwhich day\b|\bdeadline\b/.test(q)) return (k) => k === "date" || k === "weekday" || k === "clock";
  if (/\bhow many\b/.test(q)) return (k) => k.startsWith("count:") || k === "percent";
  if (/\bhow much\b/.test(q)) return (k) => k === "money" || k.startsWith("count:") || k === "percent";
  if (/\b(?:dose|dosage)\b/.test(q)) return (k) => k === "dose";
  if (/\b(?:cost|costs|price|fee|pay)\b/.test(q)) return (k) => k === "money";
  return null;
}

/** Stems of the names a question holds: its capitalised words after the first ("when is Kai's birthday?" → kai). */
function namesIn(question: string): Set<string> {
  const words = question.match(/\p{L}[\p{L}'’-]*/gu) ?? [];
  return new Set(words.slice(1).filter((w) => /^\p{Lu}\p{Ll}/u.test(w) && !/^I['’]/.test(w)).flatMap((w) => [...stems(w.replace(/['’]s$/, ""))]));
}

/** `whole`: the question with its time words (`question` is read without them), for the values it gives itself. */
export async function orderLaterValues(store: Pick<Store, "hydrate">, question: string, ranked: Annotated[], k: number, o: LaterValueOptions, whole = question): Promise<Annotated[]> {
  if (o.depth <= 0 || ranked.length < 2 || !asksForCurrentValue(question)) return ranked;
  const asked = askedStems(question);
  if (asked.size === 0) return ranked;
  const pool = ranked.slice(0, o.depth * k);
  const kinds = kindsAsked(question);
  const names = namesIn(question);
  const fixed = valuesIn(whole);
  const chunks = await store.hydrate(pool.map((a) => a.chunkId));
  const said = new Map<string, Statement>();
  for (const a of pool) {
    const c = chunks.get(a.chunkId);
    if (!c || c.memory.kind === "summary") continue;
    const s = answeringStatement(c.text, asked);
    if (s) said.set(a.memoryId, s);
  }
  if (said.size < 2) return ranked;
  const at = (a: Annotated) => Date.parse(chunks.get(a.chunkId)!.memory.at);
  let moved = false;
  for (const earlier of pool.slice(0, k)) {
    const e = said.get(earlier.memoryId);
    if (!e) continue;
    const ce = chunks.get(earlier.chunkId)!;
    for (const later of pool) {
      const l = said.get(later.memoryId);
      if (!l || later === earlier || later.score > earlier.score || at(later) <= at(earlier)) continue;
      const cl = chunks.get(later.chunkId)!;
      if (whoSaid(cl) !== whoSaid(ce) || !sameScope(cl.memory, ce.memory)) continue;
      const change = changedValue(e, l, kinds, fixed);
      if (!change || !sameSlot(e, l, change.kind, asked, names)) continue;
      raiseAbove(later, earlier.score, `a later value than ${earlier.memoryId} gives (${change.text})`);
      moved = true;
    }
  }
  return moved ? ranked.sort((a, b) => b.score - a.score) : ranked;
}
