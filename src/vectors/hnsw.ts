/**
 * @module vectors/hnsw
 * An approximate nearest-neighbour graph (HNSW, usearch's implementation: the library the exact search already
 * uses, native, SIMD, able to save and reload its graph) over the same keyed unit vectors as a VectorMatrix. Exact
 * search reads every vector per query: ~3 ms at 100,000 chunks but ~50 ms at 1,000,000, the largest cost of a
 * query there. The graph answers in ~3 ms at 1,000,000 (1,280 candidates, one thread); its candidates are
 * re-scored exactly from the matrix, so scores (and the dense channel's relevance floor) stay exact and only
 * membership is approximate.
 *
 * The graph holds the vectors minus their mean, by cosine. Sentence vectors made from word vectors share a large
 * common direction (two random texts have cosine ≈ 0.8), so in the raw space everything is everyone's neighbour
 * and a graph walk cannot tell where to go: on the bench corpus at 200,000 chunks, recall@10 was 0.58 raw and 0.94
 * centred (same settings; docs/BENCHMARKS.md). Centring keeps the order that matters here only approximately
 * (q·v = q·μ + q·(v−μ), but the graph compares directions of v−μ). A query sent with only part of the mean taken
 * off (`queryCentring`, 0.7) finds more of the exact top 10 than one centred like the graph: at 1,000,000 chunks,
 * the dense channel's query vectors, 0.977 against 0.962 with 1,024 candidates and 0.984 against 0.974 with 1,536
 * (0.5 and 1.25 are worse; bench/ann-sweep, docs/BENCHMARKS.md); re-scoring more than 100 candidates exactly then
 * adds nothing. The graph's copies are 8-bit (a quarter of the memory of the matrix's floats): the exact
 * re-scoring takes away what the rounding costs (recall 0.983 at 8 bits against 0.981 at 16 at 200,000 chunks,
 * same settings). A saved graph carries its build settings and is rebuilt, not misread, when they are not the ones
 * asked for.
 *
 * The saved file is derived state that must never crash the process: usearch reads a file unchecked, and a truncated
 * or altered one aborts Node in native code. So the file ends with a record (settings, centre, the graph's length,
 * its sha256 and its vector count; layout below), is written to a temporary file in the same folder, synced and
 * renamed over the old one (two processes saving at once leave one complete file, whichever renamed last), and is
 * handed to usearch only when its length and checksum match. A file that does not verify is rebuilt from the table.
 */
import { createHash, randomBytes } from "node:crypto";
import { closeSync, fstatSync, fsyncSync, lstatSync, openSync, readdirSync, readSync, renameSync, rmSync, writeSync } from "node:fs";
import { basename, dirname, join } from "node:path";
import type { BatchMatches, Index } from "usearch";
import type { VectorMatrix } from "./matrix.js";
import { usearch } from "./usearch.js";
import { graphPathKind, MAGIC, readGraphFile, scrubFreedVectors, setAside, TAIL, type Rejection, type SavedRecord } from "./graph-file.js";

/** Keys checked against their own vectors when a saved graph is loaded or a doctor looks at it. */
const SELF_CHECKS = 64;

export interface HnswOptions {
  /** Edges per node: more is better recall and a slower build. */
  connectivity: number;
  /** Candidates considered while inserting. */
  expansionAdd: number;
  /** Candidates considered while searching: the recall/latency dial. */
  expansionSearch: number;
  /**
   * The share of the mean taken off a query before it is sent to the graph (1: centred like the graph's vectors).
   * Search only: a saved graph serves any value.
   */
  queryCentring: number;
  /** Threads for a bulk build and for a batch of searches. */
  threads: number;
}

/** Rows centred and added per call of a bulk build: bounds the temporary copy (20 MB at 100 dimensions). */
const BUILD_BATCH = 50_000;

/**
 * Appended to usearch's bytes (which it reads without looking past them): how the graph was built, its centre, and
 * what verifies the bytes before usearch sees them (the layout and its checks: vectors/graph-file.ts). A graph built
 * otherwise (another quantization or connectivity, or an earlier layout: the centre in `<path>.center`, or settings
 * in `<path>.meta`) is not loaded but rebuilt: usearch loads a file with the settings the file was made with,
 * whatever the index asked.
 */
type SavedGraph = Omit<SavedRecord, "bytes" | "sha256" | "count" | "maxKey">;

/**
 * What opening a saved graph found: the graph, or why there is none to use (the caller rebuilds); `rejected` when
 * the file is damaged or not a file at all (the caller sets it aside).
 */
export type Opened = { graph: HnswGraph } | { graph: null; why: "absent" | "other settings" | string; rejected?: Rejection };

