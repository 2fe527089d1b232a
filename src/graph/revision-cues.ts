/**
 * @module graph/revision-cues
 * The signs in a newer memory that it changes what an older one says, found on the tagged text
 * (graph/revision-parse). A verb of change counts only when what it changes — its object, the verb after it
 * ("stopped eating"), or its subject when it has no object ("the review was postponed") — shares a content
 * word with the older memory: "Leo has to stop eating before his surgery" stops nothing the older one said.
 *
 * The verbs are English's verbs of changing a plan, ending, replacing and changing an amount, grouped by what
 * they do; the markers are the phrases that say a value replaces another ("instead", "rather than", "no
 * longer", "after all", "new <the same thing>", "from <the old value> to", "<new>, not <old>").
 */
import { stemmer } from "stemmer";
import type { Parsed, Token } from "./revision-parse.js";
import { isTimeWord } from "./revision-values.js";

export type CueKind = "reschedule" | "end" | "replace" | "amount" | "revert" | "state";

export interface Cue {
  name: string;
  kind: CueKind;
  /** How much the cue alone says that a change happened. */
  weight: number;
}

interface VerbCue {
  kind: CueKind;
  /** When set, the verb counts only with one of these particles after it ("call off", "bring forward"). */
  particles?: string[];
  /** Whether the verb needs an object of its own: "Grandma leaves on the 12th" ends nothing, "Noor left Google" does. */
  transitive?: boolean;
}

/** Where a moved thing goes: "pushed back", "moved to Friday", "bumped up" ("push dancers to reach" urges). */
const TOWARDS = ["forward", "back", "up", "down", "out", "ahead", "over", "to", "until", "till", "into", "from"];

/** Adverb particles, which may stand after the object; "to", "until" start the new value instead. */
const ANY_DIRECTION = ["forward", "back", "up", "down", "out", "ahead", "over", "off", "away", "through"];

const VERBS: Record<string, VerbCue> = {
  // the time of an event
  reschedule: { kind: "reschedule" }, postpone: { kind: "reschedule" }, delay: { kind: "reschedule" }, defer: { kind: "reschedule" },
  rebook: { kind: "reschedule" }, rearrange: { kind: "reschedule" }, slip: { kind: "reschedule" }, shift: { kind: "reschedule" },
  move: { kind: "reschedule", particles: TOWARDS }, push: { kind: "reschedule", particles: TOWARDS }, bump: { kind: "reschedule", particles: TOWARDS }, advance: { kind: "reschedule", transitive: true },
  bring: { kind: "reschedule", particles: ["forward", "up", "ahead"] }, put: { kind: "reschedule", particles: ["off", "back"] },
  // ending
  cancel: { kind: "end" }, scrap: { kind: "end" }, axe: { kind: "end" }, ditch: { kind: "end" }, abandon: { kind: "end" },
  discontinue: { kind: "end" }, terminate: { kind: "end" }, withdraw: { kind: "end" }, resign: { kind: "end" },
  call: { kind: "end", particles: ["off"] }, pull: { kind: "end", particles: ["out"] }, back: { kind: "end", particles: ["out"] },
  step: { kind: "end", particles: ["down"] }, give: { kind: "end", particles: ["up"] }, turn: { kind: "end", particles: ["down"] },
  fall: { kind: "end", particles: ["through"] }, swear: { kind: "end", particles: ["off"] }, opt: { kind: "end", particles: ["out"] },
  quit: { kind: "end", transitive: true }, stop: { kind: "end", transitive: true }, end: { kind: "end", transitive: true },
  leave: { kind: "end", transitive: true }, sell: { kind: "end", transitive: true }, drop: { kind: "end", transitive: true },
  skip: { kind: "end", transitive: true }, refuse: { kind: "end", transitive: true }, reject: { kind: "end", transitive: true },
  decline: { kind: "end", transitive: true },
  // replacing one value by another
  replace: { kind: "replace" }, switch: { kind: "replace" }, swap: { kind: "replace" }, change: { kind: "replace" },
  trade: { kind: "replace" }, exchange: { kind: "replace" }, substitute: { kind: "replace" }, reassign: { kind: "replace" },
  relocate: { kind: "replace" }, migrate: { kind: "replace" }, convert: { kind: "replace" }, rewrite: { kind: "replace" },
  transfer: { kind: "replace" }, upgrade: { kind: "replace" }, downgrade: { kind: "replace" }, take: { kind: "replace", particles: ["over"] },
  hand: { kind: "replace", particles: ["over", "to", "off"] }, decide: { kind: "replace", transitive: true },
  // an amount
  raise: { kind: "amount" }, lower: { kind: "amount" }, increase: { kind: "amount" }, decrease: { kind: "amount" },
  cut: { kind: "amount" }, trim: { kind: "amount" }, shorten: { kind: "amount" }, lengthen: { kind: "amount" },
  reduce: { kind: "amount" }, double: { kind: "amount" }, halve: { kind: "amount" }, triple: { kind: "amount" },
  extend: { kind: "amount" }, rise: { kind: "amount" }, scale: { kind: "amount" }, go: { kind: "amount", particles: ["up", "down"] },
  // back to an earlier value
  revert: { kind: "revert" }, roll: { kind: "revert", particles: ["back"] },
};

