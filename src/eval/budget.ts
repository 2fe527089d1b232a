/**
 * @module eval/budget
 * Evidence within a context budget. An agent has a context window, not ten slots: a 60-word week summary may
 * carry what five turns carry in 300. So, for each budget of N words, a question's results are read in order —
 * each hit's text, then the `context` summaries that cover that hit and were not read yet — until N words are
 * spent; an evidence turn counts as retrieved when its own text, or a summary sentence taken from it, was read
 * whole inside the budget. `evidence@N` is the share of a question's evidence turns retrieved, averaged.
 */
import { withSpeaker } from "../text/speaker.js";
import type { ContextEntry, SummarySentence } from "../model/pyramid.js";
import type { SearchResult } from "../model/types.js";

/** The budgets `--budget-words` takes when given without a value in the docs' tables. */
export const DEFAULT_BUDGETS = [250, 500, 1000, 2000];

export const wordCount = (text: string): number => text.split(/\s+/).filter(Boolean).length;

/** One unit of reading: its word cost and the raw memories it stands for. */
interface Piece {
  words: number;
  sources: string[];
}

/** How deep to ask for results so that the largest budget can be spent (turns run ~20 words). */
export function budgetK(budgets: number[]): number {
  return Math.min(300, Math.max(10, Math.ceil(Math.max(...budgets) / 15)));
}

/**
 * The reading order of a result: each hit (a summary hit sentence by sentence), then the context entries that
 * cover it, not read before, sentence by sentence (each line of an entry's text is one of its `sentences`, a
 * superseded one with its mark, which the reader pays for too).
 */
export function readingOrder(result: Pick<SearchResult, "hits" | "context">, sentencesOf: (summaryId: string) => SummarySentence[]): Piece[] {
  const pieces: Piece[] = [];
  // a summary hit is read line by line: each line is one of its stored sentences
  const summaryPieces = (id: string, text: string): Piece[] => {
    const byLine = new Map(sentencesOf(id).map((s) => [withSpeaker(s.speaker, s.text), s.sources]));
    return text.split("\n").map((l) => ({ words: wordCount(l), sources: byLine.get(l) ?? [] }));
  };
  const read = new Set<string>();
  for (const [i, hit] of result.hits.entries()) {
    pieces.push(...(hit.kind === "summary" ? summaryPieces(hit.id, hit.text) : [{ words: wordCount(hit.text), sources: [hit.id] }]));
    for (const c of result.context as ContextEntry[]) {
      // an entry covering no hit (a summary of the question's own time span) is read after the first hit
      if (read.has(c.id) || !(c.hits.includes(hit.id) || (i === 0 && c.hits.length === 0))) continue;
      read.add(c.id);
      pieces.push(...c.text.split("\n").map((l, j) => ({ words: wordCount(l), sources: c.sentences[j]?.sources ?? [] })));
    }
  }
  return pieces;
}

/** The memories read whole within `budget` words, reading the pieces in order and stopping at the first that does not fit. */
export function readWithin(pieces: Piece[], budget: number): Set<string> {
  const found = new Set<string>();
  let spent = 0;
  for (const p of pieces) {
    if (spent + p.words > budget) break;
    spent += p.words;
    for (const s of p.sources) found.add(s);
  }
  return found;
}

/** evidence@N for each budget: the share of the gold items whose memory was read within N words. */
export function evidenceAt(pieces: Piece[], budgets: number[], goldOf: (memoryId: string) => string | undefined, gold: Set<string>): Record<string, number> {
  const out: Record<string, number> = {};
  for (const n of budgets) {
    const items = new Set([...readWithin(pieces, n)].map(goldOf).filter((g): g is string => g !== undefined && gold.has(g)));
    out[`evidence@${n}`] = gold.size ? items.size / gold.size : 0;
  }
  return out;
}

/** Running means of evidence@N, overall and by category. */
export class BudgetAccumulator {
  private readonly sums = new Map<string, Map<string, number>>();
  private readonly counts = new Map<string, number>();

  add(group: string, values: Record<string, number>): void {
    const sums = this.sums.get(group) ?? new Map<string, number>();
    for (const [k, v] of Object.entries(values)) sums.set(k, (sums.get(k) ?? 0) + v);
    this.sums.set(group, sums);
    this.counts.set(group, (this.counts.get(group) ?? 0) + 1);
  }

  mean(group: string): Record<string, number> {
    const n = this.counts.get(group) ?? 0;
    return Object.fromEntries([...(this.sums.get(group) ?? new Map<string, number>())].map(([k, v]) => [k, n ? Math.round((v / n) * 10000) / 10000 : 0]));
  }
}
