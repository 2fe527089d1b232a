/**
 * @module query/extracts
 * Many moments in few words, for a question that asks for coverage (query/coverage.ts: "summarise how my project
 * has progressed", "in what order did I bring up..."). Its evidence is many messages, most of them ranked far below
 * the head (BEAM summarization: 20th to 130th of the fused list), and a reader within a budget of words reads whole
 * messages of ~150 to ~900 words: 2,000 words hold about a dozen. So such a question's `context` also holds, for
 * each of its first `moments` candidates (in the order coverage gave them: one moment after another), the sentence
 * of that memory closest to the question (by the embedder, among the few sharing most words with it), as an entry of level `turn` whose id is the memory's own (`show ID`
 * gives the whole message). Eighty sentences of ~20 words cost what a dozen messages cost and name eighty moments.
 *
 * For a question asking for a summary, each candidate's next turn in its session (a request's reply: what was
 * answered is part of what a summary covers) gets its extract right after the candidate's.
 *
 * An extract belongs to the question, not to one hit (`hits` is empty): a reader takes the overview after the
 * first hit, then the hits in full for detail. The sentence is chosen among those of at least `minWords` and at
 * most `maxWords` words (a bare "Thanks!" or a pasted paragraph says little per word); a memory with none is passed
 * over. Sentences are read like a summary's (query/summary-sentences.ts): only memories passing the search's filter,
 * a superseded one marked (or left out with current-only). A pinpoint question gets none.
 */
import type { ContextEntry, SummarySentence } from "../model/pyramid.js";
import type { SearchFilter } from "../model/types.js";
import type { Embedder } from "../ports/embedder.js";
import type { Store } from "../ports/store.js";
import { sentenceSpans } from "../text/sentences.js";
import { isStopWord } from "../text/stopwords.js";
import { formatInstant } from "../time/iso.js";
import { dot, isZero } from "../vectors/math.js";
import { asksForCoverage, asksForSummary } from "./coverage.js";
import { readSentences, sentenceLine } from "./summary-sentences.js";

export interface ExtractOptions {
  /** Extracts for a coverage question: one sentence of each of this many of its first candidates (0: none). */
  moments: number;
  /** The shortest sentence worth a line, in words. */
  minWords: number;
  /** The longest sentence taken, in words. */
  maxWords: number;
  /** For a question asking for a summary, an extract of each candidate's next turn in its session too. */
  replies: boolean;
}

/**
 * Chosen on BEAM chats 1–10 (split-half cross-check in docs/benchmark-notes.md): eighty moments fill ~2,000 words at
 * ~20 words a line; four words leave out "Thanks, that helps!" and code fragments; forty keep a long request's
 * opening sentence and leave out pasted paragraphs.
 */
export const defaultExtracts: Readonly<ExtractOptions> = Object.freeze({ moments: 80, minWords: 4, maxWords: 40, replies: true });

export interface ExtractInput {
  question: string;
  /** The question's vector (zero when the dense channel was not asked: then each memory's first fitting sentence). */
  vector: Float32Array;
  /** Candidate memory ids, best first (as coverage ordered them). */
  candidates: string[];
  /** Memories the reader already reads whole before the extracts (the first hit): no extract of them. */
  readBefore: Set<string>;
  filter: SearchFilter;
  time: { asOf: number; knownAt: number };
  currentOnly: boolean;
}

const words = (t: string): number => t.split(/\s+/).filter(Boolean).length;

/**
 * Code says little to a reader of an overview (`id = db.Column(...)`, `return {...}`, `<p>`): sentences in fenced
 * blocks and lines that read as code are never an extract (as graph/statements.ts leaves them out of statements).
 */
