/**
 * @module graph/slot-judge
 * The slots' verdict on two memories (graph/slots reads a statement's slots and compares two): sentence by sentence,
 * a short message also read whole, a role handed over, a value set aside (graph/set-aside); the first revision
 * found, else a refinement (a delay), else a confirmation. Revisions of standing attributes are edges (0.85); an
 * event's date or time of day a suggestion (0.6) unless a word of change comes with it.
 */
import { parseMemory } from "./revision-parse.js";
import { FRAGMENT_SENTENCES } from "../text/sentences.js";
import type { Voice } from "./attributes.js";
import { setAside } from "./set-aside.js";
import { isStopWord } from "../text/stopwords.js";
import { inLexicon, lowercaseNames } from "../text/wink.js";
import { compareStatements, mayHold, MONTH, slotsOf, statementOf, TITLE, type Slot, type SlotKind, type Statement } from "./slots.js";

/** Kinds that are a person's standing attributes; a date or a time of day more often belongs to one event of many. */
const ATTRIBUTE_KINDS = new Set<SlotKind>(["amount", "dose", "address", "role", "attribute", "count"]);

/** Words that say an event was given another date or time: "Rebooked: …", "moved to Thursday". */
const RESCHEDULED = /\b(?:re-?book(?:ed|ing)?|re-?schedul(?:ed|ing)|re-?arranged|moved|changed|postponed|pushed (?:back|to)|brought forward)\b/i;

/** A delay or a retime refines a booking: the booking stands, at a later hour. */
const DELAY = /\b(delay(ed|s)?|retimed|running late|pushed back|behind schedule|later than planned)\b/i;

export interface SlotJudgement {
  kind: "revises" | "refines" | "confirms";
  /** For a revision: an attribute (0.85) or an event's date or time (0.6, a suggestion). */
  confidence: number;
  reason: string;
  /** The older memory's sentence the verdict is about ("" when the verdict is on the whole message). */
  statement: string;
}

/**
 * The slots' verdict on two memories, sentence by sentence (`sentences` splits a text into statements): the first
 * revision found, else a refinement, else a confirmation, else null. A question or a wish states no value.
 */
export function judgeSlots(olderSentences: string[], newerSentences: string[], voices: { older: Voice; newer: Voice } = { older: "speaker", newer: "speaker" }): SlotJudgement | null {
  const read = (ss: string[], voice: Voice): Read[] => {
    const taken = acceptedOffers(ss);
    return ss.flatMap((s) => readSentence(s, voice, taken.has(s)));
  };
  return judgeRead(read(olderSentences, voices.older), read(newerSentences, voices.newer), olderSentences, newerSentences, voices);
}

/**
 * judgeSlots with a pause for I/O between sentences once `pause` says so: reading 400 sentences of an older memory
 * for their slots (tagging each) held a server's thread 100-330 ms in one stretch while a batch of long texts was
 * detected. The same verdict: only the reading is spread over turns of the event loop.
 */
export async function judgeSlotsPaced(
  olderSentences: string[],
  newerSentences: string[],
  voices: { older: Voice; newer: Voice },
  pause: () => Promise<void> | undefined,
): Promise<SlotJudgement | null> {
  const read = async (ss: string[], voice: Voice): Promise<Read[]> => {
    const out: Read[] = [];
    const taken = acceptedOffers(ss);
    for (const s of ss) {
      await pause();
      out.push(...readSentence(s, voice, taken.has(s)));
    }
    return out;
  };
  const older = await read(olderSentences, voices.older);
  const newer = await read(newerSentences, voices.newer);
  return judgeRead(older, newer, olderSentences, newerSentences, voices);
}

/** A sentence that takes up what was offered or asked just before: "I accepted.", "I said yes, …", "we agreed". */
const ACCEPTS = /^\s*(?:(?:and|so|ok|okay)\s*,?\s+)?(?:i|we)\s+(?:(?:said|told (?:her|him|them))\s+(?:yes|ok(?:ay)?|sure)|accepted|agreed|took it|signed(?: up)?)\b/i;
/** Sentences after an offer or a request within which an acceptance makes it so. */
const ACCEPTED_WITHIN = 2;

/**
 * The sentences of a message that offer or ask ("Movistar offered me 18.990 a month if I stay one more year", "the
 * coordinator asked if I can do the reading on Fridays") and that a sentence just after accepts ("I accepted.", "I
 * said yes"): what they give is then so, though each read alone is a condition or a question.
 */