/** The verbs by stem too: the tagger gives a word it does not know ("rebooked") no lemma. */
const BY_STEM = new Map(Object.keys(VERBS).map((v) => [stemmer(v), v]));

function verbCue(t: Token): VerbCue | undefined {
  return VERBS[t.lemma] ?? VERBS[BY_STEM.get(t.stem) ?? ""];
}

type Marker = [string[], CueKind, number];

/**
 * Markers that are not verbs: [tokens, kind, weight]. These speak for the whole text ("Scratch that: ...").
 */
const TEXT_MARKERS: Marker[] = [
  ...["my", "his", "her", "our", "their"].flatMap((who): Marker[] => [[["changed", who, "mind"], "state", 0.45], [["changed", who, "minds"], "state", 0.45]]),
  [["change", "of", "heart"], "state", 0.45], [["change", "of", "plan"], "state", 0.45], [["change", "of", "plans"], "state", 0.45],
  [["on", "second", "thought"], "state", 0.45], [["on", "second", "thoughts"], "state", 0.45], [["scratch", "that"], "state", 0.45],
  [["actually"], "state", 0.3],
];

/**
 * These speak only for their clause, which must then speak of what the older memory said: in a long chat turn,
 * "anymore" in "we had to say goodbye, she can't come anymore" changes nothing about the family it also
 * mentions. "now" alone is weak: "the flight now leaves at 9:15" and "the kids are now 5" read alike.
 */
const CLAUSE_MARKERS: Marker[] = [
  [["instead"], "replace", 0.45], [["rather", "than"], "replace", 0.45], [["in", "place", "of"], "replace", 0.45],
  [["in", "favour", "of"], "replace", 0.45], [["in", "favor", "of"], "replace", 0.45],
  [["no", "longer"], "end", 0.45], [["anymore"], "end", 0.45], [["any", "more"], "end", 0.45], [["no", "more"], "end", 0.45],
  [["after", "all"], "state", 0.45],
  [["back", "to"], "revert", 0.3], [["from", "now", "on"], "state", 0.3], [["these", "days"], "state", 0.3], [["nowadays"], "state", 0.3],
  [["now"], "state", 0.15], [["again"], "revert", 0.15],
];

const MARKERS = [...TEXT_MARKERS, ...CLAUSE_MARKERS];

/** Past forms a prefix of the verb does not catch. */
const IRREGULAR = "brought took taken went gone gave given fell fallen sold swore sworn left put cut quit began begun rose risen withdrew withdrawn rewrote rewritten";

/**
 * Every word any cue starts with, as one pattern: a text none of them occurs in holds no cue, and detection
 * need not look its neighbours up (see CueJudge.mayRevise).
 */
export const CUE_WORDS: string[] = [
  ...Object.keys(VERBS).map((v) => `${v.replace(/e$/, "")}\\w*`),
  ...IRREGULAR.split(" "),
  ...MARKERS.map(([words]) => words[0]),
  "off", "up", "down", "new", "re\\w{4,}", "happen\\w*", "occur\\w*",
];

/** Whether a stem is one of a verb of change (for a count of subject words made without the tagger). */
export function isChangeStem(stem: string): boolean {
  return BY_STEM.has(stem);
}

const changeWordCache = new WeakMap<Parsed, Set<Token>>();