/** The sha256 of a file's first `bytes` bytes, read in slices (a graph at 1,000,000 chunks is ~200 MB). */
function sha256Of(fd: number, bytes: number): string {
  const hash = createHash("sha256");
  const slice = Buffer.allocUnsafe(1 << 20);
  for (let at = 0; at < bytes; ) {
    const n = readSync(fd, slice, 0, Math.min(slice.length, bytes - at), at);
    if (n === 0) break;
    hash.update(slice.subarray(0, n));
    at += n;
  }
  return hash.digest("hex");
}

/**
 * The most keys a catch-up changes before a rebuild is the better deal (a bulk build runs on every thread; a
 * catch-up adds one vector at a time).
 */
const CATCH_UP_SHARE = 0.25;

export class HnswGraph {
  private readonly scratch: Float32Array;

  private constructor(
    private readonly index: Index,
    readonly dimensions: number,
    /** The mean the graph's vectors were centred on; kept with the graph, as later additions must use it too. */
    private readonly center: Float32Array,
    /** The settings it was built with (saved with it) and is searched with. */
    private readonly options: HnswOptions,
    /** The largest key ever added (removals leave it): keys the graph may hold are at most this. */
    private maxKey: number | null,
  ) {
    this.scratch = new Float32Array(dimensions);
  }

  private static empty(dimensions: number, o: HnswOptions): Index {
    const { Index, MetricKind, ScalarKind } = usearch();
    return new Index({
      dimensions,
      metric: MetricKind.Cos,
      quantization: ScalarKind.I8,
      connectivity: o.connectivity,
      expansion_add: o.expansionAdd,
      expansion_search: o.expansionSearch,
      multi: false,
    });
  }

  /** Builds the graph over every row of the matrix, on `threads` threads. */
  static build(matrix: VectorMatrix, o: HnswOptions): HnswGraph {
    const d = matrix.dimensions;
    const index = HnswGraph.empty(d, o);
    const { keys, data } = matrix.rows();
    const center = new Float32Array(d);
    for (let row = 0; row < keys.length; row++) for (let i = 0; i < d; i++) center[i] += data[row * d + i];
    if (keys.length) for (let i = 0; i < d; i++) center[i] /= keys.length;
    for (let start = 0; start < keys.length; start += BUILD_BATCH) {
      const end = Math.min(keys.length, start + BUILD_BATCH);
      const batch = data.slice(start * d, end * d);
      for (let j = 0; j < batch.length; j++) batch[j] -= center[j % d];
      index.add(BigUint64Array.from(keys.subarray(start, end), (k) => BigInt(k)), batch, o.threads);
    }
    let maxKey = 0;
    for (const k of keys) if (k > maxKey) maxKey = k;
    return new HnswGraph(index, d, center, o, maxKey);
  }

  /** `v` minus `share` of the centre, in a buffer reused by every call (usearch copies what it is given). */
  private centred(v: Float32Array, share = 1): Float32Array {
    for (let i = 0; i < this.dimensions; i++) this.scratch[i] = v[i] - share * this.center[i];
    return this.scratch;
  }

  private static saved(o: HnswOptions, dimensions: number, center: Float32Array): SavedGraph {
    return { format: 3, dimensions, metric: "cos-centred", quantization: "i8", connectivity: o.connectivity, expansionAdd: o.expansionAdd, center: Array.from(center) };
  }

  /**
   * The graph saved at `path` as it is, once its checksum and its structure verify (vectors/graph-file.ts), or why
   * not: no file, built with other settings, or damaged or not a file (`rejected`; `describes` then tells if a
   * graph that loaded is current). `chunks`, the table's count, bounds what the file may claim to hold.
   */
  static open(path: string, dimensions: number, o: HnswOptions, chunks: number): Opened {
    const { center: _, ...wanted } = HnswGraph.saved(o, dimensions, new Float32Array(0));
    const settingsMatch = (r: SavedRecord) => {
      const { center, bytes: _b, sha256: _s, count: _c, maxKey: _m, ...settings } = r;
      return JSON.stringify(settings) === JSON.stringify(wanted) && center.length === dimensions;
    };
    // usearch loads the file that was checked, by a name that still names it (see readGraphFile)
    const load = (checked: string, { center, count, maxKey }: SavedRecord): Opened => {
      const index = HnswGraph.empty(dimensions, o);
      try {
        index.load(checked);
      } catch (err) {
        const why = `usearch refused it (${(err as Error).message})`;
        return { graph: null, why, rejected: { kind: "structure", why } };
      }
      if (index.size() !== count) {
        const why = `${index.size()} vectors where ${count} were saved`;
        return { graph: null, why, rejected: { kind: "structure", why } };
      }
      return { graph: new HnswGraph(index, dimensions, Float32Array.from(center), o, typeof maxKey === "number" ? maxKey : null) };
    };
    let opened: ReturnType<typeof readGraphFile<Opened>>;
    try {
      opened = readGraphFile(path, settingsMatch, { connectivity: o.connectivity, chunks }, load);
    } catch (err) {
      return { graph: null, why: `unreadable (${(err as Error).message})` };
    }
    if (opened === "absent" || opened === "other settings") return { graph: null, why: opened };
    if ("kind" in opened) return { graph: null, why: opened.why, rejected: opened };
    return opened;
  }

