/**
 * @module graph/cue-judge
 * The default offline revision judge. Two memories must first share a subject (enough content words in
 * common); then the newer one must carry a signal of change:
 *   - a revision cue ("actually", "instead", "no longer", "switched to", "reverted", "changed my mind", ...),
 *   - a contradicting value for the same attribute ("pool size to 50" → "pool size back to 20"),
 *   - a flipped polarity (negation, or an antonym such as enabled/disabled, raise/lower).
 * Markers of addition ("also", "in addition") and of continuity ("still", "as agreed") count against it, and
 * a restatement with no signal is not a revision. Deterministic; explains itself in `reason`.
 */
import { stemmer } from "stemmer";
import type { JudgedMemory, RevisionJudge, Verdict } from "../ports/judge.js";
import { isStopWord } from "../text/stopwords.js";

/** Revision cues with their weight: a cue that only says "now" is weaker evidence than "we reverted". */
const CUES: [RegExp, string, number][] = [
  [/\brevert(ed|ing)?\b|\brolled back\b|\broll(ing)? back\b/i, "reverted", 0.45],
  [/\bchanged? (my|our|their) minds?\b|\bon second thought\b|\bscratch that\b/i, "changed mind", 0.45],
  [/\bno longer\b|\bnot any ?more\b|\bno more\b/i, "no longer", 0.45],
  [/\binstead\b/i, "instead", 0.45],
  [/\bswitch(ed|ing|es)?\b/i, "switched", 0.45],
  [/\bdecided against\b|\bcancel(l)?ed\b|\bscrapp?(ed)?\b|\bdropped\b|\bditched\b/i, "dropped", 0.45],
  [/\breplac(e|ed|es|ing)\b|\bsuperseded?\b|\boverrid(e|es|den)\b/i, "replaced", 0.45],
  [/\bactually\b/i, "actually", 0.3],
  [/\bfrom [\p{L}\p{N}:.]+ to [\p{L}\p{N}]+/iu, "from … to", 0.3],
  [/\b(moved|moving|changed|changing|slipped|pushed|postponed|delayed|rescheduled|cut|lowered|raised|reduced|increased|upgraded|downgraded|dropped|scaled)\b(\W+\w+){0,6}?\W+(to|from|out of)\b/i, "changed to", 0.3],
  [/\bback to\b/i, "back to", 0.3],
  [/\bnow\b|\bfrom now on\b|\bthese days\b|\bagain\b/i, "now", 0.15],
];

const CONTINUITY = /\b(still|as agreed|as planned|reminder|just confirming|confirm(ed|ing)?|stays?|remains?)\b/i;
const ADDITION = /\b(also|in addition|as well|another|additionally|too)\b/i;
const NEGATION = /\b(not|no|never|don't|doesn't|won't|isn't|aren't|can't|cannot|stop(ped)?|without)\b|n't\b/i;

const ANTONYMS: [string, string][] = [
  ["enabl", "disabl"], ["rais", "lower"], ["increas", "decreas"], ["add", "remov"], ["start", "stop"],
  ["allow", "deni"], ["accept", "reject"], ["on", "off"], ["open", "close"], ["includ", "exclud"],
  ["support", "drop"], ["hire", "fire"], ["up", "down"], ["more", "less"], ["yes", "no"],
];

const WORD = /[\p{L}\p{N}]+(?:[.:][0-9]+)?/gu;

/**
 * Words that describe a change ("actually we switched ... instead") rather than what changed. Counted as subject
 * words they diluted the overlap of a revision with its original: "Actually we switched the message bus from
 * Kafka to NATS instead" shared only 3 of 7 stems with "We use Kafka as the message bus between the order and
 * billing services" and was judged a different subject.
 */
const CHANGE_WORDS = new Set(
  ["actually", "instead", "switched", "switch", "reverted", "replaced", "changed", "change", "moved", "now", "longer",
    "anymore", "dropped", "decided", "lowered", "raised", "pushed", "postponed", "days", "since", "plan"].map((w) => stemmer(w)),
);

function stems(text: string): string[] {
  return (text.toLowerCase().match(WORD) ?? [])
    .filter((w) => !isStopWord(w) && !/^\d/.test(w))
    .map((w) => stemmer(w))
    .filter((w) => !CHANGE_WORDS.has(w));
}

/**
 * Closed classes of values: two memories that say the same thing with a different member of one class
 * (Tuesdays → Thursdays, March → April) state conflicting values, as two numbers for one attribute do.
 */
const VALUE_CLASSES: string[][] = [
  ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"],
  ["january", "february", "march", "april", "may", "june", "july", "august", "september", "october", "november", "december"],
  ["morning", "afternoon", "evening", "night", "noon", "midnight"],
  ["daily", "weekly", "biweekly", "monthly", "quarterly", "yearly", "annually", "nightly", "hourly"],
];

function classValues(text: string): Map<number, Set<string>> {
  const out = new Map<number, Set<string>>();
  for (const w of text.toLowerCase().match(/\p{L}+/gu) ?? []) {
    const base = w.endsWith("s") && !VALUE_CLASSES.some((c) => c.includes(w)) ? w.slice(0, -1) : w;
    VALUE_CLASSES.forEach((c, i) => {
      if (c.includes(base)) out.set(i, (out.get(i) ?? new Set()).add(base));
    });
  }
  return out;
}

