/**
 * @module vectors/matrix
 * Keyed unit vectors in one contiguous Float32Array, searched exactly with usearch's SIMD kernel. Exact search
 * has recall 1.0 by construction and measured ~3 ms per query at 100,000 100-d vectors on this machine, within
 * the latency budget, with no build step and no second file to keep in step. The dense channel's index (chunk
 * vectors) and late interaction's vocabulary (word vectors) are both one of these: derived data, rebuilt from
 * the store's tables on first use.
 */
import { createRequire } from "node:module";
import type * as UsearchModule from "usearch";
import { dot } from "./math.js";

// usearch's ESM entry finds its native build by walking up from a path parsed out of a stack trace, which
// recurses forever when the caller has no file path (node -e, some bundlers); the CommonJS entry uses __dirname.
const { exactSearch, MetricKind } = createRequire(import.meta.url)("usearch") as typeof UsearchModule;

export interface Neighbour {
  key: number;
  similarity: number;
}

export class VectorMatrix {
  private data: Float32Array;
  private keys: Float64Array;
  private rowOf = new Map<number, number>();
  private size = 0;

  constructor(readonly dimensions: number, capacity = 1024) {
    this.data = new Float32Array(Math.max(1, capacity) * dimensions);
    this.keys = new Float64Array(Math.max(1, capacity));
  }

  get count(): number {
    return this.size;
  }

  /** Adds a vector given as a Float32Array or as its raw little-endian bytes (a stored blob, copied once). */
  add(key: number, vector: Float32Array | Uint8Array): void {
    if (this.size === this.keys.length) this.grow();
    if (vector instanceof Float32Array) this.data.set(vector, this.size * this.dimensions);
    else new Uint8Array(this.data.buffer, this.size * this.dimensions * 4, this.dimensions * 4).set(vector);
    this.keys[this.size] = key;
    this.rowOf.set(key, this.size);
    this.size++;
  }

  /** Removes a chunk by moving the last row into its place (order does not matter to exact search). */
  remove(key: number): void {
    const row = this.rowOf.get(key);
    if (row === undefined) return;
    const last = this.size - 1;
    if (row !== last) {
      const d = this.dimensions;
      this.data.copyWithin(row * d, last * d, (last + 1) * d);
      this.keys[row] = this.keys[last];
      this.rowOf.set(this.keys[row], row);
    }
    this.rowOf.delete(key);
    this.size--;
  }

  /** The `k` most similar vectors over the whole matrix, or over the rows from `fromRow` on (those added later). */
  nearest(query: Float32Array, k: number, fromRow = 0): Neighbour[] {
    const rowCount = this.size - fromRow;
    if (rowCount <= 0 || k <= 0) return [];
    const count = Math.min(k, rowCount);
    const d = this.dimensions;
    // usearch reads a typed array from the start of its buffer, whatever its offset (a view from row 2 is searched
    // as rows 0…): rows after the first are passed as a copy
    const rows = fromRow === 0 ? this.data.subarray(0, this.size * d) : this.data.slice(fromRow * d, this.size * d);
    const matches = exactSearch(rows, query, d, count, MetricKind.IP, 1);
    const found = matches.keys as BigUint64Array;
    const distances = matches.distances as Float32Array;
    const out: Neighbour[] = [];
    for (let i = 0; i < found.length; i++) {
      const row = Number(found[i]);
      if (row >= rowCount) continue; // usearch pads missing results with sentinel keys
      out.push({ key: this.keys[fromRow + row], similarity: 1 - distances[i] });
    }
    return out;
  }

  /**
   * Mean and standard deviation of the query's similarity to the stored vectors, over at most `maxRows` rows
   * spread evenly through the matrix (all of them in a small store). Most stored texts are unrelated to any one
   * query, so this is the query's own null distribution: what an unrelated text scores against it in this store.
   */
  similarityMoments(query: Float32Array, maxRows: number): { mean: number; sd: number; rows: number } {
    const d = this.dimensions;
    const step = Math.max(1, Math.ceil(this.size / Math.max(1, maxRows)));
    let n = 0;
    let sum = 0;
    let squares = 0;
    for (let row = 0; row < this.size; row += step) {
      const s = dot(this.data.subarray(row * d, (row + 1) * d), query);
      sum += s;
      squares += s * s;
      n++;
    }
    if (n === 0) return { mean: 0, sd: 0, rows: 0 };
    const mean = sum / n;
    return { mean, sd: Math.sqrt(Math.max(0, squares / n - mean * mean)), rows: n };
  }

  has(key: number): boolean {
    return this.rowOf.has(key);
  }

  /** The stored keys (a snapshot). */
  keyList(): number[] {
    return Array.from(this.keys.subarray(0, this.size));
  }

  /** A copy of one stored vector, or null. */
  vectorOf(key: number): Float32Array | null {
    const row = this.rowOf.get(key);
    return row === undefined ? null : this.data.slice(row * this.dimensions, (row + 1) * this.dimensions);
  }

  /** Every stored vector, in row order, for brute-force checks. */
  rows(): { keys: Float64Array; data: Float32Array } {
    return { keys: this.keys.subarray(0, this.size), data: this.data.subarray(0, this.size * this.dimensions) };
  }

  /** The `k` most similar among the given keys only (a filtered search scans just those rows). */
  nearestAmong(query: Float32Array, keys: Iterable<number>, k: number): Neighbour[] {
    const d = this.dimensions;
    const scored: Neighbour[] = [];
    for (const id of keys) {
      const row = this.rowOf.get(id);
      if (row === undefined) continue;
      scored.push({ key: id, similarity: dot(query, this.data.subarray(row * d, (row + 1) * d)) });
    }
    scored.sort((a, b) => b.similarity - a.similarity || a.key - b.key);
    return scored.slice(0, k);
  }

  private grow(): void {
    const data = new Float32Array(this.data.length * 2);
    data.set(this.data);
    this.data = data;
    const ids = new Float64Array(this.keys.length * 2);
    ids.set(this.keys);
    this.keys = ids;
  }
}