/**
 * The words of a memory that describe a change rather than what changed ("actually", "switched", "instead"): left
 * out of its subject. A verb that changes only with its particle ("go up", "call off") is an ordinary verb
 * without it ("reports go out on Fridays").
 */
export function changeWords(p: Parsed): Set<Token> {
  let out = changeWordCache.get(p);
  if (out) return out;
  out = new Set<Token>();
  for (const [i, t] of p.tokens.entries()) {
    const cue = t.pos === "VERB" ? verbCue(t) : undefined;
    const particle = cue?.particles && p.tokens.slice(i + 1, i + 7).some((w) => cue.particles!.includes(w.lower));
    if ((cue && (!cue.particles || particle)) || MARKERS.some(([words]) => words.length === 1 && words[0] === t.lower) || ["actually", "plan", "new", "since"].includes(t.lemma)) out.add(t);
  }
  changeWordCache.set(p, out);
  return out;
}

export const NEGATIONS = new Set(["not", "n't", "never", "no", "cannot"]);
/** Verbs that keep a course going: a verb of change after them continues it. */
const KEEP = new Set(["keep", "continue"]);
/** Verbs that say an event takes place: negated, the event is off. */
const OCCUR = new Set(["happen", "occur", "proceed"]);

const NOMINAL = new Set(["DET", "ADJ", "NOUN", "PROPN", "NUM", "PRON", "PART", "SYM"]);

/** Nouns of time: "pushed back two days", "slipped a week" say how far, not what moved. */
const EXTENT = new Set(["minute", "hour", "day", "week", "month", "year", "fortnight", "bit", "little"]);

/** The noun phrase from `i` on, as token indices; empty when it only measures how far something moved. */
function phraseAt(tokens: Token[], i: number): number[] {
  const out: number[] = [];
  while (i < tokens.length && (NOMINAL.has(tokens[i].pos) || tokens[i].name) && tokens[i].lower !== "to") out.push(i++);
  const words = out.filter((k) => tokens[k].pos !== "DET");
  if (words.length > 0 && words.every((k) => tokens[k].pos === "NUM" || EXTENT.has(tokens[k].lemma))) return [];
  return out;
}

const sharesContent = (tokens: Token[], at: number[], older: Parsed) => at.some((i) => older.content.has(tokens[i].stem));

/** The phrase at `j` and the one complement after it: "the decision to store configuration", "trains for the trip". */
function withComplement(tokens: Token[], j: number): number[] {
  const head = tokens[j]?.pos === "VERB" ? [j, ...phraseAt(tokens, j + 1)] : phraseAt(tokens, j);
  if (head.length === 0) return head;
  const after = head[head.length - 1] + 1;
  const next = tokens[after];
  if (!next || !(next.pos === "ADP" || next.lower === "to") || next.lower === "at") return head;
  const k = after + 1;
  return [...head, ...(tokens[k]?.pos === "VERB" ? [k, ...phraseAt(tokens, k + 1)] : phraseAt(tokens, k))];
}

const BOUNDARIES = new Set([".", "!", "?", ";", ":", ",", "and", "but", "so", "because"]);

/** Where the clause holding token `i` starts. */
function clauseStart(tokens: Token[], i: number): number {
  let k = i;
  while (k > 0 && !BOUNDARIES.has(tokens[k - 1].lower)) k--;
  return k;
}

/** The clause holding token `i`, as [start, end). */
function clauseOf(tokens: Token[], i: number): [number, number] {
  let end = i + 1;
  while (end < tokens.length && !BOUNDARIES.has(tokens[end].lower)) end++;
  return [clauseStart(tokens, i), end];
}

const span = ([start, end]: [number, number]) => Array.from({ length: Math.max(0, end - start) }, (_, k) => start + k);

/**
 * What the verb at `i` acts on, when the older memory spoke of it: "object" when its own direct object names it
 * ("sold the Civic"), "around" when only a complement or the subject does ("moved the trip to December 27",
 * "the review was postponed", "pulled out of the marathon"); null when nothing the older memory said is changed.
 */
