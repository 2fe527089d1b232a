/**
 * @module vectors/matrix
 * Keyed unit vectors in one contiguous Float32Array, searched exactly with usearch's SIMD kernel. Exact search
 * has recall 1.0 by construction and measured ~3 ms per query at 100,000 100-d vectors on this machine, within
 * the latency budget, with no build step and no second file to keep in step. The dense channel's index (chunk
 * vectors) and late interaction's vocabulary (word vectors) are both one of these: derived data, rebuilt from
 * the store's tables on first use.
 */
import { usearch } from "./usearch.js";

export interface Neighbour {
  key: number;
  similarity: number;
}

/**
 * From this many rows an unfiltered search scans an 8-bit copy of the matrix first and re-scores its best
 * `SHORTLIST × k` exactly. The float scan streams 400 bytes a row from memory (40 MB at 100,000 chunks, more than
 * the machine's cache, and twice that with two server processes); the 8-bit copy is a quarter of it. Below this,
 * searches stay exact and bit-for-bit what they were.
 */
export const QUANTIZED_FROM = 20_000;
/** How many candidates per wanted neighbour the 8-bit scan hands to exact re-scoring. */
const SHORTLIST = 4;
/** Head-room over the largest component seen when the 8-bit scale is set, so later rows rarely force a rebuild. */
const SCALE_MARGIN = 1.25;

interface SampleMoments {
  mu: Float64Array;
  /** E[x xᵀ] over the sample, upper triangle (row-major d × d) */
  second: Float64Array;
  rows: number;
  maxRows: number;
  /** the matrix's rows when the sample was read */
  size: number;
}

