/**
 * @module graph/statements
 * A revision replaces one statement with another, so a rule-based judge is asked about statements, not about
 * whole documents. A long memory (an assistant's formatted reply, a pasted page) holds dozens of sentences:
 * judged whole, any two long texts on one project share most of the smaller one's words, and somewhere in them
 * stand a number, a "now" and a "not" — on user–assistant chats 130 of 188 messages of one chat were marked as
 * revising another (BEAM chat 1), and the successors raised in their place cost BM25 alone Recall@10 0.461 → 0.383.
 * Here each sentence of the newer memory that may signal a change is judged against the older memory's sentence
 * that shares most words with it; the memory's verdict is the most confident of these. A memory of one or two
 * sentences is judged whole, as before.
 */
import type { JudgedMemory, RevisionJudge, Verdict } from "../ports/judge.js";
import { sentenceSpans, sentencesOf } from "../text/sentences.js";
import { distinctContentWords } from "../text/tokenize.js";

/** Up to this many sentences, a memory is one statement and is judged whole. */
export const STATEMENT_SENTENCES = 2;

/** An older sentence must share at least this many content words with a newer one to be about the same thing. */
const MIN_SHARED_WORDS = 2;

const NO_REVISION: Verdict = { confidence: 0, reason: "no sentence of the newer memory revises one of the older" };

/**
 * At most this many sentences of a newer memory are judged, against at most this many of an older one: the cost of
 * judging a pair is bounded whatever the two texts' size (a pasted book would otherwise cost sentences²).
 */
const MAX_JUDGED = 48;
const MAX_COMPARED = 400;

/**
 * Code is not a statement of anyone's state: `db.String(120)` beside `db.String(80)` is two columns, not a
 * change of mind. Fenced blocks, inline code and lines that read as code are left out before judging.
 */
