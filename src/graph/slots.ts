/**
 * @module graph/slots
 * What a statement says, as slots: a typed value (an amount, a dose, a date, a time of day, a weekday that
 * recurs, a street address, the person in a role) and the things it is said of (the statement's nouns and
 * names: its anchors). Two statements of one person give the same attribute a value when they hold a slot of
 * one kind and share an anchor ("rent … £1,150" and "rent here is £1,320 a month"); a different value is a
 * change, the same one a confirmation. No word of change is needed: people rarely say "changed" when they
 * give their new address. The kinds are value types, not topics, so they hold in any domain.
 */
import type { Parsed } from "./revision-parse.js";
import { parseMemory } from "./revision-parse.js";
import { isStopWord } from "../text/stopwords.js";
import { inLexicon } from "../text/wink.js";
import { attributeValues, clauseBefore, someoneElse, type AttributeValue, type Voice } from "./attributes.js";
import { countsIn, MAY_COUNT } from "./counts.js";
import { addressesIn, isHome, mayNameStreet, sameStreet } from "./addresses.js";

export type SlotKind = "amount" | "dose" | "date" | "clock" | "weekday" | "address" | "role" | "attribute" | "count";

export interface Slot {
  kind: SlotKind;
  /** Stems of the words near its values (what the value is of), and which of them are common nouns. */
  near: Set<string>;
  nouns: Set<string>;
  /** The values, normalised ("1150", "06-12", "tuesday"; a range gives both ends). */
  values: Set<string>;
  /** For a role: which role ("manager"); for an attribute, which one ("diet"): the attribute is this itself; for a
   * count, what it counts (a stem: "cafecito", "peopl"). */
  role?: string;
  /** For a weekday: said as a habit ("on Tuesdays", "every Friday", "monday nights"), not one day. */
  recurs?: boolean;
  /** For a count: the period it is counted over ("a day", "per week"), when it says one. */
  per?: string;
  /** For an address: said as where someone lives ("I live at", "moved into", "the keys", "delivery address"). */
  home?: boolean;
  /**
   * Names near the value that stand beside one of its nouns, naming which thing it is ("the Lisbon flight", "Rita's
   * hotel", "flight to Lisbon"); a name further off ("rent's gone out, £1,150 to Harcourt Lettings") says to whom or
   * where, and changes with the value as often as not.
   */
  bound: Set<string>;
}

export interface Statement {
  slots: Slot[];
  /** Stems of the nouns and names the statement speaks of, without its values. */
  anchors: Set<string>;
}

