/**
 * @module backends/sqlite/vector-index
 * The SQLite store's dense index: an in-memory VectorMatrix derived from the chunk vectors in the table (not
 * SQL state). Loaded on first use, kept in step with this connection's own writes after they commit, and reloaded
 * only when another connection changed a chunk vector. Two reads tell (one prepared statement each): PRAGMA
 * data_version, unchanged when no other connection committed anything (then nothing more is read), and the chunk
 * generation (schema 18), a counter in meta that triggers bump in the same transaction as every chunk insert,
 * delete or vector update, whichever connection makes it. Another process's commits that touch no chunk vector
 * (`cascade reembed`'s batches in its side table, edges, enrichment) leave the matrix as it is: at 100,000 chunks
 * a reload costs ~1.4 s, and a re-embed commits a batch every ~0.1 s (searches during it: p50 3.3-5.8 s when any
 * commit reloaded, 59-60 ms now; `node dist/bench/reembed.js`, docs/OPERATIONS.md). This connection's own chunk writes bump the
 * generation too: the store reads it at the start and end of each such write transaction (`ownWrite`), and when
 * the matrix held the start's generation it holds the end's once the write's chunks are added or forgotten. The
 * re-embed's switch rewrites every vector: a reload in other processes (the generation moved), `invalidate` here.
 *
 * Above `approximate.above` chunks an unfiltered search asks an HNSW graph for candidates and re-scores them
 * exactly from the matrix (vectors/hnsw.ts); a filtered search scans only the admitted rows exactly, which is
 * cheaper than walking a graph that mostly leads to excluded chunks. The graph is built on the first search that
 * needs it (one multi-threaded build after a bulk load, not an insert per write during it), then kept in step
 * with every write, and saved beside the store file on settle and close so that the next open loads it instead of
 * building it again. A saved graph a few writes behind the table (another process wrote without using the graph)
 * is caught up; one that cannot be (another store's, or too far behind) is rebuilt; `doctor` checks it.
 */
import type { DoctorCheck } from "../../ports/store.js";
import type { Ranked } from "../../model/types.js";
import { basename } from "node:path";
import { CascadeError } from "../../errors.js";
import { HnswGraph, type HnswOptions } from "../../vectors/hnsw.js";
import { setAside, type Rejection } from "../../vectors/graph-file.js";
import { VectorMatrix, type Neighbour } from "../../vectors/matrix.js";

export interface ApproximateSearch extends HnswOptions {
  /** Chunk count from which unfiltered searches use the graph. */
  above: number;
  /** Candidates taken from the graph and re-scored exactly (at least the depth asked for). */
  rescore: number;
  /** Where the graph is saved; null keeps it in memory only (a store in memory). */
  path: string | null;
}

/**
 * When and how the graph is used. Below 200,000 chunks exact search costs under ~7 ms a query on this 2-core
 * machine and finds the true nearest by construction, and a graph would cost a build (~15 s per 200,000 vectors);
 * at 1,000,000 exact search is ~50 ms, the largest cost of a fused query. The search-time settings come from
 * `bench/ann-sweep` at 1,000,000 chunks (docs/BENCHMARKS.md): a query sent with 0.7 of the mean taken off finds
 * more of the exact top 10 than one centred like the graph (the dense channel's query vectors: 0.977 against 0.962
 * at 1,024 candidates), 1,280 candidates reach 0.982 (1,024 were 0.977, 1,536 cost ~1 ms more for 0.984), and
 * re-scoring more than 100 candidates adds nothing.
 */
export const defaultApproximateSearch: Omit<ApproximateSearch, "path" | "threads"> = Object.freeze({
  // CASCADE_APPROXIMATE_ABOVE moves the threshold (tests spawn the CLI on small stores with it)
  above: Number(process.env.CASCADE_APPROXIMATE_ABOVE) > 0 ? Number(process.env.CASCADE_APPROXIMATE_ABOVE) : 200_000,
  connectivity: 16,
  expansionAdd: 128,
  expansionSearch: 1280,
  queryCentring: 0.7,
  rescore: 100,
});

/** Rows sampled for a query's similarity distribution: enough for a stable mean and sd, ~0.2 ms a query. */
const NULL_SAMPLE_ROWS = 2048;

