/**
 * @module graph/revision-parse
 * What the revision judge reads off one memory with wink's tagger (part of speech and lemma a word): its
 * tokens, its content stems, where its first subject ends, and whether it asserts anything at all. A question
 * ("Should Sam move the trip?"), a condition ("if it rains"), a possibility ("we might move it") or a wish
 * ("she hopes to") names a change without making it, so it can never revise a memory.
 */
import { stemmer } from "stemmer";
import { isStopWord } from "../text/stopwords.js";
import { wink } from "../text/wink.js";

export interface Token {
  /** Lowercased as written. */
  lower: string;
  lemma: string;
  /** Universal part of speech (NOUN, VERB, AUX, PROPN, ADP, PART, NUM, ...). */
  pos: string;
  stem: string;
  /** Written with a capital, not opening the text: a name, whatever the tagger says ("the Shanghai internship"). */
  name: boolean;
}

export interface Parsed {
  tokens: Token[];
  /** Stems of the content words: no stop word, no number. */
  content: Set<string>;
  /** [start, end) of the first clause's subject: what comes before its first verb (after a "Plan:" label, which
   * `label` ends at: 0 without one). */
  subject: [number, number];
  label: number;
  /** Why the text asserts nothing (a question, a condition, a possibility, a wish), or null when it does. */
  irrealis: string | null;
}

/** Modals of possibility. "will", "can", "should" and "must" state intent, ability or duty: facts, not guesses. */
const POSSIBLE = new Set(["might", "may", "could", "would"]);
/** Subordinators whose clause is not (yet) true. */
const CONDITIONS = new Set(["if", "unless", "whether", "supposing", "assuming"]);
/** Verbs whose complement is wanted or weighed, not done. */
const ATTITUDES = new Set(["hope", "wish", "dream", "wonder", "consider", "contemplate", "imagine"]);
const HEDGES = new Set(["maybe", "perhaps", "possibly"]);

/** Labels of a memory that puts something forward rather than states it ("Proposal: ...", "Idea to ..."). */
const PROPOSALS = new Set(["proposal", "idea", "suggestion", "proposed", "question"]);

