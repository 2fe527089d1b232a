/**
 * @module text/sentences
 * Where sentences end, for chunking (text/chunk), turn summaries and the pyramid's extractive summaries.
 *
 * A sentence ends at a line break (a memory joined to the next by "\n" never runs into it, with or without a
 * final full stop), or after a terminator (. ! ? … and every script's own: 。 ！ ？ । ؟ …) and any closing quotes
 * or brackets, followed by a space and a word that does not start in lowercase (in chat, SplitOptions, any word
 * after a full stop); terminators of scripts written
 * without spaces end a sentence with no space after them. A full stop does not end one:
 * - after a title or a common abbreviation ("Dr. Okafor", "Mt. Rainier", "e.g. Lisbon", "approx. 40");
 * - after an initial ("J. R. R. Tolkien", "Priya R. Iyer");
 * - after a dotted acronym when the next word is not one that opens sentences ("the U.S. Army", but "in the U.S.
 *   It was…" ends);
 * - inside a number ("3.5", "v2.3.1": no space follows).
 * Hand-written, linear in the text: Intl.Segmenter split "Dr. | Okafor" and "J. | R. | R. | Tolkien" and its
 * cost grew much faster than the text (100,000 characters 0.13 s, 400,000 5.5 s on V8 20).
 */
import { isStopWord } from "./stopwords.js";
import { pacer } from "../event-loop.js";

export interface Span {
  start: number;
  end: number;
}

/** Words written with a full stop that rarely end a sentence: titles before names, and Latin abbreviations. */
const ABBREVIATIONS = new Set(
  "dr dra mr mrs ms mx prof st mt ft sr sra srta jr fr mme mlle ing mgr rev sgt capt lt col gen gov sen rep hon pres supt cmdr adm maj brig det insp vs e.g i.e cf approx dept est fig vol ch pp op viz al ca inc incl esp".split(" "),
);
/**
 * Words of an address or a number written with a full stop, which go on to what they name: "ul. Kartuska 18",
 * "flat 3, no. 22", "tel. 555 0142". Kept only before a number (the first set) or a number or a name (the second),
 * since "no." and "pl." end sentences too ("I said no. Then…").
 */