function acceptedOffers(sentences: string[]): Set<string> {
  const out = new Set<string>();
  sentences.forEach((s, i) => {
    if (ACCEPTS.test(s)) for (const before of sentences.slice(Math.max(0, i - ACCEPTED_WITHIN), i)) if (parseMemory(before).irrealis) out.add(before);
  });
  return out;
}

/** A sentence read for its slots (none when it cannot hold a value; a question's or a wish's attributes only). */
function readSentence(s: string, voice: Voice, accepted = false): Read[] {
  if (!mayHold(s, voice)) return [];
  return parseMemory(s).irrealis && !accepted ? attributesOnly(s, voice) : [{ text: s, statement: statementOf(s, voice), whole: false, voice }];
}

function judgeRead(older: Read[], newer: Read[], olderSentences: string[], newerSentences: string[], voices: { older: Voice; newer: Voice }): SlotJudgement | null {
  const found = compareAll(older, newer) ?? succession(older, newerSentences);
  if (found?.kind !== "confirms" && found) return found;
  // a value named again and discarded ("cancelled the ibis", "swapped the Clenil for Fostair")
  const aside = setAside(olderSentences, newerSentences, voices);
  if (aside) return { kind: "revises", confidence: 0.85, reason: aside.reason, statement: aside.statement };
  // a message in fragments gives a thing in one sentence and its value in the next: read whole, it may say more
  const [olderWhole, newerWhole] = [wholeMessage(olderSentences, voices.older), wholeMessage(newerSentences, voices.newer)];
  if (!olderWhole && !newerWhole) return found;
  return compareAll([...older, ...(olderWhole ? [olderWhole] : [])], [...newer, ...(newerWhole ? [newerWhole] : [])]) ?? found;
}

/**
 * A sentence that asks or supposes, read for the attribute values one of its clauses states: "fyi I live in Neovim,
 * so if you're suggesting dev tools assume terminal + nvim" gives an editor (graph/attributes reads each value's
 * own clause for a question or a supposition).
 */
function attributesOnly(sentence: string, voice: Voice): Read[] {
  const { slots, anchors } = statementOf(sentence, voice);
  const stated = slots.filter((x) => x.kind === "attribute");
  return stated.length ? [{ text: sentence, statement: { slots: stated, anchors }, whole: false, voice }] : [];
}

