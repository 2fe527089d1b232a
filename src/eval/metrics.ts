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

/** Share of the gold items found in the first k results. Duplicated results count once. */
export function recallAt(ranked: string[], gold: Set<string>, k: number): number {
  if (gold.size === 0) return 0;
  const found = new Set(ranked.slice(0, k).filter((r) => gold.has(r)));
  return found.size / gold.size;
}

export function hitAt(ranked: string[], gold: Set<string>, k: number): number {
  return ranked.slice(0, k).some((r) => gold.has(r)) ? 1 : 0;
}

/** nDCG@k with binary gains; a gold item repeated in the list gains only at its first position. */
export function ndcgAt(ranked: string[], gold: Set<string>, k: number): number {
  const seen = new Set<string>();
  let dcg = 0;
  ranked.slice(0, k).forEach((r, i) => {
    if (gold.has(r) && !seen.has(r)) {
      seen.add(r);
      dcg += 1 / Math.log2(i + 2);
    }
  });
  let ideal = 0;
  for (let i = 0; i < Math.min(gold.size, k); i++) ideal += 1 / Math.log2(i + 2);
  return ideal === 0 ? 0 : dcg / ideal;
}

/** Reciprocal rank of the first gold item in the first k results (0 when none is there). */
export function reciprocalRank(ranked: string[], gold: Set<string>, k = 10): number {
  const i = ranked.slice(0, k).findIndex((r) => gold.has(r));
  return i < 0 ? 0 : 1 / (i + 1);
}

export function scoreQuestion(ranked: string[], gold: Set<string>): Metrics {
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
