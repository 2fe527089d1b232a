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

function irrealis(tokens: Token[], text: string): string | null {
  if (/\?\s*["'”’)]*\s*$/.test(text) || /\?\s+\S/.test(text)) return "a question";
  if (PROPOSALS.has(tokens[0]?.lemma ?? "")) return `a proposal (${tokens[0].lower})`;
  if (tokens[0] && ["should", "were", "had"].includes(tokens[0].lower)) return "a condition (should …)";
  for (const [i, t] of tokens.entries()) {
    const next = tokens[i + 1];
    if (CONDITIONS.has(t.lower) || (t.lower === "in" && next?.lower === "case")) return `a condition (${t.lower === "in" ? "in case" : t.lower})`;
    // "would rather", "would prefer" state a preference
    if (t.pos === "AUX" && POSSIBLE.has(t.lemma) && !["rather", "prefer"].includes(next?.lemma ?? "")) return `a possibility (${t.lower})`;
    if (HEDGES.has(t.lower)) return `a possibility (${t.lower})`;
    if (t.pos === "VERB" && (ATTITUDES.has(t.lemma) || (t.lemma === "think" && ["about", "of"].includes(next?.lower ?? "")))) return `a wish or a thought (${t.lower})`;
  }
  return null;
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