const FENCED = /```[\s\S]*?(?:```|$)/g;
const CODE = /^\s*(?:[#/]{2}|[{}()[\];<]|\S+\s*[=:]\s*\S+\(|\S+ = |(?:def|class|import|from|return|const|let|var|function|if|for|SELECT|INSERT|CREATE)\b)|[{;]\s*$/;

/** Sentences of a memory embedded to choose its extract: those sharing the most words with the question. */
const SHORTLIST = 3;

/** A text's words other than function words, lowercased. */
const contentWords = (t: string): Set<string> => new Set((t.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []).filter((w) => !isStopWord(w)));

/** The extracts of a coverage question's candidates; none for any other question. */
export async function momentExtracts(deps: { store: Store; embedder: Embedder }, input: ExtractInput, o: ExtractOptions): Promise<ContextEntry[]> {
  if (o.moments <= 0 || !asksForCoverage(input.question)) return [];
  const first = [...new Set(input.candidates)].filter((id) => !input.readBefore.has(id)).slice(0, o.moments);
  // a summary covers the answers too: each candidate's next turn in its session (a request's reply) follows it
  const near = o.replies && asksForSummary(input.question) ? await deps.store.sessionNeighbours(first, 1) : null;
  const ids = near ? [...new Set(first.flatMap((id) => [id, ...(near.get(id)?.after ?? [])]))].filter((id) => !input.readBefore.has(id)) : first;
  if (ids.length === 0) return [];
  const memories = await deps.store.getMemories(ids);
  // each memory's fitting sentences sharing the most words with the question (at most SHORTLIST: embedding every
  // sentence of 160 long messages took ~0.3 s), embedded in one call
  const asked = contentWords(input.question);
  const options: { id: string; text: string }[] = [];
  for (const id of ids) {
    const m = memories.get(id);
    // a reply brought in beside a candidate may be later than the time asked about
    if (!m || m.kind === "summary" || Date.parse(m.at) > input.time.asOf || Date.parse(m.recordedAt) > input.time.knownAt) continue;
    const fitting: { text: string; shared: number; i: number }[] = [];
    const fences = [...m.text.matchAll(FENCED)].map((f) => ({ start: f.index, end: f.index + f[0].length }));
    let opening: string | null = null;
    for (const s of sentenceSpans(m.text)) {
      const text = m.text.slice(s.start, s.end).trim();
      if (CODE.test(text) || fences.some((f) => s.start < f.end && f.start < s.end)) continue;
      const n = words(text);
      if (n >= o.minWords && n <= o.maxWords) fitting.push({ text, shared: [...contentWords(text)].filter((w) => asked.has(w)).length, i: fitting.length });
      else if (n > o.maxWords) opening ??= text;
    }
    // a message of one long sentence ("I'm trying to understand what an isosceles triangle is, and … can you help me
    // figure out …", 60 words and no full stop) is named by its opening words, cut
    if (fitting.length === 0 && opening) fitting.push({ text: `${opening.split(/\s+/).slice(0, o.maxWords).join(" ")} …`, shared: 0, i: 0 });
    fitting.sort((a, b) => b.shared - a.shared || a.i - b.i);
    for (const f of fitting.slice(0, SHORTLIST)) options.push({ id, text: f.text });
  }
  if (options.length === 0) return [];
  const vectors = isZero(input.vector) ? null : await deps.embedder.embed(options.map((x) => x.text));
  const best = new Map<string, { text: string; similarity: number }>();
  options.forEach((x, i) => {
    const similarity = vectors ? dot(vectors[i], input.vector) : 0;
    const held = best.get(x.id);
    if (!held || similarity > held.similarity) best.set(x.id, { text: x.text, similarity });
  });
  const sentences: SummarySentence[] = ids
    .filter((id) => best.has(id))
    .map((id) => {
      const m = memories.get(id)!;
      return { text: best.get(id)!.text, speaker: m.speaker, at: m.at, sources: [id] };
    });
  const shown = await readSentences(deps.store, sentences, { filter: input.filter, time: input.time, currentOnly: input.currentOnly });
  return shown.map((s) => {
    const id = s.sources[0];
    const at = Date.parse(memories.get(id)!.at);
    return { id, level: "turn", window: { start: formatInstant(at), end: formatInstant(at + 1) }, text: sentenceLine(s), sentences: [s], sources: [id], hits: [] };
  });
}