export class VectorIndex {
  private matrix: VectorMatrix | null = null;
  /** The chunk generation the matrix holds (what the table held when it was read, with this connection's writes since). */
  private matrixGeneration = -1;
  /** PRAGMA data_version when the generation was last read: while it is unchanged, no other connection committed. */
  private seenDataVersion = -1;
  /** Times the matrix was read from the table (tests observe that an unrelated commit reads nothing). */
  loads = 0;
  private graph: HnswGraph | null = null;
  /** The graph changed since it was last saved. */
  private unsaved = false;
  /**
   * Why the graph could not be saved last time it was tried (a full disk, an odd path), or what was set aside: the
   * saved graph is derived state, so neither stops a search or a write; doctor reports it.
   */
  private fileNote: string | null = null;

  constructor(
    private readonly dataVersion: () => number,
    private readonly generation: () => number,
    private readonly rows: () => Iterable<[number, Buffer]>,
    private readonly capacity: () => number,
    private readonly approximate: ApproximateSearch | null = null,
  ) {}

  /** The matrix, loaded from the table when absent or stale (a loaded graph follows the table's changes). */
  load(dimensions: number): VectorMatrix {
    if (this.matrix && this.current()) return this.matrix;
    // read before the rows: a vector committed between the two is in the matrix under an older generation, and
    // the next search reads it again (never a newer generation over older rows)
    const generation = this.generation();
    this.seenDataVersion = this.dataVersion();
    // sized once (no doubling while loading); blobs are copied straight into the matrix, never one array each
    const matrix = new VectorMatrix(dimensions, this.capacity() + 1024);
    const bytes = dimensions * 4;
    let damaged: { chunk: number; count: number; what: string } | null = null;
    /** Sizes of the vectors not of this size: one size for all of them is another embedder's, not damage. */
    const otherSizes = new Set<number>();
    let rows = 0;
    for (const row of this.rows()) {
      rows++;
      // a damaged page can leave a NULL, a text or a blob of another size where the vector was: copied unchecked,
      // it failed deep in the matrix as INTERNAL "Cannot convert undefined or null to object"
      if (Buffer.isBuffer(row[1]) && row[1].length === bytes) matrix.add(row[0], row[1]);
      else {
        otherSizes.add(Buffer.isBuffer(row[1]) ? row[1].length : -1);
        if (damaged) damaged.count++;
        else damaged = { chunk: row[0], count: 1, what: Buffer.isBuffer(row[1]) ? `${row[1].length} bytes where ${bytes} belong` : `${row[1] === null ? "no" : "not a"} vector` };
      }
    }
    const [other] = otherSizes;
    if (damaged && damaged.count === rows && otherSizes.size === 1 && other > 0 && other % 4 === 0) {
      // every vector is another embedder's: another process moved the store (`cascade reembed`) while this one held it
      throw new CascadeError(
        "EMBEDDER_MISMATCH",
        `every vector of the store is ${other / 4}-d and this process embeds ${dimensions}-d: the store was moved to another embedder (cascade reembed) while it was open; restart with the store's embedder`,
        { field: "embedder" },
      );
    }
    if (damaged) {
      const others = damaged.count > 1 ? ` (and ${damaged.count - 1} other ${damaged.count === 2 ? "chunk" : "chunks"})` : "";
      throw new CascadeError(
        "STORE_ERROR",
        `the store is damaged: chunk ${damaged.chunk} has ${damaged.what}${others}; \`cascade doctor\` counts them under "vector sizes", and no repair can rebuild a vector: forget the memories they belong to and add them again (or restore a backup)`,
      );
    }
    if (this.graph) this.followTable(this.graph, matrix);
    this.matrix = matrix;
    this.matrixGeneration = generation;
    this.loads++;
    return matrix;
  }

  /** Whether the loaded matrix holds what the table holds: no other connection committed, or none changed a chunk. */
  private current(): boolean {
    const version = this.dataVersion();
    if (version === this.seenDataVersion) return true;
    this.seenDataVersion = version;
    return this.generation() === this.matrixGeneration;
  }

  /**
   * This connection committed a write that took the chunk generation from `before` to `after` (read inside its
   * transaction, at its start and its end), and hands its chunks to `add` and `forget` next: a matrix that held
   * `before` then holds `after`. One that did not (another connection changed a vector since it was read) is left
   * behind, and the next search reads the table again.
   */
  ownWrite(before: number, after: number): void {
    if (this.matrix && this.matrixGeneration === before) this.matrixGeneration = after;
  }

  /** Brings the graph to what the table holds now (another process wrote); one too far behind is rebuilt on next use. */
  private followTable(graph: HnswGraph, matrix: VectorMatrix): void {
    const changed = graph.catchUp(matrix);
    if (changed < 0) this.graph = null;
    // a reload that changed nothing the graph holds (another process only wrote edges) leaves nothing to save
    else if (changed > 0) this.unsaved = true;
  }

