/**
 * @module graph/cue-judge
 * The default offline revision judge, on the tagged text (graph/revision-parse). A newer memory revises an
 * older one when
 *   - it asserts something: a question, a condition, a possibility or a wish changes nothing;
 *   - it speaks of the same subject (enough content words in common) and of the same holder: "Rita flies to
 *     Lisbon on the 27th" does not move Sam's flight, nor does "Marcus's wife takes 10 mg" change Marcus's dose,
 *     unless it says that the new one takes over ("Pietro took over as goalkeeper");
 *   - and it carries a sign of change (graph/revision-cues, graph/revision-values): a verb of change acting on
 *     what the older memory spoke of ("moved the Lisbon trip", "the review was postponed"), a marker ("instead",
 *     "no longer", "from 3 to 5"), another value for the same attribute, or a flipped polarity.
 * A value changed with no other sign is a revision only when the newer memory restates the older one around it
 * ("standup is on Thursdays" after "standup is on Tuesdays"); otherwise it may be another event ("the school
 * play is on June 10" after "the recital is on June 3") and is at most a suggestion. Markers of addition
 * ("also") and of continuity ("still", "as agreed") count against. Deterministic; explains itself in `reason`.
 */
import type { JudgedMemory, RevisionJudge, Verdict } from "../ports/judge.js";
import { isStopWord } from "../text/stopwords.js";
import { stemmer } from "stemmer";
import { changeCues, changeWords, CUE_WORDS, isChangeStem, NEGATIONS, type Cue } from "./revision-cues.js";
import { VALUE_WORDS } from "./revision-values.js";
import { parseMemory, type Parsed, type Token } from "./revision-parse.js";
import { valueChange } from "./revision-values.js";

const CONTINUITY = /\b(still|as agreed|as planned|reminder|just confirming|confirm(ed|ing)?|stays?|remains?)\b/i;
const ADDITION = /\b(also|in addition|as well|another|additionally|too)\b/i;

const ANTONYMS: [string, string][] = [
  ["enabl", "disabl"], ["rais", "lower"], ["increas", "decreas"], ["add", "remov"], ["start", "stop"],
  ["allow", "deni"], ["accept", "reject"], ["on", "off"], ["open", "close"], ["includ", "exclud"],
  ["support", "drop"], ["hire", "fire"], ["up", "down"], ["more", "less"], ["yes", "no"],
  ["big", "small"], ["larg", "small"], ["long", "short"], ["earli", "late"], ["high", "low"], ["love", "hate"],
  ["like", "dislik"], ["full", "half"], ["light", "dark"], ["hot", "cold"],
];

/**
 * Nouns that name a person by their relation to another ("Marcus's wife", "her brother Nils"): a subject built
 * on one that the older memory did not have is someone else.
 */
const RELATIONS = new Set(
  `wife husband partner spouse fiance fiancee boyfriend girlfriend son daughter child children kid baby mother mom mum
  father dad parent brother sister sibling twin grandma grandmother grandpa grandfather granddaughter grandson aunt
  uncle cousin nephew niece friend roommate flatmate housemate neighbour neighbor colleague coworker boss manager
  deputy assistant teammate classmate everyone everybody others`.split(/\s+/),
);

/** A person the newer memory's subject names that the older memory never mentioned, or null. */
function otherHolder(older: Parsed, newer: Parsed): string | null {
  const [start, end] = newer.subject;
  const said = new Set(older.tokens.map((t) => t.lemma));
  for (let i = start; i < end; i++) {
    const t = newer.tokens[i];
    if (said.has(t.lemma)) continue;
    if (t.pos === "NOUN" && RELATIONS.has(t.lemma)) return t.lower;
    if (t.pos !== "PROPN" || CALENDAR.test(t.lower)) continue;
    // a capitalised word opening the text is a name only as the subject itself: "Rita flies", "Liam's flight"
    const next = newer.tokens[i + 1];
    if (i > start || next?.pos === "VERB" || next?.pos === "AUX" || next?.lower === "'s") return t.lower;
  }
  return null;
}

const CALENDAR = /^(mon|tues|wednes|thurs|fri|satur|sun)days?$|^(january|february|march|april|may|june|july|august|september|october|november|december)$/;

/** Verbs too light to carry a claim: "things don't go my way" denies no "go" another memory asserts. */
const LIGHT_VERBS = new Set(["be", "have", "do", "go", "gonna", "get", "let", "make", "want", "wanna", "need", "gotta", "know", "think"]);

