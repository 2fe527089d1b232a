/**
 * @module pyramid/extractive
 * The default summariser: offline, deterministic, extractive. It picks the sentences that best cover the window
 * by Maximal Marginal Relevance (Carbonell and Goldstein, 1998) against the window's centroid: each pick is the
 * sentence closest to what the window is about and least like the sentences already picked, plus a bonus for
 * sentences that state something (events, decisions, plans, names, places, numbers, dates; see
 * pyramid/informative.ts) over greetings, questions and small talk.
 *
 * A summary must not keep a belief the window itself reversed. So a picked sentence gives way to a later
 * sentence by the same speaker that revises it (the revision judge's cues: "actually", "instead", a changed
 * value, a flipped polarity) or says the same thing again (near-identical vectors): the later one is kept, and
 * names in `revises` the memories whose statements it revised, so that a search can tell which summaries carry
 * a later state of its hits (query/context.ts).
 */
import { pacer } from "../event-loop.js";
import { judgeRevision } from "../graph/cue-judge.js";
import { MAX_STATEMENT_CHARS } from "../graph/statements.js";
import type { SummarySentence } from "../model/pyramid.js";
import type { Embedder } from "../ports/embedder.js";
import type { SummaryRequest, Summarizer } from "../ports/summarizer.js";
import { contentWords } from "../text/tokenize.js";
import { informativeness } from "./informative.js";
import { EXTRACTIVE_SUMMARIZER_ID } from "./current.js";
import { dot, isZero, normalizeInPlace } from "../vectors/math.js";

export interface ExtractiveOptions {
  /** Weight of coverage against novelty in MMR (1 = coverage only). */
  lambda: number;
  /** Vectors at least this similar say the same thing. */
  restatement: number;
  /** The revision judge's confidence from which a later sentence replaces an earlier one. */
  revision: number;
  /** Below this similarity two sentences are about different things and the judge is not asked. */
  related: number;
  /** Sentences with fewer content words ("Hi!", "Thanks so much") are not worth a summary's room. */
  minContentWords: number;
  /** Weight of a sentence's informativeness (0 to 1) beside coverage and novelty. */
  informative: number;
  /** At most this many candidates (the most informative, in time order) are looked at closely: a day of 10,000 turns costs what 150 do. */
  maxPool: number;
}

export const defaultExtractive: Readonly<ExtractiveOptions> = Object.freeze({
  lambda: 0.7,
  restatement: 0.92,
  revision: 0.5,
  related: 0.5,
  minContentWords: 3,
  informative: 0.3,
  maxPool: 150,
});

interface Candidate {
  sentence: SummarySentence;
  order: number;
  vector: Float32Array;
  info: number;
}

export class ExtractiveSummarizer implements Summarizer {
  readonly id = EXTRACTIVE_SUMMARIZER_ID; // (pyramid/current.ts says what its version means)
  private readonly opts: ExtractiveOptions;

  constructor(private readonly embedder: Embedder, options: Partial<ExtractiveOptions> = {}) {
    this.opts = { ...defaultExtractive, ...options };
  }