  /** Adds committed chunks to a loaded matrix (an unloaded one reads them from the table later). */
  add(chunks: { chunkId: number; vector: Float32Array }[]): void {
    if (!this.matrix) return;
    for (const a of chunks) {
      this.matrix.add(a.chunkId, a.vector);
      this.graph?.add(a.chunkId, a.vector);
    }
    if (this.graph && chunks.length) this.unsaved = true;
  }

  /**
   * Adds chunks another connection of this store committed (its write thread) in a write that took the generation
   * from `before` to `after`: only to a matrix that held `before`. One read again since (a search in between saw
   * the commit) already holds them; one behind reads the table on the next search.
   */
  addOwn(before: number, after: number, chunks: { chunkId: number; vector: Float32Array }[]): void {
    if (!this.matrix || this.matrixGeneration !== before) return;
    this.add(chunks);
    this.matrixGeneration = after;
  }

  forget(chunkIds: number[]): void {
    if (!this.matrix) return;
    for (const c of chunkIds) {
      this.matrix.remove(c);
      this.graph?.remove(c);
    }
    if (this.graph && chunkIds.length) this.unsaved = true;
  }

  /** Drops the matrix and the graph (and its saved copy); both are rebuilt from the table on next use. */
  invalidate(): void {
    this.matrix = null;
    this.graph = null;
    this.unsaved = false;
    if (this.approximate?.path) HnswGraph.discard(this.approximate.path);
  }

  /**
   * Saves a graph that changed since it was loaded or saved (settle, close, a first search). Never throws: the file
   * is derived state, and a write that committed must not be reported failed because its side file could not be
   * saved (a full disk). The graph then stays unsaved in memory, and the next process builds it again.
   */
  persist(): boolean {
    if (!(this.graph && this.unsaved && this.approximate?.path)) return true;
    try {
      this.graph.save(this.approximate.path);
      this.unsaved = false;
      this.fileNote = null;
      return true;
    } catch (err) {
      this.fileNote = `the graph could not be saved (${(err as Error).message}): searches use it from memory, the next process builds it again`;
      return false;
    }
  }

  /**
   * After `forget --purge`: the saved graph keeps no vector of a forgotten chunk. A graph in use is brought to the
   * table (removing the forgotten keys) and saved again, which zeroes the freed slots' vectors (HnswGraph.save); one
   * not in use, or that cannot be saved, is deleted (the next search that needs it builds it); files set aside beside
   * it are deleted. Says what it did.
   */
  purge(dimensions: number | null): "rewritten" | "deleted" | "none" {
    const path = this.approximate?.path;
    if (!path) return "none";
    HnswGraph.discardSetAside(path);
    const matrix = dimensions === null ? null : this.load(dimensions);
    const graph = matrix ? this.graph ?? this.graphFor(matrix) : null;
    if (graph) {
      this.unsaved = true;
      if (this.persist()) return "rewritten";
    }
    this.graph = null;
    this.unsaved = false;
    HnswGraph.discard(path);
    return "deleted";
  }

  /** Sets aside a saved graph that failed its checks (or is not a file), so that the rebuilt one can be saved. */
  private setAside(path: string, rejected: Rejection): string {
    const moved = setAside(path, rejected.kind);
    this.fileNote = moved ? `the saved graph was invalid (${rejected.why}): set aside as ${basename(moved)} and rebuilt` : `the saved graph is invalid (${rejected.why}) and could not be set aside`;
    return this.fileNote;
  }