/** The content words a negation denies: the first verb, noun or adjective within three words after it. */
function denied(p: Parsed): Token[] {
  const out: Token[] = [];
  p.tokens.forEach((t, i) => {
    if (!NEGATIONS.has(t.lower)) return;
    const w = p.tokens.slice(i + 1, i + 4).find((x) => ["VERB", "NOUN", "ADJ", "PROPN"].includes(x.pos) && !LIGHT_VERBS.has(x.lemma));
    if (w) out.push(w);
  });
  return out;
}

function polarityFlip(older: Parsed, newer: Parsed): string | null {
  // a negation flips the claim only when it denies what the other memory asserts: "Elena won't be presenting"
  // after "Elena will present"; "Don't forget the renewal" denies nothing the older memory said
  for (const [a, b] of [[newer, older], [older, newer]]) {
    const gainsay = denied(a).find((w) => b.content.has(w.stem) && !denied(b).some((d) => d.stem === w.stem));
    if (gainsay) return `negation (not ${gainsay.lower})`;
  }
  // every word, stop words included: "on"/"off" and "up"/"down" are antonyms too
  const so = new Set(older.tokens.map((t) => t.stem));
  const sn = new Set(newer.tokens.map((t) => t.stem));
  for (const [x, y] of ANTONYMS) {
    if ((so.has(x) && sn.has(y) && !so.has(y)) || (so.has(y) && sn.has(x) && !so.has(x))) return `${x}/${y}`;
  }
  return null;
}

export const defaultCueJudgeOptions: Readonly<{ minOverlap: number }> = Object.freeze({
  /** Below this share of shared content words the two memories are about different things. */
  minOverlap: 0.45,
});

/**
 * Cheap test before any lookup: a text with no cue word, number, value of a closed class ("Thursdays", "March"),
 * negation or antonym cannot revise anything in this judge's eyes.
 */
const SIGNAL = new RegExp(
  `\\b(${[...CUE_WORDS, ...VALUE_WORDS, ...[...NEGATIONS].filter((n) => /^\\w/.test(n)), ...ANTONYMS.flat().map((w) => `${w}\\w*`)].join("|")})\\b|\\d|n't\\b`,
  "i",
);

export class CueJudge implements RevisionJudge {
  readonly id = "cue-judge/2";
  readonly provenance = "heuristic" as const;
  private readonly opts: typeof defaultCueJudgeOptions;

  constructor(options: Partial<typeof defaultCueJudgeOptions> = {}) {
    this.opts = { ...defaultCueJudgeOptions, ...options };
  }

  async judge(older: JudgedMemory, newer: JudgedMemory): Promise<Verdict> {
    return judgeRevision(older.text, newer.text, this.opts.minOverlap);
  }

  mayRevise(text: string): boolean {
    return SIGNAL.test(text);
  }
}

/** Stop words and words of change: what the memories say about a change, not what they are about. */
const notAbout = (...ps: Parsed[]) => {
  const change = ps.map(changeWords);
  return (t: Token) => isStopWord(t.lower) || t.pos === "PART" || change.some((c) => c.has(t));
};

function subjectStems(p: Parsed): Set<string> {
  const skip = notAbout(p);
  return new Set(p.tokens.filter((t) => p.content.has(t.stem) && !skip(t) && !/^\d/.test(t.lower)).map((t) => t.stem));
}

/** Share of the smaller memory's content stems that the other one holds too. */
function subjectOverlap(a: Set<string>, b: Set<string>): number {
  if (a.size === 0 || b.size === 0) return 0;
  let shared = 0;
  for (const s of a) if (b.has(s)) shared++;
  return shared / Math.min(a.size, b.size);
}

/**
 * The one content word of the older memory that the newer one says otherwise while restating the rest
 * ("I prefer window seats on flights" → "on flights I prefer aisle seats now"), or null.
 */
function substitution(older: Parsed, newer: Parsed): string | null {
  // values are nouns, adjectives and names: "likes" → "asked for" is another thing done, not another value
  const said = (p: Parsed) => new Set([...subjectStems(p)].filter((s) => p.tokens.some((t) => t.stem === s && t.pos !== "VERB" && t.pos !== "AUX")));
  const [o, n] = [said(older), subjectStems(newer)];
  const gone = [...o].filter((s) => !n.has(s));
  const come = [...said(newer)].filter((s) => !subjectStems(older).has(s));
  return o.size >= 2 && gone.length === 1 && come.length > 0 ? `${gone[0]} → ${come.join("/")}` : null;
}

