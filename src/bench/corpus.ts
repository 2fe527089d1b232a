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

type Memory = SyntheticCorpus["memories"][number];

/** The generator behind both forms of the corpus: one memory at a time, from a seeded state that can be saved. */
class CorpusWriter {
  private state: number;
  private readonly random: () => number;
  readonly words: string[];
  readonly pick: () => number;

  constructor(seed: number, vocabulary: string[]) {
    // mulberry32 (as seededRandom), its state kept here so that a memory can be regenerated from where it began
    this.state = seed >>> 0;
    this.random = () => {
      this.state = (this.state + 0x6d2b79f5) >>> 0;
      let t = this.state;
      t = Math.imul(t ^ (t >>> 15), t | 1);
      t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
      return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
    };
    this.words = vocabulary.filter((w) => /^[a-z]+$/.test(w)).slice(0, 30_000);
    this.pick = zipfSampler(this.words.length, 1.0, this.random);
  }

  /** The generator's state: `at(state)` then `memory(i)` regenerates memory i exactly. */
  get saved(): number {
    return this.state;
  }

  at(state: number): void {
    this.state = state;
  }

  private sentence(): string {
    const random = this.random;
    const length = 6 + Math.floor(random() * random() * 30); // 6–35 words, most near 13
    const out: string[] = [];
    for (let i = 0; i < length; i++) out.push(this.words[this.pick()]);
    out[0] = out[0][0].toUpperCase() + out[0].slice(1);
    return out.join(" ") + ".";
  }

  memory(i: number): Memory {
    const random = this.random;
    const sentences = 1 + Math.floor(random() * 3);
    const text = Array.from({ length: sentences }, () => this.sentence()).join(" ");
    const at = new Date(Date.UTC(2025, 0, 1) + i * 60_000 + Math.floor(random() * 30_000)).toISOString();
    return random() < 0.5 ? { text, at, speaker: SPEAKERS[Math.floor(random() * SPEAKERS.length)] } : { text, at };
  }

  /** Queries drawn after the memories, from their texts (`textOf(i)`). */
  queries(count: number, memories: number, textOf: (i: number) => string): string[] {
    const random = this.random;
    return Array.from({ length: count }, () => {
      const source = textOf(Math.floor(random() * memories)).replace(/\./g, "").toLowerCase().split(" ");
      const n = 2 + Math.floor(random() * 4);
      const q: string[] = [];
      for (let i = 0; i < n; i++) q.push(source[Math.floor(random() * source.length)]);
      q.push(this.words[this.pick()]);
      return q.join(" ");
    });
  }
}

/**
 * `vocabulary` is a list of words in frequency order (the embedder's, so that every word has a vector); its
 * first 30,000 alphabetic words, function words included as in real text, form the Zipfian vocabulary.
 */
export function syntheticCorpus(options: { memories: number; queries: number; seed: number; vocabulary: string[] }): SyntheticCorpus {
  const w = new CorpusWriter(options.seed, options.vocabulary);
  const memories = Array.from({ length: options.memories }, (_, i) => w.memory(i));
  const queries = w.queries(options.queries, memories.length, (i) => memories[i].text);
  return { memories, queries };
}

export interface StreamedCorpus {
  memories: number;
  queries: string[];
  /** The memories in order, `size` at a time: the same ones `syntheticCorpus` holds, never all at once. */
  batches(size: number): Generator<Memory[]>;
}

/**
 * The corpus `syntheticCorpus` makes (same options, same memories and queries), without holding its memories:
 * they are generated a batch at a time, again, when read. The queries come from a first pass that keeps only the
 * generator's state at the start of each memory (4 bytes a memory) and regenerates the few the queries draw on.
 * At 1,000,000 memories the held corpus was ~460 MB of the bench's heap during ingest, which V8 let grow to 4×
 * its live size before collecting: the bench's peak RSS, not the engine's.
 */
export function streamedCorpus(options: { memories: number; queries: number; seed: number; vocabulary: string[] }): StreamedCorpus {
  const w = new CorpusWriter(options.seed, options.vocabulary);
  const start = w.saved;
  const states = new Uint32Array(options.memories);
  for (let i = 0; i < options.memories; i++) {
    states[i] = w.saved;
    w.memory(i);
  }
  const probe = new CorpusWriter(options.seed, options.vocabulary);
  const textOf = (i: number) => {
    probe.at(states[i]);
    return probe.memory(i).text;
  };
  const queries = w.queries(options.queries, options.memories, textOf);
  return {
    memories: options.memories,
    queries,
    *batches(size: number) {
      const reader = new CorpusWriter(options.seed, options.vocabulary);
      reader.at(start);
      for (let i = 0; i < options.memories; i += size) {
        const batch: Memory[] = [];
        for (let j = i; j < Math.min(options.memories, i + size); j++) batch.push(reader.memory(j));
        yield batch;
      }
    },
  };
}