const MONTHS = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"];
export const MONTH = "(jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sept?(?:ember)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)";
const DAY = "(\\d{1,2})(?:st|nd|rd|th)?";
const DAY_MONTH = new RegExp(`\\b${DAY}(?:\\s*[-–]\\s*${DAY})?\\s+(?:of\\s+)?${MONTH}\\b`, "gi");
const MONTH_DAY = new RegExp(`\\b${MONTH}\\.?\\s+${DAY}\\b(?!:)`, "gi");
const ORDINAL = /\b(?:the\s+)?(\d{1,2})(st|nd|rd|th)\b/gi;
// an amount with its currency's sign or word, or a sum paid by the month, week or year ("18.990 a month"): a chat
// about a bill often drops the currency it named before
const AMOUNT = /(?:[£$€]\s?(\d[\d,]*(?:\.\d+)?)\s?(k\b)?)|\b(\d[\d,]*(?:\.\d+)?)\s?(?:euros?|dollars?|pounds?|quid|bucks|eur|usd|gbp|pesos?|zł|zl|złoty|zloty|yen|rupees?|reais|kr|kroner|kronor|francs?|rand|baht|naira)(?!\p{L})|\b(\d{1,3}(?:[.,]\d{3})+|\d+(?:\.\d\d)?)\s?(?:a|per|\/)\s?(?:month|week|year)\b/giu;
const DOSE = /\b(\d+(?:\.\d+)?)\s?(mg|mcg|µg|ml|iu)\b/gi;
const CLOCK = /\b(\d{1,2})(?:[:.](\d{2}))\s?(am|pm)?\b|\b(\d{1,2})\s?(am|pm)\b/gi;
const WEEKDAY = /\b(mon|tue|tues|wed|wednes|thu|thur|thurs|fri|sat|satur|sun)(?:day)?(s)?\b/gi;
const ROLES = "manager|boss|line manager|team lead|supervisor|primary care (?:doctor|physician)|family doctor|pcp|gp|physician|doctor|dentist|landlord|landlady|therapist|physio|physiotherapist|mentor|trainer|coach|accountant|tutor|consultant|vet";
/** A person's title before their name, in the languages people write to an assistant in ("Dra. Paredes", "Mme Roux"). */
export const TITLE = "(?:Dr|Dra|Drs|Prof|Mr|Mrs|Ms|Mx|Sr|Sra|Srta|Mme|Mlle|Herr|Frau)";
const TITLE_BEFORE = new RegExp(`^${TITLE}\\.?\\s+`);
/** A name without its title: the holder of a role is Paredes, never "dra". */
const untitled = (name: string) => name.replace(TITLE_BEFORE, "");
// the holder's name is capitalised, or written in lowercase and held by no dictionary ("my boss is bartek nowicki"):
// a common word after the role is no holder ("my boss is away"), which `holderNamed` checks
const ROLE_NAMED = new RegExp(`\\b(?:[Mm]y|[Oo]ur|[Hh]er|[Hh]is|[Yy]our)\\s+(?:new\\s+)?(${ROLES})(?:'s|\\s+is|\\s*[:,-])?\\s+((?:${TITLE}\\.?\\s+)?\\p{L}[\\p{L}\\d'-]+)`, "gu");
const holderNamed = (name: string) => /^\p{Lu}/u.test(name) || (!isStopWord(name) && !inLexicon(name));
const NAMED_ROLE = new RegExp(`\\b((?:${TITLE}\\.?\\s+)?[\\p{Lu}][\\p{L}\\d'-]+)(?:\\s+[\\p{Lu}][\\p{L}\\d'-]+)?(?:\\s*\\(|,\\s*|\\s+is\\s+)(my|our|your)\\s+(?:new\\s+)?(${ROLES})\\b`, "gu");
/** A role given to someone named before it by title: "Dr. Luis Alvarez at Westover Hills … he's my PCP going forward". */
const PRONOUN_ROLE = new RegExp(`\\b(?:he|she)(?:'s|’s|\\s+is)\\s+(?:now\\s+)?(?:my|our)\\s+(?:new\\s+)?(${ROLES})\\b`, "gi");
const TITLED = new RegExp(`\\b${TITLE}\\.?\\s+([\\p{Lu}][\\p{L}\\d'-]+)`, "gu");

const WEEKDAYS: Record<string, string> = { mon: "monday", tue: "tuesday", tues: "tuesday", wed: "wednesday", wednes: "wednesday", thu: "thursday", thur: "thursday", thurs: "thursday", fri: "friday", sat: "saturday", satur: "saturday", sun: "sunday" };

const monthOf = (m: string) => String(MONTHS.indexOf(m.slice(0, 3).toLowerCase()) + 1).padStart(2, "0");
const number = (s: string) => String(Number(s.replace(/,/g, "")));
const pad = (d: string) => d.padStart(2, "0");

/** Words too general to name what a value belongs to. */
const GENERIC = new Set(
  `time day days week weeks month months year years today tomorrow tonight morning afternoon evening night nights
  thing things lot bit min mins minute minutes hour hours sec pls please thanks ok okay yeah lol yes no one way
  reminder remind calendar note list`.split(/\s+/),
);

/** Characters either side of a value within which a word says what the value is of. */
const REACH = 45;

