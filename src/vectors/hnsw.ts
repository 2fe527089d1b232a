/**
 * @module vectors/hnsw
 * An approximate nearest-neighbour graph (HNSW, usearch's implementation: the library the exact search already
 * uses, native, SIMD, able to save and reload its graph) over the same keyed unit vectors as a VectorMatrix. Exact
 * search reads every vector per query: ~3 ms at 100,000 chunks but ~50 ms at 1,000,000, the largest cost of a
 * query there. The graph answers in about a millisecond at any of these sizes; its candidates are re-scored
 * exactly from the matrix, so scores (and the dense channel's relevance floor) stay exact and only membership
 * is approximate. Vectors are held in half precision inside the graph: half the memory, and the exact re-scoring
 * takes away what the rounding costs.
 */
import { createRequire } from "node:module";
import { existsSync, rmSync } from "node:fs";
import type * as UsearchModule from "usearch";
import type { VectorMatrix } from "./matrix.js";

// the CommonJS entry, for the reason given in vectors/matrix.ts
const { Index, MetricKind, ScalarKind } = createRequire(import.meta.url)("usearch") as typeof UsearchModule;

/** Keys checked against their own vectors when a saved graph is loaded or a doctor looks at it. */
const SELF_CHECKS = 64;

export interface HnswOptions {
  /** Edges per node: more is better recall and a slower build. */
  connectivity: number;
  /** Candidates considered while inserting. */
  expansionAdd: number;
  /** Candidates considered while searching: the recall/latency dial. */
  expansionSearch: number;
  /** Threads for a bulk build. */
  threads: number;
}

export class HnswGraph {
  private constructor(private readonly index: InstanceType<typeof Index>, readonly dimensions: number) {}

  private static empty(dimensions: number, o: HnswOptions): InstanceType<typeof Index> {
    return new Index({
      dimensions,
      metric: MetricKind.IP,
      quantization: ScalarKind.F16,
      connectivity: o.connectivity,
      expansion_add: o.expansionAdd,
      expansion_search: o.expansionSearch,
      multi: false,
    });
  }

  /** Builds the graph over every row of the matrix, on `threads` threads. */
  static build(matrix: VectorMatrix, o: HnswOptions): HnswGraph {
    const index = HnswGraph.empty(matrix.dimensions, o);
    const { keys, data } = matrix.rows();
    if (keys.length) {
      index.add(BigUint64Array.from(keys, (k) => BigInt(k)), data, o.threads);
    }
    return new HnswGraph(index, matrix.dimensions);
  }

  /** The graph saved at `path` as it is, or null when there is no readable file (`describes` tells if it is current). */
  static open(path: string, dimensions: number, o: HnswOptions): HnswGraph | null {
    if (!existsSync(path)) return null;
    const index = HnswGraph.empty(dimensions, o);
    try {
      index.load(path);
    } catch {
      return null;
    }
    return new HnswGraph(index, dimensions);
  }

  /**
   * The graph saved at `path`, if it still describes the matrix; null when there is no file or it is stale (a
   * crash between a write and the next save, a store deleted and rebuilt at the same path): the caller rebuilds.
   */
  static load(path: string, matrix: VectorMatrix, o: HnswOptions): HnswGraph | null {
    const graph = HnswGraph.open(path, matrix.dimensions, o);
    return graph?.describes(matrix) ? graph : null;
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
      if (this.candidates(data.subarray(row * d, (row + 1) * d), 10).includes(keys[row])) found++;
    }
    // an approximate graph may miss a few of its own points among near duplicates; a stale one misses most
    return found >= checked * 0.9;
  }

  add(key: number, vector: Float32Array): void {
    this.index.add(BigInt(key), vector);
  }

  remove(key: number): void {
    this.index.remove(BigInt(key));
  }

  /** Keys of (about) the `k` nearest vectors, nearest first. */
  candidates(query: Float32Array, k: number): number[] {
    if (this.index.size() === 0) return [];
    const found = this.index.search(query, Math.min(k, this.index.size()), 1);
    return Array.from(found.keys as BigUint64Array, Number);
  }

  save(path: string): void {
    this.index.save(path);
  }

  static discard(path: string): void {
    rmSync(path, { force: true });
  }
}