/** A member of a closed class in the newer memory that replaces another member of it in the older one. */
function conflictingClassValue(older: string, newer: string): string | null {
  const a = classValues(older);
  const b = classValues(newer);
  for (const [cls, olds] of a) {
    const news = b.get(cls);
    if (!news) continue;
    const gone = [...olds].filter((v) => !news.has(v));
    const come = [...news].filter((v) => !olds.has(v));
    if (gone.length > 0 && come.length > 0) return `${gone.join("/")} → ${come.join("/")}`;
  }
  return null;
}

/** Share of the smaller memory's content stems that the other one holds too. */
function subjectOverlap(a: string[], b: string[]): number {
  const sa = new Set(a);
  const sb = new Set(b);
  if (sa.size === 0 || sb.size === 0) return 0;
  let shared = 0;
  for (const s of sa) if (sb.has(s)) shared++;
  return shared / Math.min(sa.size, sb.size);
}

/** (attribute words, number, unit) for each number: the two content words before it, the word after it. */
function valuesOf(text: string): { keys: Set<string>; value: string; unit: string | null }[] {
  const tokens = text.toLowerCase().match(WORD) ?? [];
  const out: { keys: Set<string>; value: string; unit: string | null }[] = [];
  tokens.forEach((t, i) => {
    if (!/^\d/.test(t)) return;
    const keys = new Set<string>();
    for (let j = i - 1; j >= 0 && keys.size < 2; j--) {
      if (/^\d/.test(tokens[j])) break;
      if (!isStopWord(tokens[j])) keys.add(stemmer(tokens[j]));
    }
    const next = tokens[i + 1];
    out.push({ keys, value: t, unit: next && !/^\d/.test(next) && !isStopWord(next) ? stemmer(next) : null });
  });
  return out;
}

/** A value of the same attribute (shared attribute word, same or no unit) that differs between the two. */
function conflictingValue(older: string, newer: string): string | null {
  for (const a of valuesOf(older)) {
    for (const b of valuesOf(newer)) {
      if (a.value === b.value) continue;
      if (a.unit && b.unit && a.unit !== b.unit) continue;
      const shared = [...a.keys].find((k) => b.keys.has(k));
      if (shared) return `${shared}: ${a.value} → ${b.value}`;
    }
  }
  return null;
}

function polarityFlip(older: string, newer: string, overlap: number): string | null {
  // a negation only flips the claim when the two say nearly the same thing; otherwise "no" is just a word
  if (overlap >= 0.5 && NEGATION.test(newer) !== NEGATION.test(older)) return "negation";
  // every word, stop words included: "on"/"off" and "up"/"down" are antonyms too
  const allStems = (text: string) => new Set((text.toLowerCase().match(WORD) ?? []).map((w) => stemmer(w)));
  const so = allStems(older);
  const sn = allStems(newer);
  for (const [x, y] of ANTONYMS) {
    if ((so.has(x) && sn.has(y) && !so.has(y)) || (so.has(y) && sn.has(x) && !so.has(x))) return `${x}/${y}`;
  }
  return null;
}

export const defaultCueJudgeOptions: Readonly<{ minOverlap: number }> = Object.freeze({
  /** Below this share of shared content words the two memories are about different things. */
  minOverlap: 0.45,
});

export class CueJudge implements RevisionJudge {
  readonly id = "cue-judge/1";
  readonly provenance = "heuristic" as const;
  private readonly opts: typeof defaultCueJudgeOptions;

  constructor(options: Partial<typeof defaultCueJudgeOptions> = {}) {
    this.opts = { ...defaultCueJudgeOptions, ...options };
  }

  async judge(older: JudgedMemory, newer: JudgedMemory): Promise<Verdict> {
    return judgeRevision(older.text, newer.text, this.opts.minOverlap);
  }
}

export function judgeRevision(older: string, newer: string, minOverlap = defaultCueJudgeOptions.minOverlap): Verdict {
  const overlap = subjectOverlap(stems(older), stems(newer));
  if (overlap < minOverlap) return { confidence: 0, reason: `different subjects (overlap ${overlap.toFixed(2)})` };
  const cues = CUES.filter(([re]) => re.test(newer) && !re.test(older));
  const conflict = conflictingValue(older, newer) ?? conflictingClassValue(older, newer);
  const flip = polarityFlip(older, newer, overlap);
  const signals: string[] = [];
  let score = 0;
  if (cues.length) {
    score += Math.min(0.55, Math.max(...cues.map(([, , w]) => w)) + 0.1 * (cues.length - 1));
    signals.push(`cue: ${cues.map(([, name]) => name).join(", ")}`);
  }
  if (conflict) {
    score += 0.4;
    signals.push(`value ${conflict}`);
  }
  if (flip) {
    score += 0.3;
    signals.push(`polarity: ${flip}`);
  }
  if (score === 0) return { confidence: 0, reason: `same subject (overlap ${overlap.toFixed(2)}) but no sign of a change` };
  if (ADDITION.test(newer) && !ADDITION.test(older)) {
    score -= 0.35;
    signals.push("but adds rather than replaces");
  }
  if (CONTINUITY.test(newer) && !CONTINUITY.test(older)) {
    score -= 0.35;
    signals.push("but confirms rather than changes");
  }
  const confidence = Math.max(0, Math.min(1, score + 0.4 * Math.min(1, overlap / 0.6)));
  return { confidence: Math.round(confidence * 1000) / 1000, reason: `${signals.join("; ")} (overlap ${overlap.toFixed(2)})` };
}