const BEFORE_NUMBER = new Set("no nr nos tel apt ste".split(" "));
const BEFORE_NAME = new Set("ul ave blvd str pl".split(" "));
/** A terminator, then closing quotes or brackets; `g` so the scan resumes where the last one ended. */
const TERMINATOR = /(\p{Sentence_Terminal}+)(["'”’»)\]]*)/gu;
/** Terminators of scripts written without spaces (CJK, Ethiopic...): the sentence ends without a space after. */
const UNSPACED_TERMINATOR = /[。！？｡︒﹒．፧፨።]/u;
const SPACED_AFTER = /^[ \t\u00a0\u2000-\u200b\u3000]+/;

/** Whether the full stop at `dot` belongs to the word before it (an abbreviation, an initial, an acronym). */
function keepsSentence(text: string, dot: number, after: string, lower = false): boolean {
  const word = /[\p{L}.]*$/u.exec(text.slice(Math.max(0, dot - 12), dot))![0];
  if (word.length === 0) return false;
  const lowered = word.toLowerCase();
  if (ABBREVIATIONS.has(lowered)) return true;
  if (BEFORE_NUMBER.has(lowered) && /^\d/.test(after)) return true;
  if (BEFORE_NAME.has(lowered) && /^[\p{Lu}\d]/u.test(after)) return true;
  const next = /^\p{L}*/u.exec(after)![0];
  if (/^\p{Lu}$/u.test(word)) return true; // an initial: "J. R. R. Tolkien"
  // a dotted acronym ("U.S.", "a.m."): the sentence goes on unless the next word is one that opens sentences
  if (/^(?:\p{L}\.)+\p{L}$/u.test(word) || /^\p{Lu}\p{L}*\.\p{Lu}$/u.test(word)) return lower || !isStopWord(next.toLowerCase());
  return false;
}

export interface SplitOptions {
  /**
   * Read as chat, whose sentences may start in lowercase ("allergic to penicillin (hives). and i drink like 4
   * cafecitos a day"): a full stop ends a sentence whatever word follows, unless the word before it keeps it (an
   * abbreviation, an acronym). For statements compared by revision detection (graph/statements); chunks, summaries
   * and read-time steps split as prose, where a lowercase word after a full stop more often goes on the sentence
   * (LoCoMo Recall@10 0.7933 with prose splitting everywhere, 0.7917 with chat splitting everywhere).
   */
  chat?: boolean;
}

/** The sentences of a text, as trimmed character spans (offsets into the text). */
export function sentenceSpans(text: string, options: SplitOptions = {}): Span[] {
  const work = eachSentenceSpans(text, options);
  for (;;) {
    const step = work.next();
    if (step.done) return step.value;
  }
}

/** Characters read between two chances to pause (see eachSentenceSpans). */
const CHARS_BETWEEN_PAUSES = 65_536;

/**
 * sentenceSpans, stopping (`yield`) at a line break every CHARS_BETWEEN_PAUSES characters or so: a caller on a
 * server's one thread lets I/O in there (a 1,000,000-character text takes 25-140 ms to split).
 */
export function* eachSentenceSpans(text: string, { chat = false }: SplitOptions = {}): Generator<void, Span[], void> {
  const spans: Span[] = [];
  let read = 0;
  const push = (start: number, end: number) => {
    while (start < end && /\s/.test(text[start])) start++;
    while (end > start && /\s/.test(text[end - 1])) end--;
    if (end > start) spans.push({ start, end });
  };
  // a line break always ends a sentence; within a line, a terminator may
  for (let at = 0; at <= text.length; ) {
    const nl = text.indexOf("\n", at);
    const lineEnd = nl < 0 ? text.length : nl;
    const line = text.slice(at, lineEnd);
    let from = 0;
    for (const m of line.matchAll(TERMINATOR)) {
      const end = m.index! + m[0].length;
      if (end >= line.length) break; // the line's end closes it anyway
      const after = line.slice(end, end + 64);
      const gap = SPACED_AFTER.exec(after)?.[0].length ?? 0;
      if (gap === 0) {
        if (UNSPACED_TERMINATOR.test(m[1])) push(at + from, at + (from = end));
        continue;
      }
      const next = /^\S*/.exec(after.slice(gap))![0].replace(/^["'“‘«(\[]+/, "");
      // chats start sentences in lowercase ("allergic to penicillin. and i drink like 4 cafecitos a day"): a full
      // stop, "!" or "?" ends one whatever follows; an ellipsis before lowercase trails off into the same one
      // a quotation's own question before "she asked" does not end the sentence quoting it, nor does an acronym ("the
      // U.S. in 2019")
      const lower = /^\p{Ll}/u.test(next);
      if (lower && (!chat || m[1] !== "." || m[2] !== "")) continue;
      if (m[1] === "." && keepsSentence(line, m.index!, next, lower)) continue;
      push(at + from, at + (from = end));
    }
    push(at + from, lineEnd);
    at = lineEnd + 1;
    if (at - read >= CHARS_BETWEEN_PAUSES) {
      read = at;
      yield;
    }
  }
  return spans;
}

/** A text's sentences, split with pauses for I/O (a long one's splitting is tens of milliseconds). */
export async function pacedSentenceSpans(text: string): Promise<Span[]> {
  const work = eachSentenceSpans(text);
  const pause = pacer();
  for (;;) {
    const step = work.next();
    if (step.done) return step.value;
    await pause();
  }
}

/** The sentences of a text, as strings. */
export const sentencesOf = (text: string, options: SplitOptions = {}): string[] => sentenceSpans(text, options).map((s) => text.slice(s.start, s.end));

/**
 * Up to this many sentences a chat message may be fragments of one statement: "Leah and Sam set a date!! 12 June
 * 2027." names the thing in one sentence and gives its value in the next, so readers of values also read it whole.
 */
export const FRAGMENT_SENTENCES = 4;

/** A message's sentences, and the message whole when it has several but no more than FRAGMENT_SENTENCES. */
export function sentencesAndWhole(sentences: string[]): string[] {
  return sentences.length > 1 && sentences.length <= FRAGMENT_SENTENCES ? [...sentences, sentences.join(" ")] : sentences;
}