  /**
   * The graph saved at `path`, brought up to date with the matrix when only a few chunks changed since it was saved
   * (another process wrote without saving it: `changed`, then, so the caller saves it again); null when there is no
   * file or it cannot be caught up (a store deleted and rebuilt at the same path, another store's file): the caller
   * rebuilds, and sets aside a file that was `rejected` (damaged, or not a file).
   */
  static load(path: string, matrix: VectorMatrix, o: HnswOptions): { graph: HnswGraph; changed: number } | { graph: null; rejected?: Rejection } {
    const opened = HnswGraph.open(path, matrix.dimensions, o, matrix.count);
    if (!opened.graph) return { graph: null, rejected: opened.rejected };
    const { graph } = opened;
    const changed = graph.catchUp(matrix);
    return changed >= 0 && graph.describes(matrix) ? { graph, changed } : { graph: null };
  }

  /**
   * Brings the graph to the matrix's keys, as the writes it missed would have: keys the table lost are removed,
   * keys it gained are added, and ids the table reused are re-added with their new vector. Returns how many keys
   * changed, or -1 when that would be more than a quarter of them (a rebuild is quicker) or cannot be known (an
   * older file that does not say its largest key).
   *
   * Reuse: SQLite gives a new row the largest id + 1, so an id comes back only when every id above it was deleted;
   * the reused ids are therefore the top of the ids both hold. Walking them from the top, a key whose vector finds
   * itself was never replaced, and neither was any key below it.
   */
  catchUp(matrix: VectorMatrix): number {
    const limit = Math.max(1, Math.floor(matrix.count * CATCH_UP_SHARE));
    const keys = matrix.keyList();
    const held = keys.length ? (this.index.contains(BigUint64Array.from(keys, (k) => BigInt(k))) as boolean[]) : [];
    const added = keys.filter((_, i) => !held[i]);
    const kept = keys.filter((_, i) => held[i]);
    const goneCount = this.index.size() - kept.length;
    if (added.length + goneCount > limit || (goneCount > 0 && this.maxKey === null)) return -1;
    if (goneCount > 0) {
      const holes: bigint[] = [];
      for (let k = 0; k <= this.maxKey!; k++) if (!matrix.has(k)) holes.push(BigInt(k));
      const present = this.index.contains(BigUint64Array.from(holes)) as boolean[];
      const gone = holes.filter((_, i) => present[i]);
      if (gone.length > 0) this.index.remove(BigUint64Array.from(gone));
    }
    let replaced = 0;
    for (const key of kept.sort((a, b) => b - a)) {
      const vector = matrix.vectorOf(key)!;
      if (this.search(vector, 10, 1).includes(key)) break;
      if (++replaced + added.length + goneCount > limit) return -1;
      this.remove(key);
      this.add(key, vector);
    }
    for (const key of added) this.add(key, matrix.vectorOf(key)!);
    // it now holds exactly the matrix's keys: an older file that did not say its largest key knows it from here on
    for (const key of keys) if (this.maxKey === null || key > this.maxKey) this.maxKey = key;
    return added.length + goneCount + replaced;
  }

  get size(): number {
    return this.index.size();
  }

  /**
   * True when the graph holds the matrix's keys and nothing else, and a sample of them finds itself: chunk ids
   * can be reused after a delete, so the same keys could stand for other vectors; a key whose own vector does
   * not lead back to it shows that.
   */
  describes(matrix: VectorMatrix, sample = SELF_CHECKS): boolean {
    const { keys, data } = matrix.rows();
    if (this.index.size() !== keys.length) return false;
    if (keys.length === 0) return true;
    const present = this.index.contains(BigUint64Array.from(keys, (k) => BigInt(k))) as boolean[];
    if (!present.every(Boolean)) return false;
    const d = this.dimensions;
    const step = Math.max(1, Math.floor(keys.length / sample));
    let checked = 0;
    let found = 0;
    for (let row = 0; row < keys.length && checked < sample; row += step, checked++) {
      // the stored vector itself, centred as stored: it is its own nearest whatever the queries' centring
      if (this.search(data.subarray(row * d, (row + 1) * d), 10, 1).includes(keys[row])) found++;
    }
    // an approximate graph may miss a few of its own points among near duplicates; a stale one misses most
    return found >= checked * 0.9;
  }

