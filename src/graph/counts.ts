/**
 * @module graph/counts
 * How many of something a statement gives: "I drink like 4 cafecitos a day", "11 people so far", "we're 15 for
 * thanksgiving", "3 sessions a week". A count is a value of the thing it counts (the plural noun after the number),
 * so "two cafecitos a day" later gives the same attribute another value. Spans of time ("2 weeks", "3 nights") are
 * durations of one event, not counts a person keeps, and are left out; so is a number that is an age or a
 * comparison ("4 years old", "2 more than last time" keeps "more" out of the noun).
 */
import { stemmer } from "stemmer";
import { NUMBER_WORDS } from "./revision-values.js";

export interface Count {
  /** What is counted, as a stem ("cafecito", "peopl"). */
  noun: string;
  /** The number, normalised ("15"). */
  value: string;
  /** The period it is counted over ("day", "week"), when the statement gives one. */
  per?: string;
  index: number;
  length: number;
}

const NUMBER = `\\d{1,3}(?:,\\d{3})*|\\d{1,6}|${NUMBER_WORDS.join("|")}`;
/** A number and the plural noun it counts, with at most one word between ("3 more sessions", "two small coffees"). */
const COUNTED = new RegExp(`(?<![$£€\\d.,:/-])\\b(${NUMBER})\\s+(?:(?:more|new|extra|other|total|small|big|large)\\s+)?([a-z][a-z-]*[a-z]s|people|folk)\\b`, "gi");
/** A party's size said as who is coming: "we're 15", "we are now 8", "there'll be 12 of us". */
const HEADCOUNT = new RegExp(`\\b(?:we['’]re|we are|we['’]ll be|we will be)\\s+(?:now\\s+|going to be\\s+)?(${NUMBER})\\b(?!\\s*(?:[:.]\\d|%|am|pm|mins?|minutes?|hours?|years?|days?|weeks?))|\\b(${NUMBER})\\s+of\\s+us\\b`, "gi");
/** A period a count is kept over, right after it. */
const PER = /^\s*(?:a|per|each|every|\/)\s*(day|week|month|year|night|morning|evening|session|class)\b/i;
/** Nouns that measure time or say nothing countable of a person's state. */
const NOT_COUNTED = new Set(
  `seconds secs minutes mins hours hrs days weeks months years nights mornings evenings weekends times ages things bits
  lots ways ones others words`.split(/\s+/),
);
/** Nouns that name people coming: one count whichever is said. */
const PEOPLE = new Set(["people", "guests", "adults", "persons", "folks"]);

const numberOf = (s: string): string => {
  const word = NUMBER_WORDS.indexOf(s.toLowerCase());
  return word >= 0 ? String(word) : String(Number(s.replace(/,/g, "")));
};

/** A cheap look before any reading: a sentence with no number holds no count. */
export const MAY_COUNT = new RegExp(`\\d|\\b(?:${NUMBER_WORDS.join("|")})\\s+(?:\\w+\\s+)?\\w+s\\b|\\bof us\\b`, "i");

/** The counts a sentence gives. */
export function countsIn(sentence: string): Count[] {
  const out: Count[] = [];
  for (const m of sentence.matchAll(COUNTED)) {
    const noun = m[2].toLowerCase();
    if (NOT_COUNTED.has(noun) || /^\s*(?:old|ago|later|earlier)\b/i.test(sentence.slice(m.index! + m[0].length))) continue;
    const per = PER.exec(sentence.slice(m.index! + m[0].length))?.[1].toLowerCase();
    out.push({ noun: PEOPLE.has(noun) ? "people" : stemmer(noun), value: numberOf(m[1]), ...(per ? { per } : {}), index: m.index!, length: m[0].length });
  }
  for (const m of sentence.matchAll(HEADCOUNT)) {
    out.push({ noun: "people", value: numberOf(m[1] ?? m[2]), index: m.index!, length: m[0].length });
  }
  return out;
}

/** The words of what a text counts, as written ("cafecitos", "people"): to look for its earlier counts in a store. */
export function countedWords(text: string): string[] {
  if (!MAY_COUNT.test(text)) return [];
  return [...new Set([...text.matchAll(COUNTED)].map((m) => m[2].toLowerCase()).filter((w) => !NOT_COUNTED.has(w)))];
}