export class VectorMatrix {
  private data: Float32Array;
  private keys: Float64Array;
  private rowOf = new Map<number, number>();
  private size = 0;
  /** The 8-bit copy (row for row), built on the first large search and kept in step; null until then or when stale. */
  private codes: Int8Array | null = null;
  private codeScale = 0;
  /** The null sample's moments (see similarityMoments), and the rows added or removed since they were read. */
  private moments: SampleMoments | null = null;
  private changes = 0;

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
    if (this.codes && !this.encodeRow(this.size)) this.codes = null; // a larger component: a new scale next search
    this.size++;
    this.changes++;
  }

  /** Removes a chunk by moving the last row into its place (order does not matter to exact search). */
  remove(key: number): void {
    const row = this.rowOf.get(key);
    if (row === undefined) return;
    const last = this.size - 1;
    if (row !== last) {
      const d = this.dimensions;
      this.data.copyWithin(row * d, last * d, (last + 1) * d);
      this.codes?.copyWithin(row * d, last * d, (last + 1) * d);
      this.keys[row] = this.keys[last];
      this.rowOf.set(this.keys[row], row);
    }
    this.rowOf.delete(key);
    this.size--;
    this.changes++;
  }

  /** The `k` most similar vectors over the whole matrix, or over the rows from `fromRow` on (those added later). */
  nearest(query: Float32Array, k: number, fromRow = 0): Neighbour[] {
    const rowCount = this.size - fromRow;
    if (rowCount <= 0 || k <= 0) return [];
    if (fromRow === 0 && this.size >= QUANTIZED_FROM && SHORTLIST * k < this.size) return this.nearestQuantized(query, k);
    const count = Math.min(k, rowCount);
    const d = this.dimensions;
    // usearch reads a typed array from the start of its buffer, whatever its offset (a view from row 2 is searched
    // as rows 0…): rows after the first are passed as a copy
    const rows = fromRow === 0 ? this.data.subarray(0, this.size * d) : this.data.slice(fromRow * d, this.size * d);
    const { exactSearch, MetricKind } = usearch();
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
   *
   * Over a sample, both moments come from the sample's mean vector μ and second-moment matrix M, kept between
   * queries: mean = q·μ and E[s²] = qᵀMq, d² operations a query instead of a strided pass over `maxRows` rows
   * (20× fewer at 100 dimensions, and no cache miss per row). The sample is re-read once the matrix has changed
   * by more than 1/64 of its rows since (a null distribution moves slowly; a row or two never shifts it).
   */
  similarityMoments(query: Float32Array, maxRows: number): { mean: number; sd: number; rows: number } {
    if (this.size <= maxRows) return this.directMoments(query);
    if (!this.moments || this.changes > this.moments.size / 64 || this.moments.maxRows !== maxRows) this.moments = this.sampleMoments(maxRows);
    const { mu, second, rows } = this.moments;
    const d = this.dimensions;
    let mean = 0;
    let squares = 0;
    for (let i = 0; i < d; i++) {
      mean += query[i] * mu[i];
      // M is symmetric: its upper triangle, off-diagonal terms twice
      let row = second[i * d + i] * query[i];
      for (let j = i + 1; j < d; j++) row += 2 * second[i * d + j] * query[j];
      squares += query[i] * row;
    }
    return { mean, sd: Math.sqrt(Math.max(0, squares - mean * mean)), rows };
  }

  /** The moments by one pass over every row (a store of at most the sample's size). */
  private directMoments(query: Float32Array): { mean: number; sd: number; rows: number } {
    let sum = 0;
    let squares = 0;
    for (let row = 0; row < this.size; row++) {
      const s = this.dotRow(row, query);
      sum += s;
      squares += s * s;
    }
    if (this.size === 0) return { mean: 0, sd: 0, rows: 0 };
    const mean = sum / this.size;
    return { mean, sd: Math.sqrt(Math.max(0, squares / this.size - mean * mean)), rows: this.size };
  }

  /** μ and the upper triangle of M over every `step`-th row, so that at most `maxRows` rows are read. */
  private sampleMoments(maxRows: number): SampleMoments {
    const d = this.dimensions;
    const step = Math.max(1, Math.ceil(this.size / Math.max(1, maxRows)));
    const mu = new Float64Array(d);
    const second = new Float64Array(d * d);
    let n = 0;
    for (let row = 0; row < this.size; row += step, n++) {
      const at = row * d;
      for (let i = 0; i < d; i++) {
        const x = this.data[at + i];
        mu[i] += x;
        for (let j = i; j < d; j++) second[i * d + j] += x * this.data[at + j];
      }
    }
    for (let i = 0; i < d; i++) mu[i] /= n;
    for (let i = 0; i < d * d; i++) second[i] /= n;
    this.changes = 0;
    return { mu, second, rows: n, maxRows, size: this.size };
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
    const scored: Neighbour[] = [];
    for (const id of keys) {
      const row = this.rowOf.get(id);
      if (row === undefined) continue;
      scored.push({ key: id, similarity: this.dotRow(row, query) });
    }
    scored.sort((a, b) => b.similarity - a.similarity || a.key - b.key);
    return scored.slice(0, k);
  }

  /**
   * The 8-bit scan, then the shortlist re-scored exactly (in double precision) and cut to k: highest similarity
   * first, ties by row. Each row is coded with one scale for the whole matrix, so 8-bit inner products order the
   * rows as the float ones do up to rounding; the shortlist of 4 × k absorbs that rounding (recall of the exact
   * top k is measured in test/vector-matrix.test.ts and docs/benchmark-notes.md).
   */
  private nearestQuantized(query: Float32Array, k: number): Neighbour[] {
    const d = this.dimensions;
    if (!this.codes) this.encodeAll();
    let top = 0;
    for (let j = 0; j < d; j++) top = Math.max(top, Math.abs(query[j]));
    const q = new Int8Array(d);
    if (top > 0) for (let j = 0; j < d; j++) q[j] = Math.round((query[j] / top) * 127);
    const { exactSearch, MetricKind } = usearch();
    const matches = exactSearch(this.codes!.subarray(0, this.size * d), q, d, SHORTLIST * k, MetricKind.IP, 1);
    const found = matches.keys as BigUint64Array;
    const scored: { row: number; similarity: number }[] = [];
    for (let i = 0; i < found.length; i++) {
      const row = Number(found[i]);
      if (row >= this.size) continue;
      scored.push({ row, similarity: this.dotRow(row, query) });
    }
    scored.sort((a, b) => b.similarity - a.similarity || a.row - b.row);
    return scored.slice(0, k).map(({ row, similarity }) => ({ key: this.keys[row], similarity }));
  }

  /** A row's inner product with `query`, read in place (a view per row would be garbage on every search). */
  private dotRow(row: number, query: Float32Array): number {
    const d = this.dimensions;
    const data = this.data;
    let s = 0;
    for (let j = 0, at = row * d; j < d; j++, at++) s += query[j] * data[at];
    return s;
  }

  /** Codes every row with a scale set from the largest component now stored (with head-room). */
  private encodeAll(): void {
    const n = this.size * this.dimensions;
    let top = 0;
    for (let i = 0; i < n; i++) top = Math.max(top, Math.abs(this.data[i]));
    this.codeScale = top > 0 ? 127 / (top * SCALE_MARGIN) : 1;
    this.codes = new Int8Array(this.keys.length * this.dimensions);
    for (let row = 0; row < this.size; row++) this.encodeRow(row);
  }

  /** Codes one row; false when a component does not fit the scale (the copy must then be rebuilt). */
  private encodeRow(row: number): boolean {
    const d = this.dimensions;
    const codes = this.codes!;
    for (let j = row * d; j < (row + 1) * d; j++) {
      const c = Math.round(this.data[j] * this.codeScale);
      if (c > 127 || c < -127) return false;
      codes[j] = c;
    }
    return true;
  }

  private grow(): void {
    const data = new Float32Array(this.data.length * 2);
    data.set(this.data);
    this.data = data;
    if (this.codes) {
      const codes = new Int8Array(this.codes.length * 2);
      codes.set(this.codes);
      this.codes = codes;
    }
    const ids = new Float64Array(this.keys.length * 2);
    ids.set(this.keys);
    this.keys = ids;
  }
}