/** Words that open a question: a wh-word, or an auxiliary put first ("can you…", "is it…", "did they…"). */
const INTERROGATIVE = new Set(
  `what when where who whom whose which why how do does did is are am was were can could should would will shall
  have has had may might must isn't aren't wasn't weren't don't doesn't didn't can't couldn't won't wouldn't
  shouldn't haven't hasn't`.split(/\s+/),
);
/** Words a chat puts before a question without changing it ("so", "ok", "hey", "also"). */
const OPENERS = new Set(["so", "ok", "okay", "and", "but", "also", "hey", "hi", "oh", "um", "btw", "quick", "question", "then", "right", "well", "sorry", "pls", "please"]);
/** A tag that turns a statement into a question: "…, right?", "…, isn't it?", "…, or not?" */
const TAG_QUESTION = /(,|\bor)\s*(right|ok|okay|yes|no|not|correct|true|isn't it|aren't they|don't you|didn't it|is that right)\s*\?+\s*["'”’)]*\s*$/i;

/**
 * Whether a sentence ending in "?" asks something. People write surprise and doubt with question marks on
 * statements ("spotify took £19.99 this month??", "they've hiked it again?"): the sentence states its fact. A
 * question has the form of one: it opens with a wh-word or an auxiliary (after a chat's "so", "ok", "also"), or
 * ends with a tag.
 */
function asks(sentence: string): boolean {
  if (TAG_QUESTION.test(sentence)) return true;
  // any clause may be the question: "I'm moving the sync to Friday, is that ok?"
  return sentence.split(/[,;:()\u2013\u2014]|\s-\s/).some((clause) => {
    const words = (clause.toLowerCase().match(/[\p{L}']+/gu) ?? []).filter((w, i, all) => !(OPENERS.has(w) && all.slice(0, i).every((x) => OPENERS.has(x))));
    // an offer drops its "do you": "want me to book it?", "want the reminder switched to the evening?"
    return INTERROGATIVE.has(words[0] ?? "") || /^(any|anything|anyone|got|know|thoughts|ideas?|worth|want|wanna|fancy|need me)\b/.test(words.join(" "));
  });
}

/**
 * The parts of a text that end in "?", each with the words before it back to the last sentence end (what
 * /[^.!?\n]*\?+/g matches, in one pass: that pattern retried from every position of a long stretch without a stop,
 * which made reading one text quadratic in its length).
 */
export function* questioned(text: string): Generator<string> {
  let start = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === "?") {
      let end = i;
      while (end < text.length && text[end] === "?") end++;
      yield text.slice(start, end);
      start = end;
      i = end - 1;
    } else if (c === "." || c === "!" || c === "\n") start = i + 1;
  }
}

/**
 * Subordinators: a modal after one is inside a clause that qualifies the statement, not the statement itself
 * ("starts on the 20th, when the Admiral one would've renewed").
 */
const SUBORDINATORS = new Set(["when", "where", "whereas", "which", "that", "who", "because", "since", "than", "while", "although", "though", "once"]);

function irrealis(tokens: Token[], text: string): string | null {
  for (const part of questioned(text)) if (asks(part)) return "a question";
  if (PROPOSALS.has(tokens[0]?.lemma ?? "")) return `a proposal (${tokens[0].lower})`;
  if (tokens[0] && ["should", "were", "had"].includes(tokens[0].lower)) return "a condition (should …)";
  for (const [i, t] of tokens.entries()) {
    const next = tokens[i + 1];
    if (CONDITIONS.has(t.lower) || (t.lower === "in" && next?.lower === "case")) return `a condition (${t.lower === "in" ? "in case" : t.lower})`;
    // "would rather", "would prefer" state a preference
    if (t.pos === "AUX" && POSSIBLE.has(t.lemma) && !["rather", "prefer"].includes(next?.lemma ?? "") && !subordinate(tokens, i)) return `a possibility (${t.lower})`;
    if (HEDGES.has(t.lower)) return `a possibility (${t.lower})`;
    if (t.pos === "VERB" && (ATTITUDES.has(t.lemma) || (t.lemma === "think" && ["about", "of"].includes(next?.lower ?? "")))) return `a wish or a thought (${t.lower})`;
  }
  return null;
}

/** Whether the word at `i` stands in a subordinate clause: a subordinator after the last clause boundary before it. */
function subordinate(tokens: Token[], i: number): boolean {
  for (let j = i - 1; j >= 0; j--) {
    if ([".", "!", "?", ";"].includes(tokens[j].lower)) return false;
    if (SUBORDINATORS.has(tokens[j].lower)) return true;
  }
  return false;
}

/**
 * The tagger's reading of each word. Its lemma list has holes (none for "cannot" in "(they cannot) fly") and its
 * part of speech may too: a word it cannot lemmatise is its own lemma, one it cannot tag is "X", so every text
 * gets a reading.
 */
function tag(text: string): Token[] {
  const { nlp, its } = wink();
  const doc = nlp.readDoc(text);
  const words = doc.tokens().out() as string[];
  const pos = doc.tokens().out(its.pos) as (string | undefined)[];
  const lemmas = doc.tokens().out(its.lemma as never) as unknown as (string | undefined)[];
  return words.map((w, i) => {
    const lower = String(w).toLowerCase();
    const lemma = typeof lemmas[i] === "string" && lemmas[i] !== "" ? lemmas[i]!.toLowerCase() : lower;
    return { lower, lemma, pos: pos[i] ?? "X", stem: stemmer(lower), name: i > 0 && /^\p{Lu}/u.test(w) && words[i - 1] !== "." };
  });
}

const cache = new Map<string, Parsed>();

/** Parses a memory's text; the last few hundred are kept, as a new memory is judged against several older ones. */
export function parseMemory(text: string): Parsed {
  const hit = cache.get(text);
  if (hit) return hit;
  let tokens = tag(text);
  // a note that leaves its subject out opens with its verb in the past ("Cancelled the delivery", "Rebooked my haircut"),
  // which the tagger, seeing a capital, reads as a name: tag it again with the subject put back
  if (tokens[0]?.pos === "PROPN" && /ed$/.test(tokens[0].lower) && ["DET", "PRON"].includes(tokens[1]?.pos ?? "")) {
    const again = tag(`I ${text[0].toLowerCase()}${text.slice(1)}`);
    if (again[1]?.pos === "VERB") tokens = again.slice(1);
  }
  const content = new Set(tokens.filter((t) => /^\p{L}/u.test(t.lower) && !isStopWord(t.lower) && t.pos !== "PART").map((t) => t.stem));
  const label = tokens.findIndex((t, i) => t.lower === ":" && i <= 3);
  const start = label >= 0 ? label + 1 : 0;
  const verb = tokens.findIndex((t, i) => i >= start && (t.pos === "VERB" || t.pos === "AUX"));
  // with no verb the tagger knows ("Tariq's team rewrote the app"), the subject is the first noun phrase
  const phrase = tokens.slice(start).findIndex((t) => !["DET", "ADJ", "NOUN", "PROPN", "PART", "PRON"].includes(t.pos));
  // never past the last token: a text that is only a label ("Steps:") or only a noun phrase has nothing after it
  const end = verb >= 0 ? verb : Math.min(tokens.length, phrase < 0 ? tokens.length : start + Math.max(1, phrase));
  const parsed: Parsed = { tokens, content, subject: [start, end], label: start, irrealis: irrealis(tokens, text) };
  if (cache.size >= 512) cache.delete(cache.keys().next().value!);
  cache.set(text, parsed);
  return parsed;
}