function changesOlder(newer: Parsed, i: number, cue: VerbCue, older: Parsed, particle: number): "object" | "around" | null {
  const tokens = newer.tokens;
  let j = particle >= 0 ? particle + 1 : i + 1;
  // "pulled out of the marathon", "stepped down from coaching", "decided to retire"
  const through = tokens[j] && (["of", "from"].includes(tokens[j].lower) || (tokens[j].lower === "to" && tokens[j + 1]?.pos === "VERB") || (particle >= 0 && tokens[j].pos === "ADP"));
  if (through) j++;
  const object = tokens[j]?.pos === "VERB" ? [j, ...phraseAt(tokens, j + 1)] : phraseAt(tokens, j);
  // a direct object is what was acted on ("extended the deadline"); after a preposition it is where the subject
  // went ("Carla dropped out of the course"), and the subject is the one who changed
  if (sharesContent(tokens, object, older)) return through ? "around" : "object";
  if (sharesContent(tokens, withComplement(tokens, j), older)) return "around";
  if (cue.transitive || object.length > 0) return null;
  // what it moved to may name the older memory's thing: "we upgraded to a 120 litre fish tank"
  if (tokens[j]?.pos === "ADP" && sharesContent(tokens, phraseAt(tokens, j + 1), older)) return "around";
  // with no object at all, what changes is the subject of its clause ("the review was postponed to May"). An
  // ending ends whatever the older memory told of ("the Seattle move fell through"); any other change must be
  // of what it was about: "the payments-api moved to Kubernetes" does not change who owns it ("Priya owns the
  // payments-api")
  const about = span([0, older.subject[1]]).filter((k) => older.content.has(older.tokens[k].stem));
  const target = about.length && cue.kind !== "end" ? new Set(about.map((k) => older.tokens[k].stem)) : older.content;
  return span([clauseStart(tokens, i), i]).some((k) => target.has(tokens[k].stem)) ? "around" : null;
}

function verbCues(older: Parsed, newer: Parsed): Cue[] {
  const out: Cue[] = [];
  const tokens = newer.tokens;
  // a verb the older memory used too describes, rather than changes, it
  const saidBefore = new Set(older.tokens.filter((t) => t.pos === "VERB").map((t) => t.lemma));
  for (const [i, t] of tokens.entries()) {
    const cue = verbCue(t);
    if (!cue || t.pos !== "VERB" || saidBefore.has(t.lemma)) continue;
    // "I won't give up", "keep pushing": a change denied or a course kept is no change
    if (tokens.slice(Math.max(clauseStart(tokens, i), i - 3), i).some((w) => NEGATIONS.has(w.lower) || KEEP.has(w.lemma))) continue;
    // the particle may follow the object: "handed the project over", "turned the thermostat down"
    const window = tokens.slice(i + 1, i + 7);
    // "to" before a verb is an infinitive, not a direction
    const at = window.findIndex((w, k) => (cue.particles ?? ANY_DIRECTION).includes(w.lower) && !(w.lower === "to" && window[k + 1]?.pos === "VERB"));
    if (cue.particles && at < 0) continue;
    const particle = at === 0 && ANY_DIRECTION.includes(window[0].lower) ? i + 1 : -1;
    const acts = changesOlder(newer, i, cue, older, particle);
    if (!acts) continue;
    // its own object named by the older memory: the surest sign there is that this is what changed
    out.push({ name: at >= 0 && cue.particles && ANY_DIRECTION.includes(window[at].lower) ? `${t.lower} ${window[at].lower}` : t.lower, kind: cue.kind, weight: acts === "object" ? 0.5 : 0.45 });
  }
  return out;
}

function matchAt(tokens: Token[], i: number, words: string[]): boolean {
  return words.every((w, k) => tokens[i + k]?.lower === w);
}

