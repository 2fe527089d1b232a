/**
 * @module bench/corpus
 * A reproducible synthetic corpus: real English words (so that word vectors mean something) drawn with a
 * Zipfian distribution, in sentences of realistic length, from a seeded generator. Queries are drawn from
 * random memories (a few of their words plus a related-looking stranger) so that most have true matches.
 */

/** mulberry32: a small, fast, seedable PRNG; the same seed gives the same corpus on every machine. */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Samples ranks 0..n-1 with P(r) ∝ 1/(r+1)^s, by binary search over the cumulative distribution. */
function zipfSampler(n: number, s: number, random: () => number): () => number {
  const cdf = new Float64Array(n);
  let sum = 0;
  for (let r = 0; r < n; r++) cdf[r] = sum += 1 / Math.pow(r + 1, s);
  return () => {
    const x = random() * sum;
    let lo = 0;
    let hi = n - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (cdf[mid] < x) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  };
}

export interface SyntheticCorpus {
  memories: { text: string; at: string; speaker?: string }[];
  queries: string[];
}

const SPEAKERS = ["Ana", "Ben", "Chen", "Dara", "Eli", "Fatima", "Goran", "Hana"];

/**
 * `vocabulary` is a list of words in frequency order (the embedder's, so that every word has a vector); its
 * first 30,000 alphabetic words, function words included as in real text, form the Zipfian vocabulary.
 */
export function syntheticCorpus(options: { memories: number; queries: number; seed: number; vocabulary: string[] }): SyntheticCorpus {
  const random = seededRandom(options.seed);
  const words = options.vocabulary.filter((w) => /^[a-z]+$/.test(w)).slice(0, 30_000);
  const pick = zipfSampler(words.length, 1.0, random);
  const sentence = () => {
    const length = 6 + Math.floor(random() * random() * 30); // 6–35 words, most near 13
    const out: string[] = [];
    for (let i = 0; i < length; i++) out.push(words[pick()]);
    out[0] = out[0][0].toUpperCase() + out[0].slice(1);
    return out.join(" ") + ".";
  };
  const start = Date.UTC(2025, 0, 1);
  const memories = Array.from({ length: options.memories }, (_, i) => {
    const sentences = 1 + Math.floor(random() * 3);
    const text = Array.from({ length: sentences }, sentence).join(" ");
    const at = new Date(start + i * 60_000 + Math.floor(random() * 30_000)).toISOString();
    return random() < 0.5 ? { text, at, speaker: SPEAKERS[Math.floor(random() * SPEAKERS.length)] } : { text, at };
  });
  const queries = Array.from({ length: options.queries }, () => {
    const source = memories[Math.floor(random() * memories.length)].text.replace(/\./g, "").toLowerCase().split(" ");
    const n = 2 + Math.floor(random() * 4);
    const q: string[] = [];
    for (let i = 0; i < n; i++) q.push(source[Math.floor(random() * source.length)]);
    q.push(words[pick()]);
    return q.join(" ");
  });
  return { memories, queries };
}
