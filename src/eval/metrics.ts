/**
 * @module eval/metrics
 * Retrieval metrics against a set of gold items, with binary relevance.
 */

export interface Metrics {
  "recall@5": number;
  "recall@10": number;
  "hit@10": number;
  "ndcg@10": number;
  mrr: number;
}

export const METRIC_NAMES: (keyof Metrics)[] = ["recall@5", "recall@10", "hit@10", "ndcg@10", "mrr"];

/**
 * A ranked result is one item, or several: a summary credited with the turns it was built from. A result is
 * relevant when it holds a gold item; it gains once, however many it holds, so nDCG stays at most 1.
 */
export type RankedItem = string | readonly string[];

const itemsOf = (r: RankedItem): readonly string[] => (typeof r === "string" ? [r] : r);

/** Share of the gold items found in the first k results. Duplicated results count once. */
export function recallAt(ranked: RankedItem[], gold: Set<string>, k: number): number {
  if (gold.size === 0) return 0;
  const found = new Set(ranked.slice(0, k).flatMap(itemsOf).filter((r) => gold.has(r)));
  return found.size / gold.size;
}

export function hitAt(ranked: RankedItem[], gold: Set<string>, k: number): number {
  return ranked.slice(0, k).some((r) => itemsOf(r).some((x) => gold.has(x))) ? 1 : 0;
}

/** nDCG@k with binary gains; a result gains only when it holds a gold item not already found higher up. */
export function ndcgAt(ranked: RankedItem[], gold: Set<string>, k: number): number {
  const seen = new Set<string>();
  let dcg = 0;
  ranked.slice(0, k).forEach((r, i) => {
    const fresh = itemsOf(r).filter((x) => gold.has(x) && !seen.has(x));
    if (fresh.length > 0) {
      fresh.forEach((x) => seen.add(x));
      dcg += 1 / Math.log2(i + 2);
    }
  });
  let ideal = 0;
  for (let i = 0; i < Math.min(gold.size, k); i++) ideal += 1 / Math.log2(i + 2);
  return ideal === 0 ? 0 : dcg / ideal;
}

/** Reciprocal rank of the first gold item in the first k results (0 when none is there). */
export function reciprocalRank(ranked: RankedItem[], gold: Set<string>, k = 10): number {
  const i = ranked.slice(0, k).findIndex((r) => itemsOf(r).some((x) => gold.has(x)));
  return i < 0 ? 0 : 1 / (i + 1);
}

export function scoreQuestion(ranked: RankedItem[], gold: Set<string>): Metrics {
  return {
    "recall@5": recallAt(ranked, gold, 5),
    "recall@10": recallAt(ranked, gold, 10),
    "hit@10": hitAt(ranked, gold, 10),
    "ndcg@10": ndcgAt(ranked, gold, 10),
    mrr: reciprocalRank(ranked, gold, 10),
  };
}

/** Running means of metrics. */
export class MetricsAccumulator {
  private sums: Metrics = { "recall@5": 0, "recall@10": 0, "hit@10": 0, "ndcg@10": 0, mrr: 0 };
  count = 0;

  add(m: Metrics): void {
    for (const k of METRIC_NAMES) this.sums[k] += m[k];
    this.count++;
  }

  mean(): Metrics {
    const out = { ...this.sums };
    for (const k of METRIC_NAMES) out[k] = this.count ? Math.round((this.sums[k] / this.count) * 10000) / 10000 : 0;
    return out;
  }
}