  /**
   * Whether the saved graph describes the table (doctor); with `repair`, a stale or damaged one is deleted and
   * rebuilt later (a search rebuilds it anyway: nothing it finds wrong stops a search).
   */
  check(dimensions: number | null, repair: boolean): DoctorCheck | null {
    const path = this.approximate?.path;
    if (!this.approximate || dimensions === null) return null;
    const name = "approximate vector index";
    const matrix = this.load(dimensions);
    const opened = this.graph ? { graph: this.graph } : path ? HnswGraph.open(path, dimensions, this.approximate, matrix.count) : { graph: null, why: "absent" };
    const graph = opened.graph;
    if (!graph) {
      const why = "why" in opened ? opened.why : "absent";
      const needed = matrix.count >= this.approximate.above;
      if (why === "absent" || why === "other settings") {
        const other = why === "other settings" ? "the saved graph was built with other settings: rebuilt on the first search" : null;
        return { name, ok: true, detail: needed ? (other ?? "not built yet: built on the first search") : `not used below ${this.approximate.above} chunks (${matrix.count} now)` };
      }
      const rejected = "rejected" in opened ? opened.rejected : undefined;
      let done = "";
      if (repair && rejected && path) {
        const moved = setAside(path, rejected.kind);
        done = moved ? `set aside as ${basename(moved)}, ` : "could not be set aside (move it away by hand), ";
      } else if (repair) {
        this.invalidate();
        done = "deleted, ";
      }
      const next = repair ? "rebuilt on the next search that needs it" : "`doctor --repair` sets it aside; the next search that needs it does so too and rebuilds it";
      return { name, ok: false, detail: `the saved graph file is invalid: ${why}; ${done}${next}`, repaired: repair || undefined };
    }
    const size = graph.size;
    // a saved graph a few writes behind (another process did not search the graph) is caught up by the next search
    const behind = graph === this.graph ? 0 : graph.catchUp(matrix);
    if (behind >= 0 && graph.describes(matrix)) {
      const detail = behind === 0 ? `${size} vectors, in step with the table` : `${size} vectors saved, ${behind} ${behind === 1 ? "chunk" : "chunks"} behind the table: caught up by the next search`;
      return { name, ok: true, detail: this.fileNote ? `${detail}; ${this.fileNote}` : detail };
    }
    if (repair) this.invalidate();
    return { name, ok: false, detail: `the graph does not describe the table (${size} vectors for ${matrix.count} chunks)${repair ? ": deleted, rebuilt on the next search" : ""}`, repaired: repair || undefined };
  }

  /** The graph for unfiltered searches of a store this large: loaded from its file, or built now. */
  private graphFor(matrix: VectorMatrix): HnswGraph | null {
    const a = this.approximate;
    if (!a || matrix.count < a.above) return null;
    if (this.graph) return this.graph;
    // a saved graph another process fell behind on (it wrote without searching the graph) is caught up, not rebuilt
    const loaded = a.path ? HnswGraph.load(a.path, matrix, a) : null;
    if (a.path && loaded && !loaded.graph && loaded.rejected) this.setAside(a.path, loaded.rejected);
    if (loaded?.graph) {
      this.graph = loaded.graph;
      this.unsaved = loaded.changed > 0;
    } else {
      this.graph = HnswGraph.build(matrix, a);
      this.unsaved = true;
    }
    // saved at once: the build is the slow part, and the next process to open the store should not repeat it
    this.persist();
    return this.graph;
  }

  /** The query's similarity distribution over the stored chunks (the dense channel's relevance floor). */
  similarityNull(vector: Float32Array): { mean: number; sd: number; rows: number } {
    return this.load(vector.length).similarityMoments(vector, NULL_SAMPLE_ROWS);
  }

  /** The nearest chunks to `vector`, among `allowed` when given; owners name each chunk's memory. */
  nearest(vector: Float32Array, depth: number, allowed: number[] | null, owners: (ids: number[]) => Map<number, string>): Ranked[] {
    if (allowed === null) return this.nearestMany([vector], depth, owners)[0];
    return named([this.load(vector.length).nearestAmong(vector, allowed, depth)], owners)[0];
  }

  /** The nearest chunks to each of `vectors`, unfiltered: one graph search on every thread for the lot. */
  nearestMany(vectors: Float32Array[], depth: number, owners: (ids: number[]) => Map<number, string>): Ranked[][] {
    if (vectors.length === 0) return [];
    const matrix = this.load(vectors[0].length);
    const graph = this.graphFor(matrix);
    const candidates = graph ? graph.candidatesMany(vectors, Math.max(depth, this.approximate!.rescore)) : null;
    const neighbours = vectors.map((vector, i) => (candidates ? matrix.nearestAmong(vector, candidates[i], depth) : matrix.nearest(vector, depth)));
    return named(neighbours, owners);
  }
}

/** Neighbours with their memories named in one lookup. */
function named(lists: Neighbour[][], owners: (ids: number[]) => Map<number, string>): Ranked[][] {
  const names = owners([...new Set(lists.flat().map((n) => n.key))]);
  // a chunk another process deleted since the matrix was read (a summary rewritten, a memory forgotten) has no owner
  return lists.map((list) => list.filter((n) => names.has(n.key)).map((n) => ({ chunkId: n.key, memoryId: names.get(n.key)!, score: n.similarity })));
}
