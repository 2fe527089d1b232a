/**
 * @module surfaces/heap
 * How far V8 lets the heap grow between full collections, in a process the engine owns (`cascade serve`,
 * `cascade bench`). V8 sets the next collection at up to 4× the heap that survived the last one when the machine
 * has memory to spare (its heap limit ≥ 2 GB, here 4 GB on 24 GiB), so garbage promoted by searches piles up
 * unseen: at 300,000 chunks the bench's heap went from 77 MB live after the graph build to 312 MB before the next
 * full collection, on top of the native memory (the dense matrix, the HNSW graph, SQLite's cache) that is most of a
 * large store's RSS (~1.1 GB at 1,000,000 chunks). A fixed growth factor (`--heap-growing-percent`, read by V8 at
 * every collection) bounds the heap at (1 + percent/100)× what is live. The cost is more full collections; a search's garbage is mostly young, so they
 * stay rare while queries run: at 1,000,000 chunks one full collection (6 ms) in the bench's 1,400 timed queries
 * (docs/benchmark-notes.md, "A million chunks").
 *
 * A factor the user gave node on its command line or in NODE_OPTIONS is left alone.
 */
import v8 from "node:v8";

/** Growth between full collections for the processes the engine owns: 1.5× what survived (V8: up to 4×). */
export const DEFAULT_HEAP_GROWTH_PERCENT = 50;

export interface HeapGrowth {
  /** The percent set, or null when V8 keeps its own (asked for 0, or the user set the flag). */
  percent: number | null;
  reason: "set" | "v8 default asked" | "set by the user";
}

/** Node's own flags for this process: its command line and NODE_OPTIONS. */
export function nodeFlags(): string[] {
  return [...process.execArgv, ...(process.env.NODE_OPTIONS ?? "").split(/\s+/).filter(Boolean)];
}

/**
 * Sets V8's heap growth factor to 1 + percent/100 for the rest of the process (0: V8 decides, as without it).
 * `setFlags` and `flags` are injectable for tests.
 */
export function boundHeapGrowth(percent: number, flags: string[] = nodeFlags(), setFlags: (f: string) => void = v8.setFlagsFromString): HeapGrowth {
  if (!Number.isInteger(percent) || percent < 0) throw new RangeError(`heap growth: a whole percent ≥ 0 expected, got ${percent}`);
  if (flags.some((f) => /^--heap[-_]growing[-_]percent(=|$)/.test(f))) return { percent: null, reason: "set by the user" };
  if (percent === 0) return { percent: null, reason: "v8 default asked" };
  setFlags(`--heap-growing-percent=${percent}`);
  return { percent, reason: "set" };
}
