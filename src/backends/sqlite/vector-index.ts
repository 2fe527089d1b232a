/**
 * @module backends/sqlite/vector-index
 * The SQLite store's dense index: an in-memory VectorMatrix derived from the chunk vectors in the table (not
 * SQL state). Loaded on first use, reloaded when another connection has committed (PRAGMA data_version), and
 * kept in step with this connection's own writes after they commit.
 */
import type Database from "better-sqlite3";
import type { Ranked } from "../../model/types.js";
import { VectorMatrix, type Neighbour } from "../../vectors/matrix.js";

/** Rows sampled for a query's similarity distribution: enough for a stable mean and sd, ~0.2 ms a query. */
const NULL_SAMPLE_ROWS = 2048;

export class VectorIndex {
  private matrix: VectorMatrix | null = null;
  /** PRAGMA data_version when the matrix was loaded: it changes when another connection commits. */
  private matrixVersion = -1;

  constructor(
    private readonly dataVersion: () => number,
    private readonly rows: () => Iterable<[number, Buffer]>,
    private readonly capacity: () => number,
  ) {}

  /** The matrix, loaded from the table when absent or stale. */
  load(dimensions: number): VectorMatrix {
    const version = this.dataVersion();
    if (this.matrix && this.matrixVersion === version) return this.matrix;
    // sized once (no doubling while loading); blobs are copied straight into the matrix, never one array each
    const matrix = new VectorMatrix(dimensions, this.capacity() + 1024);
    for (const row of this.rows()) matrix.add(row[0], row[1]);
    this.matrix = matrix;
    this.matrixVersion = version;
    return matrix;
  }

  /** Adds committed chunks to a loaded matrix (an unloaded one reads them from the table later). */
  add(chunks: { chunkId: number; vector: Float32Array }[]): void {
    if (this.matrix) for (const a of chunks) this.matrix.add(a.chunkId, a.vector);
  }

  forget(chunkIds: number[]): void {
    if (this.matrix) for (const c of chunkIds) this.matrix.remove(c);
  }

  /** Drops the matrix; it is reloaded from the table on next use. */
  invalidate(): void {
    this.matrix = null;
  }

  /** The query's similarity distribution over the stored chunks (the dense channel's relevance floor). */
  similarityNull(vector: Float32Array): { mean: number; sd: number; rows: number } {
    return this.load(vector.length).similarityMoments(vector, NULL_SAMPLE_ROWS);
  }

  /** The nearest chunks to `vector`, among `allowed` when given; owners name each chunk's memory. */
  nearest(vector: Float32Array, depth: number, allowed: number[] | null, owners: (ids: number[]) => Map<number, string>): Ranked[] {
    const matrix = this.load(vector.length);
    const neighbours: Neighbour[] = allowed === null ? matrix.nearest(vector, depth) : matrix.nearestAmong(vector, allowed, depth);
    const names = owners(neighbours.map((n) => n.key));
    // a chunk another process deleted since the matrix was read (a summary rewritten, a memory forgotten) has no owner
    return neighbours.filter((n) => names.has(n.key)).map((n) => ({ chunkId: n.key, memoryId: names.get(n.key)!, score: n.similarity }));
  }
}