/** Words that say the holder of a role left it or handed it on ("took over", "went to run the Bristol studio"). */
const SUCCESSION = /\b(?:(?:took|taken|takes|taking) over|left|leaving|leaves|quit|retired|retiring|replaced|replacing|stepped down|handed over|moved on|(?:went|moved|moving|gone) to|(?:is|'s|’s) going(?=\s*[,.;!]|\s+away\b))/i;
/** Sentences, from the one saying the holder left, within which the successor is named. */
const SUCCESSOR_WITHIN = 3;
/** Capitalised words that are not names of someone: days, months, "I", titles ("Dr." before the new doctor's name). */
const NOT_A_NAME = new RegExp(`^(?:I|${MONTH}|(?:mon|tues|wednes|thurs|fri|satur|sun)day|${TITLE})$`, "i");

/**
 * A role's holder replaced without the role named again: the newer memory names the old holder, says they left or
 * handed over, and names someone new ("My manager is Priya Shah." → "first 1:1 with Daniel Osei, he's taken over our
 * team since Priya went to run the Bristol studio"). A question or a supposition says nothing of the kind.
 */
function succession(older: Read[], newerSentences: string[]): SlotJudgement | null {
  for (const read of older) {
    const { text: os, statement: o } = read;
    for (const slot of o.slots.filter((x) => x.kind === "role")) {
      const holders = [...slot.values];
      for (const [j, ns] of newerSentences.entries()) {
        if (!SUCCESSION.test(ns) || parseMemory(ns).irrealis) continue;
        if (!holders.some((h) => new RegExp(`\\b${h.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}\\b`, "i").test(ns))) continue;
        const said = new Set((os.match(/\p{L}+/gu) ?? []).map((w) => w.toLowerCase()));
        // the successor is often named a sentence later: "Dra. Paredes is retiring … She passed my file to Dr. Fuentes"
        const told = newerSentences.slice(j, j + SUCCESSOR_WITHIN).join(" ");
        // a name is capitalised, or in a chat written in lowercase, a word no dictionary holds ("signed off by ewelina")
        // (a capitalised word opening a sentence is a name only if no dictionary holds it: "Noted - Ewelina …")
        const capitalised = [...told.matchAll(/(?<!\p{L})\p{Lu}[\p{L}'-]+/gu)].filter((m) => !inLexicon(m[0]) || !/(?:^|[.!?…]\s+)$/.test(told.slice(0, m.index)));
        const named = [...capitalised.map((m) => m[0]), ...lowercaseNames(told)];
        const fresh = [...new Set(named)].filter(
          (w) => !said.has(w.toLowerCase()) && !holders.includes(w.toLowerCase()) && !NOT_A_NAME.test(w) && !isStopWord(w.toLowerCase()),
        );
        if (fresh.length === 0) continue;
        return { kind: "revises", confidence: 0.85, reason: `${slot.role}: ${holders.join("/")} → ${fresh.map((w) => w.toLowerCase()).join("/")} (handed over)`, statement: valueSentence(read, slot) };
      }
    }
  }
  return null;
}

/** What a value looks like to the slots: masked in a sentence that asks or supposes rather than states. */
const VALUE_CHARS = new RegExp(`\\d|\\b(?:mon|tue|wed|thu|fri|sat|sun)[a-z]*|\\b${MONTH}\\b`, "gi");

/**
 * A short message of several sentences as one statement, its questions' and conditions' values masked (the thing a
 * question names still anchors the value stated beside it: "can you add a reminder for my sertraline? 50mg, I take
 * it in the morning"), or null.
 */
function wholeMessage(sentences: string[], voice: Voice): Read | null {
  if (sentences.length < 2 || sentences.length > FRAGMENT_SENTENCES) return null;
  const text = sentences.map((s) => (parseMemory(s).irrealis ? s.replace(VALUE_CHARS, (v) => "_".repeat(v.length)) : s)).join(" ");
  return mayHold(text, voice) ? { text, statement: statementOf(text, voice), whole: true, sentences, voice } : null;
}

/**
 * The sentence of a message read whole that gives the value a verdict is about: the edge names it, so the rest of the
 * message stays current ("put it in the calendar" and any fact said in passing). "" when no one sentence gives it
 * (the thing in one fragment, the value in the next): the message is then replaced whole.
 */
function valueSentence(read: Read, slot: Slot): string {
  if (!read.whole) return read.text.trim();
  const given = (s: string) => !parseMemory(s).irrealis && slotsOf(s, read.voice).some((x) => x.kind === slot.kind && x.role === slot.role && [...x.values].some((v) => slot.values.has(v)));
  return read.sentences?.find(given)?.trim() ?? "";
}

/** A sentence read for its slots, or a short message read whole. */
interface Read {
  text: string;
  statement: Statement;
  whole: boolean;
  /** A message read whole: its sentences. */
  sentences?: string[];
  voice: Voice;
}

function compareAll(older: Read[], newer: Read[]): SlotJudgement | null {
  let confirmed: SlotJudgement | null = null;
  for (const { text: ns, statement: n } of newer) {
    if (!n.slots.length) continue;
    for (const read of older) {
      const o = read.statement;
      const v = compareStatements(o, n);
      if (!v) continue;
      if (v.kind === "confirms") {
        confirmed ??= { kind: "confirms", confidence: 0, reason: `confirms ${v.attribute}`, statement: read.whole ? "" : read.text.trim() };
        continue;
      }
      const statement = valueSentence(read, o.slots.find((x) => x.kind === v.slot && (x.role === undefined || x.role === v.attribute))!);
      const reason = `${v.attribute}: ${v.from} → ${v.to}`;
      if (DELAY.test(ns)) return { kind: "refines", confidence: 0.85, reason: `delayed, ${reason}`, statement };
      // a habit's day ("five-a-side is monday nights" → "we're on Wednesdays now") is a standing attribute too
      // an event's date or time is one of many an event may have, unless a word of change comes with it
      return { kind: "revises", confidence: ATTRIBUTE_KINDS.has(v.slot) || v.habit || v.named || RESCHEDULED.test(ns) ? 0.85 : 0.6, reason, statement };
    }
  }
  return confirmed;
}