/**
 * Cues that make a new name in the subject no other holder: it takes the older one's place ("took over", "instead
 * of Lena", "new coach"), or acts on the older memory's own thing ("The IRS extended the tax deadline").
 */
const handsOver = (c: Cue) => c.kind === "replace" || c.kind === "state" || c.weight >= 0.5;

/** Content stems counted without the tagger: a first look that costs microseconds where tagging costs 0.1–0.5 ms. */
function quickStems(text: string): Set<string> {
  const words = (text.toLowerCase().match(/\p{L}+/gu) ?? []).filter((w) => !isStopWord(w));
  return new Set(words.map((w) => stemmer(w)).filter((s) => !isChangeStem(s)));
}

/**
 * Below this share of words in common two memories are on different subjects, whatever cue they carry. Checked
 * first without the tagger: detection compares a new memory with five neighbours, most of them about something
 * else.
 */
const FLOOR = 0.3;

export function judgeRevision(olderText: string, newerText: string, minOverlap = defaultCueJudgeOptions.minOverlap): Verdict {
  const quick = subjectOverlap(quickStems(olderText), quickStems(newerText));
  if (quick < FLOOR) return { confidence: 0, reason: `different subjects (overlap ${quick.toFixed(2)})` };
  const older = parseMemory(olderText);
  const newer = parseMemory(newerText);
  if (newer.irrealis) return { confidence: 0, reason: `${newer.irrealis}, not a statement` };
  // a question or a wish is not a belief: nothing replaces it
  if (older.irrealis) return { confidence: 0, reason: `the earlier memory is ${older.irrealis}` };
  const [olderStems, newerStems] = [subjectStems(older), subjectStems(newer)];
  const overlap = subjectOverlap(olderStems, newerStems);
  const cues = changeCues(older, newer);
  const strong = cues.some((c) => c.weight >= 0.45);
  const value = valueChange(older, newer, notAbout(older, newer));
  // a verb of change acting on what the older memory said, or a cue with another value, keeps two short
  // memories on one subject with fewer words in common: "Hector sold the Civic and bought a Tesla", "Aisha's
  // due date changed to late February" (after "due in March")
  const sure = cues.some((c) => c.weight >= 0.5) || (strong && value !== null);
  if (overlap < minOverlap && !(sure && overlap >= FLOOR)) return { confidence: 0, reason: `different subjects (overlap ${overlap.toFixed(2)})` };
  const holder = otherHolder(older, newer);
  if (holder && !cues.some(handsOver)) return { confidence: 0, reason: `about someone else (${holder}) (overlap ${overlap.toFixed(2)})` };
  const flip = polarityFlip(older, newer);
  const signals: string[] = [];
  let score = 0;
  if (cues.length) {
    score += Math.min(0.55, Math.max(...cues.map((c) => c.weight)) + 0.1 * (cues.length - 1));
    signals.push(`cue: ${cues.map((c) => c.name).join(", ")}`);
    // a weak cue ("now", "these days") is enough beside one word said otherwise in the same statement
    const swapped = strong ? null : substitution(older, newer);
    if (swapped) {
      score += 0.25;
      signals.push(`says ${swapped}`);
    }
  }
  if (value) {
    // with no other sign, another value is a revision only of the same statement restated
    score += value.sameFrame ? 0.45 : cues.length ? 0.3 : 0.05;
    signals.push(`value ${value.text}${value.sameFrame ? "" : " (in other words)"}`);
  }
  if (flip) {
    score += 0.3;
    signals.push(`polarity: ${flip}`);
  }
  if (score === 0) return { confidence: 0, reason: `same subject (overlap ${overlap.toFixed(2)}) but no sign of a change` };
  if (ADDITION.test(newerText) && !ADDITION.test(olderText)) {
    score -= 0.35;
    signals.push("but adds rather than replaces");
  }
  if (CONTINUITY.test(newerText) && !CONTINUITY.test(olderText)) {
    score -= 0.35;
    signals.push("but confirms rather than changes");
  }
  const confidence = Math.max(0, Math.min(1, score + 0.4 * Math.min(1, overlap / 0.5)));
  return { confidence: Math.round(confidence * 1000) / 1000, reason: `${signals.join("; ")} (overlap ${overlap.toFixed(2)})` };
}