function add(slots: Slot[], kind: SlotKind, values: string[], role?: string, at?: { index: number; length: number; words: Words }): void {
  let found = slots.find((s) => s.kind === kind && s.role === role);
  if (!found) {
    found = { kind, values: new Set(), near: new Set(), nouns: new Set(), bound: new Set(), ...(role ? { role } : {}) };
    slots.push(found);
  }
  values.forEach((v) => found.values.add(v));
  if (!at) return;
  const near = at.words.list.filter((w) => !(w.end < at.index - REACH || w.start > at.index + at.length + REACH) && !(w.start >= at.index && w.end <= at.index + at.length));
  for (const w of near) {
    found.near.add(w.stem);
    if (w.noun) found.nouns.add(w.stem);
    else if (near.some((x) => x.noun && (x.start >= w.end ? x.start - w.end : w.start - x.end) <= BESIDE)) found.bound.add(w.stem);
  }
}

/** Characters between a name and a noun within which the name is part of what the noun names ("flight to Lisbon"). */
const BESIDE = 5;

/** The sentence's anchor words with where they stand. */
interface Words {
  list: { start: number; end: number; stem: string; noun: boolean }[];
}

function wordsOf(sentence: string): Words {
  const p = parseMemory(sentence);
  const pos = new Map<string, string>();
  const stems = new Map<string, string>();
  for (const [i, t] of p.tokens.entries()) {
    // a word in -ing after a preposition, an article or a verb is a thing or an event: "for thanksgiving", "doing
    // thanksgiving", "the climbing"
    const gerund = t.pos === "VERB" && t.lower.endsWith("ing") && ["ADP", "SCONJ", "DET", "VERB"].includes(p.tokens[i - 1]?.pos ?? "");
    if (!pos.has(t.lower)) pos.set(t.lower, gerund ? "NOUN" : t.pos);
    stems.set(t.lower, t.stem);
  }
  const list: Words["list"] = [];
  for (const m of sentence.matchAll(/\p{L}[\p{L}'’-]*/gu)) {
    const lower = m[0].toLowerCase().replace(/['’]s$/, "");
    // a compound the tagger splits into its parts ("five-a-side") names a thing: a noun
    const tag = pos.get(lower) ?? pos.get(m[0].toLowerCase()) ?? (lower.includes("-") ? "NOUN" : undefined);
    if (tag !== "NOUN" && tag !== "PROPN") continue;
    if (lower.length < 3 || isStopWord(lower) || GENERIC.has(lower) || isValueWord(lower)) continue;
    list.push({ start: m.index, end: m.index + m[0].length, stem: stems.get(lower) ?? lower, noun: tag === "NOUN" });
  }
  return { list };
}

/**
 * A value the sentence denies is not one it gives: "Fridays 5:30 from now, Thursdays won't work" gives Friday, and
 * "not Monday but Wednesday" Wednesday. A negation right after the value (within two words) or "not" right before it.
 */
const DENIED_AFTER = /^[\s\p{P}]*(?:[\p{L}']+\s+){0,2}?(?:won't|wont|isn't|is not|aren't|are not|can't|cannot|doesn't|don't|no longer|no good|never|not)\b/iu;
const DENIED_BEFORE = /\bnot\s+(?:on\s+|at\s+|the\s+)?$/i;
const denied = (sentence: string, m: RegExpMatchArray) => DENIED_AFTER.test(sentence.slice(m.index! + m[0].length, m.index! + m[0].length + 30)) || DENIED_BEFORE.test(sentence.slice(Math.max(0, m.index! - 12), m.index));

/** A weekday said as a habit: "every Friday", "each Monday", "Monday nights". */
const HABIT_BEFORE = /\b(?:every|each)\s+$/i;
const WEEKDAY_WORD = "(?:mon|tues?|wed(?:nes)?|thu(?:rs?)?|fri|sat(?:ur)?|sun)(?:day)?s?";
const DAY_LIST = new RegExp(`\\b${WEEKDAY_WORD}\\s*(?:&|\\+|/|,|\\band\\b)\\s*${WEEKDAY_WORD}\\b`, "i");
const HABIT_AFTER = /^\s+(?:nights|evenings|mornings|afternoons|lunchtimes)\b/i;

/** The slots of one sentence. */
export function slotsOf(sentence: string, voice: Voice = "speaker"): Slot[] {
  const slots: Slot[] = [];
  const words = wordsOf(sentence);
  const at = (m: RegExpExecArray | RegExpMatchArray) => ({ index: m.index ?? 0, length: m[0].length, words });
  const taken: [number, number][] = [];
  const free = (i: number, n: number) => !taken.some(([a, b]) => i < b && i + n > a);
  const take = (m: RegExpExecArray) => taken.push([m.index, m.index + m[0].length]);
  for (const found of addressesIn(sentence, voice)) {
    add(slots, "address", [found.value], undefined, { index: found.index, length: found.length, words });
    taken.push([found.index, found.index + found.length]);
  }
  const address = slots.find((s) => s.kind === "address");
  if (address) address.home = isHome(sentence);
  for (const m of sentence.matchAll(DOSE)) {
    // "my sister Lupe is on lisinopril too but 40 mg" is her dose
    if (denied(sentence, m) || (voice === "speaker" && someoneElse(clauseBefore(sentence, m.index!)))) continue;
    add(slots, "dose", [`${number(m[1])}${m[2].toLowerCase()}`], undefined, at(m));
    take(m);
  }
  for (const m of sentence.matchAll(AMOUNT)) {
    if (!free(m.index, m[0].length) || denied(sentence, m)) continue;
    const n = number(m[1] ?? m[3] ?? m[4]) + (m[2] ? "000" : "");
    add(slots, "amount", [n], undefined, at(m));
    take(m);
  }
  for (const m of sentence.matchAll(DAY_MONTH)) {
    if (denied(sentence, m)) continue;
    const month = monthOf(m[3]);
    add(slots, "date", [`${month}-${pad(m[1])}`, ...(m[2] ? [`${month}-${pad(m[2])}`] : [])], undefined, at(m));
    take(m);
  }
  for (const m of sentence.matchAll(MONTH_DAY)) {
    if (!free(m.index, m[0].length) || denied(sentence, m)) continue;
    add(slots, "date", [`${monthOf(m[1])}-${pad(m[2])}`], undefined, at(m));
    take(m);
  }
  const hasDate = slots.some((s) => s.kind === "date");
  for (const m of sentence.matchAll(ORDINAL)) {
    if (!free(m.index, m[0].length) || hasDate) continue;
    add(slots, "date", [`-${pad(m[1])}`], undefined, at(m));
    take(m);
  }
  for (const m of sentence.matchAll(CLOCK)) {
    if (!free(m.index, m[0].length) || denied(sentence, m)) continue;
    let hour = Number(m[1] ?? m[4]);
    const minutes = m[2] ?? "00";
    const half = (m[3] ?? m[5])?.toLowerCase();
    if (half === "pm" && hour < 12) hour += 12;
    if (half === "am" && hour === 12) hour = 0;
    if (hour > 24 || Number(minutes) > 59) continue;
    add(slots, "clock", [`${pad(String(hour))}:${minutes}`], undefined, at(m));
    take(m);
  }
  // a weekday is its own slot when it recurs ("on Tuesdays", "monday nights", "every Friday"); next to a date it
  // only names the date's day
  if (!slots.some((s) => s.kind === "date")) {
    // days listed together ("tues & thurs", "mon/wed/sat", "mon + wed") are a schedule that recurs, not one day
    const listed = DAY_LIST.test(sentence);
    for (const m of sentence.matchAll(WEEKDAY)) {
      if (denied(sentence, m)) continue;
      add(slots, "weekday", [WEEKDAYS[m[1].toLowerCase()]], undefined, at(m));
      if (m[2] || listed || HABIT_BEFORE.test(sentence.slice(Math.max(0, m.index! - 8), m.index)) || HABIT_AFTER.test(sentence.slice(m.index! + m[0].length))) slots.find((x) => x.kind === "weekday")!.recurs = true;
    }
  }
  for (const c of countsIn(sentence)) {
    if (!free(c.index, c.length)) continue;
    add(slots, "count", [c.value], c.noun, { index: c.index, length: c.length, words });
    const slot = slots.find((x) => x.kind === "count" && x.role === c.noun)!;
    slot.per ??= c.per;
  }
  for (const v of attributeValues(sentence, voice)) add(slots, "attribute", [v.value], v.attribute, { index: v.index, length: v.length, words });
  for (const m of sentence.matchAll(ROLE_NAMED)) if (holderNamed(m[2])) add(slots, "role", [untitled(m[2]).toLowerCase()], roleOf(m[1]));
  for (const v of namedRoles(sentence, voice)) add(slots, "role", [v.value], v.attribute);
  return slots;
}

/** One role however it is called: a boss is a manager; a GP, a PCP or a family doctor is a doctor. */
function roleOf(r: string): string {
  const role = r.toLowerCase();
  if (role === "boss" || role === "line manager") return "manager";
  return /^(?:gp|pcp|physician|family doctor|primary care (?:doctor|physician))$/.test(role) ? "doctor" : role;
}

/**
 * Roles whose holder is named first: "Jonas Lind (my manager)", "Dr. Alvarez is your primary care doctor" (the user's,
 * in an assistant's turn), and a pronoun after a titled name ("Dr. Luis Alvarez … he's my PCP going forward").
 */
function namedRoles(sentence: string, voice: Voice): AttributeValue[] {
  const out: AttributeValue[] = [];
  for (const m of sentence.matchAll(NAMED_ROLE)) {
    if ((m[2] === "your") !== (voice === "assistant")) continue;
    // "Dr. Luis Alvarez at Westover Hills Family Medicine is your doctor": the titled name holds it, not the practice
    const titled = TITLE_BEFORE.test(m[1]) ? undefined : [...sentence.slice(Math.max(0, m.index! - 80), m.index).matchAll(TITLED)].at(-1);
    out.push({ attribute: roleOf(m[3]), value: (titled?.[1] ?? untitled(m[1])).toLowerCase(), index: m.index!, length: m[0].length });
  }
  if (voice === "speaker") {
    for (const m of sentence.matchAll(PRONOUN_ROLE)) {
      const named = [...sentence.slice(0, m.index).matchAll(TITLED)].at(-1);
      if (named) out.push({ attribute: roleOf(m[1]), value: named[1].toLowerCase(), index: named.index!, length: m.index! + m[0].length - named.index! });
    }
  }
  return out;
}

/**
 * The people in a holder's roles, as attribute values ("My manager is Priya Shah." → manager: priya): the speaker's
 * ("my", "our"), or in an assistant's turn the user's ("your GP is Dr Patel"); "her manager" is someone else's.
 */
export function roleValues(sentence: string, voice: Voice = "speaker"): AttributeValue[] {
  const own = voice === "assistant" ? /^[Yy]our\b/ : /^(?:[Mm]y|[Oo]ur)\b/;
  const out: AttributeValue[] = [];
  for (const m of sentence.matchAll(ROLE_NAMED)) {
    if (own.test(m[0]) && holderNamed(m[2])) out.push({ attribute: roleOf(m[1]), value: untitled(m[2]).toLowerCase(), index: m.index!, length: m[0].length });
  }
  return [...out, ...namedRoles(sentence, voice)];
}

/** A holder's standing values of every kind read without tagging: attributes (graph/attributes) and roles. */
export function standingValues(text: string, voice: Voice = "speaker"): AttributeValue[] {
  return [...attributeValues(text, voice), ...roleValues(text, voice)];
}

/** The role a question asks who holds for the asker ("who's my manager these days?" → manager), or null. */
export function roleAsked(question: string): string | null {
  const m = new RegExp(`\\b(?:my|our)\\s+(?:new\\s+|current\\s+)?(${ROLES})\\b`, "i").exec(question);
  return m ? roleOf(m[1]) : null;
}

const isValueWord = (lower: string) =>
  /\d/.test(lower) || /^(mon|tue|tues|wed|wednes|thu|thur|thurs|fri|sat|satur|sun)(days?)?\.?$/.test(lower) || new RegExp(`^${MONTH}\\.?$`, "i").test(lower);

/** A cheap look before any tagging: a sentence with no digit, weekday, month, role or attribute value holds no slot. */
const MAY_HOLD = new RegExp(`\\d|\\b(mon|tue|wed|thu|fri|sat|sun)|\\b${MONTH}\\b|\\b(${ROLES})\\b`, "i");
export const mayHold = (sentence: string, voice: Voice = "speaker") => MAY_HOLD.test(sentence) || MAY_COUNT.test(sentence) || mayNameStreet(sentence) || attributeValues(sentence, voice).length > 0;

/** The statement's slots and anchors. */
export function statementOf(sentence: string, voice: Voice = "speaker"): Statement {
  if (!mayHold(sentence, voice)) return { slots: [], anchors: new Set() };
  const p: Parsed = parseMemory(sentence);
  const anchors = new Set(
    p.tokens
      .filter((t) => (t.pos === "NOUN" || t.pos === "PROPN") && /^\p{L}/u.test(t.lower) && t.lower.length > 1 && !isStopWord(t.lower) && !GENERIC.has(t.lower) && !isValueWord(t.lower))
      .map((t) => t.stem),
  );
  return { slots: slotsOf(sentence, voice), anchors };
}

export type SlotVerdict =
  | { kind: "revises"; attribute: string; from: string; to: string; slot: SlotKind; shared: number; habit: boolean; named: boolean }
  | { kind: "confirms"; attribute: string }
  | null;

/**
 * How the newer statement stands to the older: it gives an attribute they share another value (`revises`), the
 * same value (`confirms`), or they share none (null). An attribute is shared when both hold a slot of one kind
 * and speak of one thing (an anchor in common); a home address and a named role are attributes by themselves.
 */
export function compareStatements(older: Statement, newer: Statement): SlotVerdict {
  let confirmed: string | null = null;
  // a value both give unchanged (the same 8pm) makes one word in common enough for another value to be the same
  // attribute said otherwise: "five-a-side is monday nights, 8pm at Goals" → "we're on Wednesdays now, 8pm at Goals"
  const kept = newer.slots.some((n) => n.kind !== "role" && n.kind !== "attribute" && older.slots.some((o) => o.kind === n.kind && [...n.values].some((v) => o.values.has(v))));
  for (const n of newer.slots) {
    const o = older.slots.find((s) => s.kind === n.kind && s.role === n.role);
    if (!o) continue;
    const given = (v: string, values: Set<string>) => values.has(v) || sameDay(v, values) || (n.kind === "address" && sameStreet(v, values));
    // one of two dates moved and the other kept ("Friday 20 March …, returning Sunday 22 March" → "Saturday 21 March …
    // and the return stays Sunday 22 March") is a change of the one, not a confirmation by the other
    const moved = o.values.size > 1 && n.values.size === o.values.size && [...n.values].some((v) => !given(v, o.values)) && [...o.values].some((v) => !given(v, n.values));
    const same = !moved && [...n.values].some((v) => given(v, o.values));
    // (a value kept unchanged vouches for a change beside it, never for a confirmation)
    // two homes are one attribute; a venue's address is the venue's, and another venue is another thing
    const attribute = n.kind === "role" || n.kind === "attribute" ? n.role! : n.kind === "count" ? sameCount(o, n) : n.kind === "address" && o.home && n.home ? "address" : sameThing(o, n, kept && !same);
    if (!attribute) continue;
    if (same) {
      confirmed ??= attribute;
      continue;
    }
    const shared = [...n.near].filter((w) => o.near.has(w));
    const named = shared.some((w) => n.nouns.has(w) && o.nouns.has(w) && KIND_NOUNS[n.kind]?.has(w));
    // a weekly habit moved to another day and hour ("on Thursdays at 16:00" → "on Fridays at 15:00"): its hour is the
    // habit's too, not one event's
    const habit = Boolean(o.recurs && n.recurs) || (n.kind === "clock" && movedDay(older, newer));
    return { kind: "revises", attribute, from: [...o.values].join("/"), to: [...n.values].join("/"), slot: n.kind, shared: shared.length, habit, named };
  }
  return confirmed ? { kind: "confirms", attribute: confirmed } : null;
}

/** Whether both statements give a day that recurs ("on Thursdays", "every monday"), and not the same one. */
function movedDay(older: Statement, newer: Statement): boolean {
  const days = (st: Statement) => st.slots.find((x) => x.kind === "weekday" && x.recurs)?.values;
  const [o, n] = [days(older), days(newer)];
  return Boolean(o && n && ![...n].some((d) => o.has(d)));
}

/** Stems of the parts of a day, near many values of a habit without naming what the habit is. */
const PARTS_OF_DAY = new Set(["morn", "afternoon", "even", "night", "lunchtim"]);

/**
 * What two values of one kind are both of, or null: a common noun near both ("rent", "dose"), or two words
 * near both. One name alone is not enough: a person's town stands beside most of their dates and amounts.
 */
function sameThing(o: Slot, n: Slot, kept = false): string | null {
  // a part of the day is when, not what: choir on Tuesday evenings and reading on Friday evenings are two things
  const shared = [...n.near].filter((w) => o.near.has(w) && !PARTS_OF_DAY.has(w));
  // two things named and no name in common: two things of one kind (the Lisbon trip and the Edinburgh one); a habit
  // is one thing wherever it is held ("five-a-side is tuesdays at Cardiff Met" → "thursdays, PlayZone")
  if (!(o.recurs && n.recurs) && o.bound.size && n.bound.size && ![...n.bound].some((w) => o.near.has(w))) return null;
  const noun = shared.find((w) => n.nouns.has(w) && o.nouns.has(w));
  if (noun) return `${noun} (${n.kind})`;
  return shared.length >= (kept ? 1 : 2) ? `${shared.slice(0, 2).join(" ")} (${n.kind})` : null;
}

/**
 * What two counts of one noun are both of, or null: a habit's count over the same period ("4 cafecitos a day" →
 * "two cafecitos a day"), or the people coming to the same occasion ("11 people so far for thanksgiving" → "we're
 * 15 for thanksgiving"). Any other count belongs to one moment of many: a tutoring chat's "completed 12 problems"
 * and "15 problems with 95% accuracy" are two exercises, and a probability question's "2 heads in 3 tosses" no one's
 * state (on BEAM chats 1–10 such counts drew four edges, none a labelled update).
 */
function sameCount(o: Slot, n: Slot): string | null {
  if (o.per && o.per === n.per) return `${n.role} a ${n.per}`;
  return n.role === "people" && sameThing(o, n) ? "people (count)" : null;
}

/** "-19" (the 19th) is the same day as "10-19". */
function sameDay(v: string, values: Set<string>): boolean {
  if (!/^\d*-\d\d$/.test(v)) return false;
  const day = v.slice(-3);
  return [...values].some((x) => (x.startsWith("-") || v.startsWith("-")) && x.endsWith(day));
}

/**
 * Nouns that name the kind of a value: two dates both said to be "the date" ("Leah and Sam set a date!! 12 June" →
 * "5 June ... so that's the wedding date") are one attribute's values, not two events' dates.
 */
const KIND_NOUNS: Partial<Record<SlotKind, Set<string>>> = {
  date: new Set(["date", "deadlin"]),
};

