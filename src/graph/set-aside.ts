/**
 * @module graph/set-aside
 * A later message that names what an earlier statement gave and sets it aside: "cancelled the ibis" (after "I've got
 * the Ibis on Featherston St for 2 nights"), "nurse swapped the Clenil for Fostair" (after "the brown Clenil 100
 * preventer, two puffs twice a day"), "bye bye odyssey" (after "I drive a 2014 Honda Odyssey"), "20 min vs 40 on the
 * 25B" (after "I bus into town on the 25B"). The two share few words, so no similarity or cue judge sees one subject;
 * the value named again with a word that discards it says which statement no longer holds, whatever the domain.
 *
 * A value is a name the older statement gives (a capitalised word that does not open it, a word the tagger's lexicon
 * does not hold, a code such as "25B") or a
 * standing attribute's value ("pixel"), never its subject: "Ffion's a paramedic" does not end when a dinner with
 * Ffion is cancelled. The discarding word must act on the value itself ("cancelled the ibis", "the ibis is
 * cancelled"), with at most an article or a possessive between, or compare it away ("vs 40 on the 25B", "instead of
 * the Clenil"). A question or a supposition ("should I cancel the Ibis?") discards nothing.
 */
import { attributeValues, type Voice } from "./attributes.js";
import { parseMemory } from "./revision-parse.js";
import { isStopWord } from "../text/stopwords.js";
import { lowercaseNames } from "../text/wink.js";

export interface SetAside {
  /** The older statement that no longer holds. */
  statement: string;
  /** The value the newer memory set aside, and how. */
  reason: string;
}

/** Words that discard what they act on, right before it. */
const DISCARD_VERB = "cancel(?:l?ed|ling)?|swapp?(?:ed|ing)?|switched|replac(?:ed|ing)|ditch(?:ed|ing)|sold|selling|traded in|got rid of|bye bye|byebye|goodbye|farewell|no more|ported";
const DISCARD_BEFORE = new RegExp(`\\b(?:${DISCARD_VERB})\\s+(?:(?:the|my|our|a|an|that|this|old|from)\\s+){0,2}$`, "i");
/** Words that compare it away: "vs 40 on the 25B", "instead of the Clenil", "rather than Spectrum". */
// ("VS Code" names an editor: the comparison is written in lowercase)
const COMPARED_BEFORE = /\b(?:vs\.?|versus|[Ii]nstead of|[Rr]ather than)\s+(?:[\w'’]+\s+){0,3}$/;
/** Words after it that discard it: "the Ibis is cancelled", "odyssey's gone". */
const DISCARD_AFTER = /^(?:['’]s|\s+(?:is|was|has been|got))?\s+(?:cancell?ed|gone(?=\s*(?:[,.!;)]|$))|sold|binned|history|retired)\b/i;
/** A cheap look before anything is read: a newer memory with none of these words sets nothing aside. */
const MAY_SET_ASIDE = new RegExp(`\\b(?:${DISCARD_VERB}|vs\\.?|versus|instead of|rather than|gone|binned|history|retired)\\b`, "i");

/** Capitalised words that name no value: days, months, "I", greetings. */
const NOT_VALUE = /^(?:i|monday|tuesday|wednesday|thursday|friday|saturday|sunday|january|february|march|april|may|june|july|august|september|october|november|december|mon|tue|tues|wed|thu|thur|thurs|fri|sat|sun|ok|okay|hi|hey|dr|mr|mrs|ms)$/i;

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/** The values an older statement gives: its names and codes past its subject, and its attribute values. */
function valuesOf(sentence: string, voice: Voice): string[] {
  const parsed = parseMemory(sentence);
  if (parsed.irrealis) return [];
  const out = new Set<string>();
  // names and codes, past the first clause's subject (the subject is who or what the statement is about)
  const subjectEnd = parsed.subject[1];
  for (const m of sentence.matchAll(/(?<![\p{L}\d])(\p{Lu}[\p{L}'’-]*|\d+\p{Lu}\b)/gu)) {
    const word = m[1].replace(/['’]s$/, "");
    if (m.index! < subjectEnd || m.index === 0 || NOT_VALUE.test(word) || word.length < 3 || isStopWord(word.toLowerCase())) continue;
    out.add(word.toLowerCase());
  }
  // a name written in lowercase, as many chat in ("car is an old skoda octavia", "gym is puregym"): a word past the
  // subject that the tagger's lexicon does not hold is a name, not a common word ("cancelled football" ends nothing)
  for (const w of lowercaseNames(sentence.slice(subjectEnd))) if (!isStopWord(w) && !NOT_VALUE.test(w)) out.add(w);
  for (const v of attributeValues(sentence, voice)) out.add(v.value.split(/\s+/)[0]);
  return [...out].filter((v) => v.length >= 3 && !isStopWord(v));
}

/** The first older statement whose value a newer sentence sets aside, or null. */
export function setAside(olderSentences: string[], newerSentences: string[], voices: { older: Voice; newer: Voice }): SetAside | null {
  const discarding = newerSentences.filter((s) => MAY_SET_ASIDE.test(s) && !parseMemory(s).irrealis);
  if (discarding.length === 0) return null;
  for (const older of olderSentences) {
    for (const value of valuesOf(older, voices.older)) {
      const named = new RegExp(`(?<![\\p{L}\\d])${escape(value)}(?![\\p{L}\\d])`, "giu");
      for (const s of discarding) {
        for (const m of s.matchAll(named)) {
          const before = s.slice(Math.max(0, m.index! - 40), m.index);
          const after = s.slice(m.index! + m[0].length, m.index! + m[0].length + 24);
          const how = DISCARD_BEFORE.exec(before)?.[0] ?? COMPARED_BEFORE.exec(before)?.[0] ?? DISCARD_AFTER.exec(after)?.[0];
          if (how) return { statement: older.trim(), reason: `${value} set aside ("${how.trim()}")` };
        }
      }
    }
  }
  return null;
}