  add(key: number, vector: Float32Array): void {
    this.index.add(BigInt(key), this.centred(vector));
    if (this.maxKey !== null && key > this.maxKey) this.maxKey = key;
  }

  remove(key: number): void {
    this.index.remove(BigInt(key));
  }

  /** Keys of (about) the `k` nearest vectors, nearest first: the candidates the caller re-scores exactly. */
  candidates(query: Float32Array, k: number): number[] {
    return this.search(query, k, this.options.queryCentring);
  }

  /**
   * Candidates for many queries in one call, searched on the build's threads: a batch of new memories looking for
   * what they revise keeps both cores busy (one query walks the graph on one thread, whatever `threads` says).
   */
  candidatesMany(queries: Float32Array[], k: number): number[][] {
    const size = this.index.size();
    if (size === 0 || queries.length === 0) return queries.map(() => []);
    if (queries.length === 1) return [this.candidates(queries[0], k)];
    const d = this.dimensions;
    const wanted = Math.min(k, size);
    const batch = new Float32Array(queries.length * d);
    for (const [i, query] of queries.entries()) batch.set(this.centred(query, this.options.queryCentring), i * d);
    const found = this.index.search(batch, wanted, this.options.threads) as BatchMatches;
    return queries.map((_, i) => Array.from(found.keys.subarray(i * wanted, i * wanted + Number(found.counts[i])), Number));
  }

  private search(query: Float32Array, k: number, share: number): number[] {
    if (this.index.size() === 0) return [];
    const found = this.index.search(this.centred(query, share), Math.min(k, this.index.size()), 1);
    return Array.from(found.keys as BigUint64Array, Number);
  }

  /**
   * Saves the graph with its record, atomically: written and synced under a name of its own in the same folder, then
   * renamed over `path`, so a reader or a concurrent writer only ever finds a whole file.
   */
  save(path: string): void {
    const temporary = `${path}.${process.pid}-${randomBytes(4).toString("hex")}.tmp`;
    try {
      this.index.save(temporary);
      const fd = openSync(temporary, "r+");
      try {
        const bytes = fstatSync(fd).size;
        // removed vectors are kept by usearch in their freed slots: none of a forgotten memory's is written
        scrubFreedVectors(fd, bytes);
        const record: SavedRecord = { ...HnswGraph.saved(this.options, this.dimensions, this.center), bytes, sha256: sha256Of(fd, bytes), count: this.index.size(), ...(this.maxKey !== null ? { maxKey: this.maxKey } : {}) };
        const json = Buffer.from(JSON.stringify(record));
        const length = Buffer.alloc(4);
        length.writeUInt32LE(json.length);
        writeSync(fd, Buffer.concat([json, length, MAGIC]), 0, json.length + TAIL, bytes);
        fsyncSync(fd);
      } finally {
        closeSync(fd);
      }
      renameSync(temporary, path);
    } catch (err) {
      rmSync(temporary, { force: true });
      throw err;
    }
    syncFolder(dirname(path));
    removeEarlierLayout(path);
  }

  /** Deletes the saved graph; what is not a file there (a directory, a FIFO) is set aside instead, never opened. */
  static discard(path: string): void {
    const kind = graphPathKind(path);
    if (typeof kind === "object") setAside(path, kind.kind);
    else rmSync(path, { force: true });
    removeEarlierLayout(path);
  }

  /**
   * Deletes the files set aside beside the graph (they hold vectors of memories that may since have been forgotten);
   * a directory set aside is left to its owner. Returns the names deleted.
   */
  static discardSetAside(path: string): string[] {
    const folder = dirname(path);
    const prefix = `${basename(path)}.invalid-`;
    const gone: string[] = [];
    for (const name of readdirSync(folder)) {
      if (!name.startsWith(prefix) || lstatSync(join(folder, name), { throwIfNoEntry: false })?.isDirectory() !== false) continue;
      rmSync(join(folder, name), { force: true });
      gone.push(name);
    }
    return gone;
  }
}

/**
 * Deletes the earlier layouts' files beside the graph (`<path>.meta`, `<path>.center`) when they are files. Something
 * else under those names (a directory) is not Cascade's to delete: removing it threw EISDIR, which failed every save
 * after its rename and made `forget --purge` answer INTERNAL on a store it had purged.
 */
function removeEarlierLayout(path: string): void {
  for (const name of [`${path}.meta`, `${path}.center`]) if (lstatSync(name, { throwIfNoEntry: false })?.isDirectory() === false) rmSync(name, { force: true });
}

/** Makes a rename in `folder` durable (a crash right after it cannot bring back the old file); best effort. */
function syncFolder(folder: string): void {
  try {
    const fd = openSync(folder, "r");
    try {
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
  } catch {
    // not every platform can open or sync a folder; the rename itself is still atomic
  }
}