  async summarize({ sentences, limits }: SummaryRequest): Promise<SummarySentence[]> {
    if (sentences.length === 0) return [];
    // A very large window is first thinned evenly to four times the pool (a day of 1,440 turns holds ~2,900
    // sentences), then keeps its most informative sentences (a surface score) before anything costlier.
    if (sentences.length > 4 * this.opts.maxPool) {
      const step = sentences.length / (4 * this.opts.maxPool);
      sentences = Array.from({ length: 4 * this.opts.maxPool }, (_, i) => sentences[Math.floor(i * step)]);
    }
    let infos = sentences.map((s) => informativeness(s.text));
    let cut = sentences;
    if (sentences.length > this.opts.maxPool) {
      const keep = new Set([...sentences.keys()].sort((a, b) => infos[b] - infos[a] || a - b).slice(0, this.opts.maxPool));
      cut = sentences.filter((_, i) => keep.has(i));
      infos = infos.filter((_, i) => keep.has(i));
    }
    const wordy = cut.map((s) => contentWords(s.text).length >= this.opts.minContentWords);
    const pool = wordy.some(Boolean) ? cut.filter((_, i) => wordy[i]) : cut;
    if (wordy.some(Boolean)) infos = infos.filter((_, i) => wordy[i]);
    const vectors = await this.embedder.embed(pool.map((s) => s.text));
    const candidates: Candidate[] = pool.map((sentence, order) => ({ sentence, order, vector: vectors[order], info: infos[order] }));

    const centroid = new Float32Array(this.embedder.dimensions);
    for (const c of candidates) for (let i = 0; i < centroid.length; i++) centroid[i] += c.vector[i];
    if (!isZero(centroid)) normalizeInPlace(centroid);
    const coverage = candidates.map((c) => dot(c.vector, centroid));

    const picked: Candidate[] = [];
    const gone = new Set<number>(); // picked, or replaced by a later sentence
    // each pick may ask the revision judge about every other candidate: a server answers others in between
    const pause = pacer();
    let chars = 0;
    while (picked.length < limits.maxSentences) {
      let best: Candidate | null = null;
      let bestScore = -Infinity;
      for (const c of candidates) {
        if (gone.has(c.order) || chars + c.sentence.text.length > limits.maxChars) continue;
        let redundancy = 0;
        for (const p of picked) redundancy = Math.max(redundancy, dot(c.vector, p.vector));
        const score = this.opts.lambda * coverage[c.order] - (1 - this.opts.lambda) * redundancy + this.opts.informative * c.info;
        if (score > bestScore) [best, bestScore] = [c, score];
      }
      if (!best) break;
      const revised = new Set<string>();
      const kept = await this.latestVersion(best, candidates, gone, revised, pause);
      gone.add(best.order).add(kept.order);
      // and nothing older that the kept sentence already restates or revises may be picked later
      for (const c of candidates) {
        if (c.order >= kept.order || gone.has(c.order)) continue;
        await pause();
        const how = this.replaces(kept, c);
        if (how) gone.add(c.order);
        if (how === "revises") for (const id of c.sentence.sources) revised.add(id);
      }
      if (chars + kept.sentence.text.length > limits.maxChars) continue;
      for (const id of kept.sentence.sources) revised.delete(id);
      picked.push(revised.size ? { ...kept, sentence: { ...kept.sentence, revises: [...revised].sort() } } : kept);
      chars += kept.sentence.text.length;
    }
    return picked.sort((a, b) => a.order - b.order).map((c) => c.sentence);
  }

  /**
   * The last sentence in the chain of later restatements or revisions of `c`; the memories whose statements it
   * revised (not merely restated) are added to `revised`.
   */
  private async latestVersion(c: Candidate, candidates: Candidate[], gone: Set<number>, revised: Set<string>, pause: () => Promise<void> | undefined): Promise<Candidate> {
    let current = c;
    for (const later of candidates) {
      if (later.order <= current.order || gone.has(later.order)) continue;
      await pause();
      const how = this.replaces(later, current);
      if (!how) continue;
      if (how === "revises") for (const id of current.sentence.sources) revised.add(id);
      gone.add(current.order);
      current = later;
    }
    return current;
  }

  /** Whether `later` (by the same speaker) says `earlier` again, revises it, or neither. */
  private replaces(later: Candidate, earlier: Candidate): "restates" | "revises" | null {
    if (later.sentence.speaker !== earlier.sentence.speaker) return null;
    const similarity = dot(later.vector, earlier.vector);
    if (similarity >= this.opts.restatement) return "restates";
    // a "sentence" of a text without full stops may be the whole text: its start stands for it (graph/statements)
    const statement = (text: string) => text.slice(0, MAX_STATEMENT_CHARS);
    if (similarity >= this.opts.related && judgeRevision(statement(earlier.sentence.text), statement(later.sentence.text)).confidence >= this.opts.revision) return "revises";
    return null;
  }
}
