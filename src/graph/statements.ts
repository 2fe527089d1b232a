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
import { sentencesOf } from "../text/sentences.js";
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

/** A verdict on statements: which sentence of the older memory the newer one revises, when it names one. */
export interface StatementVerdict extends Verdict {
  /** The older memory's sentence judged revised, when the older memory says more than that one statement. */
  statement?: string;
}

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
    found = sentencesOf(prose(text));
    if (split.size >= 512) split.delete(split.keys().next().value!);
    split.set(text, found);
  }
  return found;
}

/**
 * The judge's verdict on the pair, statement by statement when either memory is longer than a statement.
 * `mayRevise` is the cheap test of a sentence worth judging (the judge's own, RevisionJudge.mayRevise).
 */
export async function judgeStatements(judge: RevisionJudge, older: JudgedMemory, newer: JudgedMemory, mayRevise: (text: string) => boolean): Promise<StatementVerdict> {
  const olderSentences = sentences(older.text).slice(0, MAX_COMPARED);
  const newerSentences = sentences(newer.text);
  if (olderSentences.length <= STATEMENT_SENTENCES && newerSentences.length <= STATEMENT_SENTENCES) return judge.judge(older, newer);
  const olderWords = olderSentences.map((s) => new Set(distinctContentWords(s)));
  let best: StatementVerdict = NO_REVISION;
  let judged = 0;
  for (const sentence of newerSentences) {
    if (judged === MAX_JUDGED) break;
    if (!mayRevise(sentence)) continue;
    judged++;
    const words = distinctContentWords(sentence);
    let match = -1;
    let most = MIN_SHARED_WORDS - 1;
    olderWords.forEach((set, i) => {
      const shared = words.reduce((n, w) => n + (set.has(w) ? 1 : 0), 0);
      if (shared > most) [most, match] = [shared, i];
    });
    if (match < 0) continue;
    const verdict = await judge.judge({ text: olderSentences[match], at: older.at }, { text: sentence, at: newer.at });
    if (verdict.confidence > best.confidence) {
      best = { confidence: verdict.confidence, reason: `${verdict.reason}; in "${clip(sentence)}"` };
      // an older memory of one statement is replaced whole; of several, only the one revised
      if (olderSentences.length > 1) best.statement = olderSentences[match].trim();
    }
  }
  return best;
}

const clip = (s: string) => (s.length > 80 ? `${s.slice(0, 77)}…` : s);