const FENCED = /```[\s\S]*?(```|$)/g;
const INLINE_CODE = /`[^`\n]*`/g;
const CODE_LINE = /^\s*([#/]{2}|[{}()[\];]|\S+\s*[=:]\s*\S+\(|(def|class|import|from|return|const|let|var|function|SELECT|INSERT|CREATE)\b)/;

/**
 * A heading or a bold label ("### Step 2", "- **New Deadline**: March 31") is a formatted reply's structure, not a
 * statement: on BEAM chat 1 such lines made 7 of the 30 edges the judge drew; chats 1–10 fused Recall@10 0.488 → 0.496.
 */
const MARKUP_LINE = /^\s*(#{1,6}\s|([-*+]|\d+\.)\s+\*\*[^*]+\*\*:?)/;

export function prose(text: string): string {
  return text
    .replace(FENCED, "\n")
    .replace(INLINE_CODE, " ")
    .split("\n")
    .filter((line) => !CODE_LINE.test(line) && !MARKUP_LINE.test(line))
    .join("\n");
}

/**
 * A new memory is judged against several older ones, and an older one against several new ones of a batch: the
 * last few hundred texts' sentences are kept rather than split again for every pair (as revision-parse keeps parses).
 */
const split = new Map<string, string[]>();

/** The statements of a text: its prose's sentences (kept for the last few hundred texts). */
export function sentences(text: string): string[] {
  let found = split.get(text);
  if (!found) {
    found = sentencesOf(prose(text), { chat: true });
    if (split.size >= 512) split.delete(split.keys().next().value!);
    split.set(text, found);
  }
  return found;
}

/** Characters of a text read at first for its leading sentences; doubled until enough are found. */
const LEADING_CHARS = 16_384;
/** Sentence ends within this many characters of a cut are not trusted (text/sentences looks 64 ahead). */
const CUT_MARGIN = 128;

/**
 * The first `count` statements of a text, read from as little of it as gives them: an earlier memory is compared
 * by its first MAX_COMPARED sentences only, and splitting the whole of a 1,000,000-character one again for every
 * later write (each process, or each time it left the cache) cost every later `add` seconds. The sentences found
 * are the whole text's first ones: those ending near the cut are not counted.
 */
export function leadingSentences(text: string, count: number): string[] {
  const whole = split.get(text);
  if (whole) return whole.slice(0, count);
  for (let length = LEADING_CHARS; length < text.length; length *= 2) {
    const read = prose(text.slice(0, length));
    // where a sentence ends is decided by the words just after it: those near the cut may end otherwise in the whole
    const spans = sentenceSpans(read, { chat: true }).filter((s) => s.end < read.length - CUT_MARGIN);
    if (spans.length > count) return spans.slice(0, count).map((s) => read.slice(s.start, s.end));
  }
  return sentences(text).slice(0, count);
}

/**
 * A statement longer than this is not one a person makes (a text with no full stops, a log pasted whole): its
 * first characters stand for it, so that judging a pair costs the same whatever the two texts' size.
 */
export const MAX_STATEMENT_CHARS = 4000;

const bounded = (text: string) => (text.length > MAX_STATEMENT_CHARS ? text.slice(0, MAX_STATEMENT_CHARS) : text);

/** The first `count` statements of a text, each of at most MAX_STATEMENT_CHARS: what a judge reads of a memory. */
export const judgedStatements = (text: string, count: number): string[] => leadingSentences(text, count).map(bounded);

/**
 * The sentences of a newer memory worth judging, with their content words: worked out once per memory, not once per
 * earlier memory it is compared with (a long newer memory has thousands of sentences to test).
 */
let lastJudged: { text: string; mayRevise: (text: string) => boolean; found: { sentence: string; words: string[] }[] } | null = null;

function judgedSentences(text: string, mayRevise: (text: string) => boolean): { sentence: string; words: string[] }[] {
  if (lastJudged?.text === text && lastJudged.mayRevise === mayRevise) return lastJudged.found;
  const found: { sentence: string; words: string[] }[] = [];
  for (const sentence of sentences(text)) {
    if (found.length === MAX_JUDGED) break;
    if (!mayRevise(sentence)) continue;
    found.push({ sentence: bounded(sentence), words: distinctContentWords(bounded(sentence)) });
  }
  lastJudged = { text, mayRevise, found };
  return found;
}

/**
 * The judge's verdict on the pair, statement by statement when either memory is longer than a statement.
 * `mayRevise` is the cheap test of a sentence worth judging (the judge's own, RevisionJudge.mayRevise); `pause`, when
 * given, is awaited between two judged sentences (event-loop's pacer).
 */
export async function judgeStatements(
  judge: RevisionJudge,
  older: JudgedMemory,
  newer: JudgedMemory,
  mayRevise: (text: string) => boolean,
  pause: () => Promise<void> | undefined = () => undefined,
): Promise<Verdict> {
  const olderSentences = judgedStatements(older.text, MAX_COMPARED);
  const newerSentences = leadingSentences(newer.text, STATEMENT_SENTENCES + 1);
  if (olderSentences.length <= STATEMENT_SENTENCES && newerSentences.length <= STATEMENT_SENTENCES) {
    const verdict = await judge.judge({ ...older, text: bounded(older.text) }, { ...newer, text: bounded(newer.text) });
    // judged whole, but an older memory of two statements is replaced only in the one the newer speaks of
    const revised = verdict.confidence > 0 && olderSentences.length > 1 ? closestStatement(olderSentences, newer.text) : null;
    return revised ? { ...verdict, statement: revised.trim() } : verdict;
  }
  const olderWords = olderSentences.map((s) => new Set(distinctContentWords(s)));
  let best: Verdict = NO_REVISION;
  for (const { sentence, words } of judgedSentences(newer.text, mayRevise)) {
    await pause(); // up to MAX_JUDGED pairs, each a tagging of two sentences
    const match = mostShared(olderWords, words);
    if (match < 0) continue;
    const verdict = await judge.judge({ text: olderSentences[match], at: older.at }, { text: sentence, at: newer.at });
    if (verdict.confidence > best.confidence) {
      best = { confidence: verdict.confidence, reason: `${verdict.reason}; in "${clip(sentence)}"` };
      // an older memory of one statement is replaced whole; of several, only the one revised
      if (olderSentences.length > 1) best.statement = olderSentences[match].trim();
    }
  }
  const whole = await judgeMessage(judge, olderSentences, olderWords, older.at, newer);
  return whole && whole.confidence > best.confidence ? whole : best;
}

/** The older statement sharing most of these words, at least MIN_SHARED_WORDS (the first of a tie); -1 when none does. */
function mostShared(olderWords: Set<string>[], words: string[]): number {
  let match = -1;
  let most = MIN_SHARED_WORDS - 1;
  olderWords.forEach((set, i) => {
    const shared = words.reduce((n, w) => n + (set.has(w) ? 1 : 0), 0);
    if (shared > most) [most, match] = [shared, i];
  });
  return match;
}

/** Up to this many sentences, a newer memory is one message: its sentences are read together. */
const MESSAGE_SENTENCES = 4;

/**
 * A short message tells one change over several sentences: "letter from kowalczyk. from april the flat is 2950 zł a
 * month." names the landlord in one and the new amount in the other, and neither alone shares two words with "rent
 * is 2800 zł to mr kowalczyk". The whole message is judged against the older statement sharing most words with it.
 */
async function judgeMessage(judge: RevisionJudge, olderSentences: string[], olderWords: Set<string>[], olderAt: string, newer: JudgedMemory): Promise<Verdict | null> {
  // a message of one sentence was judged as that sentence
  const count = leadingSentences(newer.text, MESSAGE_SENTENCES + 1).length;
  if (count <= 1 || count > MESSAGE_SENTENCES) return null;
  const text = bounded(newer.text);
  const match = mostShared(olderWords, distinctContentWords(text));
  if (match < 0) return null;
  const verdict = await judge.judge({ text: olderSentences[match], at: olderAt }, { text, at: newer.at });
  if (verdict.confidence === 0) return null;
  return { ...verdict, reason: `${verdict.reason}; in the whole message`, ...(olderSentences.length > 1 ? { statement: olderSentences[match].trim() } : {}) };
}

/** The one statement sharing more content words with the text than any other, or null when none stands out. */
function closestStatement(statements: string[], text: string): string | null {
  const words = distinctContentWords(text);
  const shared = statements.map((s) => {
    const own = new Set(distinctContentWords(s));
    return words.reduce((n, w) => n + (own.has(w) ? 1 : 0), 0);
  });
  const most = Math.max(...shared);
  return most > 0 && shared.filter((n) => n === most).length === 1 ? statements[shared.indexOf(most)] : null;
}

const clip = (s: string) => (s.length > 80 ? `${s.slice(0, 77)}…` : s);
