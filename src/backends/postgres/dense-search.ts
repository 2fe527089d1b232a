/**
 * @module backends/postgres/dense-search
 * The PostgreSQL store's dense (vector) channel: which of three ways a nearest-chunks search takes (the
 * namespace's HNSW index, the exact pgvector scan, or vectors read into this process where the server has no
 * pgvector), and what this process keeps derived from the vectors (the index's build, the null sample, the
 * matrix). Apart from the store (store.ts) because that state is its own, and is forgotten as one when a
 * re-embedding switches every vector over.
 */
import type { Ranked, SearchFilter } from "../../model/types.js";
import type { EmbedderStamp } from "../../ports/store.js";
import type { Database } from "./connection.js";
import { defaultApproximateSearch, ensureHnswIndex, isLightFilter, nearestByGraph, type ApproximateSearch } from "./hnsw-sql.js";
import { counts } from "./index-sql.js";
import { MatrixVectors } from "./vector-matrix.js";
import * as vectors from "./vector-sql.js";

/** Dense search over one namespace of a database. */
export class DenseSearch {
  /** The HNSW settings, or null for exact search only; and the index's build, once this store needed it. */
  private readonly approximate: ApproximateSearch | null;
  private graphReady: Promise<boolean> | undefined;
  /** The chunks the dense channel's similarity distribution is sampled from, while the namespace is unchanged (vector-sql.ts). */
  private readonly nullSample: { sample: vectors.NullSample | null } = { sample: null };
  /** Dense search in this process, on a server without pgvector (vector-matrix.ts); null where pgvector searches. */
  private readonly matrix: MatrixVectors | null;

  constructor(
    private readonly db: Database,
    private readonly ns: string,
    approximate: Partial<ApproximateSearch> | false | undefined,
    pgvector: boolean,
    /** The store's embedder stamp (its vector size), read when a search or settle needs it. */
    private readonly embedderStamp: () => Promise<EmbedderStamp | null>,
  ) {
    this.approximate = approximate === false || !pgvector ? null : { ...defaultApproximateSearch, ...approximate };
    this.matrix = pgvector ? null : new MatrixVectors(db, ns);
  }

  async nearestChunks(vector: Float32Array, depth: number, filter: SearchFilter): Promise<Ranked[]> {
    if (this.matrix) return this.matrix.nearest(vector, depth, filter);
    const graph = await this.graphDimensions(filter);
    if (graph !== null) return nearestByGraph(this.db, this.ns, graph, vector, depth, filter, this.approximate!.efSearch);
    return vectors.nearestChunks(this.db, this.ns, vector, depth, filter);
  }

  /**
   * The vector size of the namespace's HNSW index when this search should walk it (a light filter over a
   * namespace above the threshold, pgvector 0.8 or later), building the index the first time; null for the exact scan.
   */
  async graphDimensions(filter: SearchFilter): Promise<number | null> {
    if (!this.approximate || !isLightFilter(filter)) return null;
    if ((await counts(this.db, this.ns)).chunk_count < this.approximate.above) return null;
    const stamp = await this.embedderStamp();
    if (!stamp) return null;
    this.graphReady ??= ensureHnswIndex(this.db, this.ns, stamp.dimensions, this.approximate).catch((err) => {
      this.graphReady = undefined; // tried again by the next search
      throw err;
    });
    return (await this.graphReady) ? stamp.dimensions : null;
  }

  async similarityNull(vector: Float32Array): Promise<{ mean: number; sd: number; rows: number }> {
    if (this.matrix) return this.matrix.similarityNull(vector);
    return vectors.similarityNull(this.db, this.ns, vector, this.nullSample);
  }

  /** Every vector changed: what this process derived from them is read again (the HNSW index is per dimension). */
  reset(): void {
    this.graphReady = undefined;
    this.nullSample.sample = null;
    this.matrix?.reset();
  }

  /** After a bulk load: the HNSW index built if the namespace is now above the threshold, or the vectors read in. */
  async settle(): Promise<void> {
    await this.graphDimensions({});
    const stamp = this.matrix && (await this.embedderStamp());
    if (stamp) await this.matrix!.similarityNull(new Float32Array(stamp.dimensions)); // reads the vectors in
  }
}