function markerCues(older: Parsed, newer: Parsed): Cue[] {
  const out: Cue[] = [];
  const has = (p: Parsed, words: string[]) => p.tokens.some((_, i) => matchAt(p.tokens, i, words));
  const tokens = newer.tokens;
  for (const [words, kind, weight] of MARKERS) {
    if (has(older, words)) continue;
    const at = tokens.findIndex((_, i) => matchAt(tokens, i, words));
    const speaksOfOlder = () => TEXT_MARKERS.some(([w]) => w === words) || sharesContent(tokens, span(clauseOf(tokens, at)), older);
    if (at >= 0 && speaksOfOlder()) out.push({ name: words.join(" "), kind, weight });
  }
  for (const [i, t] of tokens.entries()) {
    // "the concert is off"; "the picnic won't happen", "isn't going ahead"
    if (t.lower === "off" && tokens[i - 1]?.lemma === "be") out.push({ name: "is off", kind: "end", weight: 0.45 });
    // "the permit is up to 55 pounds", "the squad is down to 12"
    if ((t.lower === "up" || t.lower === "down") && tokens[i - 1]?.lemma === "be" && tokens[i + 1]?.lower === "to") out.push({ name: `${t.lower} to`, kind: "amount", weight: 0.45 });
    // a change named by its noun, with where it goes: "got a raise to 68,000", "a switch to Linear"
    if (t.pos === "NOUN" && verbCue(t) && ["a", "an"].includes(tokens[i - 1]?.lower ?? "") && ["to", "from"].includes(tokens[i + 1]?.lower ?? "")) {
      out.push({ name: `a ${t.lower} ${tokens[i + 1].lower}`, kind: verbCue(t)!.kind, weight: 0.45 });
    }
    // doing again what the older memory named: "remortgaging" a mortgage, "re-signed" a lease
    const again = t.lower.replace(/^re-?/, "");
    if (again !== t.lower && again.length >= 4 && ["VERB", "NOUN", "ADJ"].includes(t.pos) && older.content.has(stemmer(again)) && !older.content.has(t.stem)) {
      out.push({ name: t.lower, kind: "replace", weight: 0.45 });
    }
    if (NEGATIONS.has(t.lower) && tokens.slice(i + 1, i + 4).some((w, k) => OCCUR.has(w.lemma) || (w.lemma === "go" && tokens[i + 2 + k]?.lower === "ahead"))) {
      out.push({ name: `${t.lower} happen`, kind: "end", weight: 0.45 });
    }
    // "from June", "starting Monday", "as of next week": a new state takes effect then
    const effect = t.lower === "from" || t.lower === "starting" || t.lower === "effective" || (t.lower === "of" && tokens[i - 1]?.lower === "as");
    // (a date the older memory gives effect from too is the same change, told again: "from april the flat is 2950" →
    // "Updated: your rent is 2950 from April")
    if (effect && isTimeWord(tokens[i + 1]?.lower ?? "") && !has(older, [t.lower, tokens[i + 1].lower])) out.push({ name: `${t.lower} ${tokens[i + 1].lower}`, kind: "state", weight: 0.3 });
    // "a new running coach": a new one of something the older memory named
    if (t.lower === "new") {
      const phrase = phraseAt(tokens, i + 1).filter((k) => tokens[k].pos === "NOUN" || tokens[k].pos === "PROPN");
      const head = phrase[phrase.length - 1];
      if (head !== undefined && older.tokens.some((o) => o.stem === tokens[head].stem && (o.pos === "NOUN" || o.pos === "PROPN"))) out.push({ name: `new ${tokens[head].lower}`, kind: "replace", weight: 0.45 });
    }
    // "from 3 to 5 days", "from Trello to Linear": the older memory's value, then another
    if (t.lower === "from") {
      const to = tokens.findIndex((w, k) => k > i && k <= i + 5 && w.lower === "to");
      const said = (k: number) => older.content.has(tokens[k].stem) || older.tokens.some((o) => o.pos === "NUM" && o.lower === tokens[k].lower);
      if (to > i + 1 && Array.from({ length: to - i - 1 }, (_, k) => i + 1 + k).some(said)) out.push({ name: "from … to", kind: "replace", weight: 0.45 });
    }
    // "Portugal, not Greece": a contrast with what the older memory said
    if (t.lower === "not" && tokens[i - 1]?.lower === ",") {
      const next = tokens[i + 1];
      if (next && (older.content.has(next.stem) || older.tokens.some((o) => o.lower === next.lower && o.pos === "NUM"))) out.push({ name: `, not ${next.lower}`, kind: "replace", weight: 0.45 });
    }
  }
  return out;
}

/** Every sign of change in `newer` that `older` does not carry too. */
export function changeCues(older: Parsed, newer: Parsed): Cue[] {
  const seen = new Set<string>();
  return [...verbCues(older, newer), ...markerCues(older, newer)].filter((c) => !seen.has(c.name) && seen.add(c.name));
}
