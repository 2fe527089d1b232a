/**
 * @module backends/postgres/vector-matrix
 * Dense search on a server without pgvector (the column is `real[]`, schema.ts): the namespace's vectors are
 * read into an in-process VectorMatrix (vectors/matrix.ts, the SQLite store's exact index) and searched there,
 * so the answers are the SQLite store's, exactly, and a search costs one short statement on the server.
 *
 * The matrix follows the table by a key read with every search: the namespace's kept chunk count and its
 * largest chunk id. Ids come from one identity sequence and the writers of a namespace take turns, so new
 * chunks are exactly those past the last id read; a count that then still differs means chunks were deleted,
 * and the ids are read again to drop them. Each catch-up reads in one repeatable-read snapshot.
 * Memory: 4 bytes a dimension a chunk in each process (40 MB at 100,000 chunks of 100 dimensions).
 */
import type { Ranked, SearchFilter } from "../../model/types.js";
import { VectorMatrix } from "../../vectors/matrix.js";
import type { Database, Queryable } from "./connection.js";
import { expiredChunkIds, filterCondition, isEmptyFilter } from "./filter-sql.js";
import { ownersOf } from "./memory-sql.js";
import { Params } from "./params.js";
import { vectorsAfter } from "./vector-sql.js";

/** Rows sampled for a query's similarity distribution (as the SQLite store's vector index). */
const NULL_SAMPLE_ROWS = 2048;
/** Above this many expired chunks, `liveAt` joins the filter instead of being dropped from the answer (as in SQLite). */
const MAX_EXPIRED = 2_000;
/** Vectors read per statement while loading (keyset pages): a large namespace is never one huge result. */
const PAGE = 10_000;

/** The namespace's state: its kept chunk count and last chunk id, in one statement. */
const STATE = `(SELECT value::bigint FROM meta WHERE namespace = $1 AND key = 'chunk_count') AS count,
  (SELECT max(id) FROM chunks WHERE namespace = $1) AS last`;

export class MatrixVectors {
  private matrix: VectorMatrix | null = null;
  /** The state the matrix holds ("count:last"), and the tick at which the snapshot it was read in began. */
  private key = "";
  private loadedAt = 0;
  /** Ticks order state reads and catch-ups: a catch-up begun after a state was read holds at least that state. */
  private clock = 0;
  /** One catch-up at a time: concurrent searches of this store wait for the same one. */
  private loading: Promise<void> | null = null;
  /** The last search's query vector and the matrix it searched: its similarity distribution needs no second state read. */
  private searched: { vector: Float32Array; matrix: VectorMatrix } | null = null;

  constructor(
    private readonly db: Database,
    private readonly ns: string,
  ) {}

  /** Forgets the matrix (every vector was replaced by a re-embedding): the next search reads it again. */
  reset(): void {
    this.matrix = null;
    this.key = "";
    this.searched = null;
  }

  /** The nearest chunks by inner product (cosine of unit vectors), with the filter's meaning in the SQL store. */
  async nearest(vector: Float32Array, depth: number, filter: SearchFilter): Promise<Ranked[]> {
    const { liveAt, ...rest } = filter;
    const p = new Params(this.ns);
    // the expired chunks (at most one more than MAX_EXPIRED) come with the state, in the same statement
    const expiredIds = liveAt === undefined ? "NULL" : `(SELECT array_agg(id) FROM (${expiredChunkIds(liveAt, p)} LIMIT ${MAX_EXPIRED + 1}) AS e)`;
    const tick = ++this.clock;
    const [state] = await this.db.query<State & { expired: number[] | null }>(`SELECT ${STATE}, ${expiredIds} AS expired`, p.values);
    const matrix = await this.current(vector.length, state, tick);
    this.searched = { vector, matrix };
    const expired = new Set((state.expired ?? []).map(Number));
    const found =
      isEmptyFilter(rest) && expired.size <= MAX_EXPIRED
        ? matrix.nearest(vector, depth + expired.size).filter((n) => !expired.has(n.key)).slice(0, depth)
        : matrix.nearestAmong(vector, await allowedChunks(this.db, this.ns, filter), depth);
    const names = await ownersOf(this.db, this.ns, found.map((n) => n.key));
    // a chunk deleted since the state was read has no owner
    return found.filter((n) => names.has(n.key)).map((n) => ({ chunkId: n.key, memoryId: names.get(n.key)!, score: n.similarity }));
  }

  /** The query's similarity distribution over the namespace's chunks (the dense channel's relevance floor). */
  async similarityNull(vector: Float32Array): Promise<{ mean: number; sd: number; rows: number }> {
    // the dense channel asks right after its search, with the same vector: over the matrix that search read
    if (this.searched?.vector === vector) return this.searched.matrix.similarityMoments(vector, NULL_SAMPLE_ROWS);
    const tick = ++this.clock;
    const [state] = await this.db.query<State>(`SELECT ${STATE}`, [this.ns]);
    return (await this.current(vector.length, state, tick)).similarityMoments(vector, NULL_SAMPLE_ROWS);
  }

  /** The matrix, holding at least the state read at `tick` (a search sees every write committed before it began). */
  private async current(dimensions: number, state: State, tick: number): Promise<VectorMatrix> {
    for (;;) {
      const usable = this.matrix?.dimensions === dimensions;
      if (usable && (this.key === keyOf(state) || this.loadedAt > tick)) return this.matrix!;
      this.loading ??= this.catchUp(dimensions, ++this.clock).finally(() => (this.loading = null));
      await this.loading;
    }
  }

  /** Reads what changed since the matrix was read (everything the first time), in one snapshot. */
  private async catchUp(dimensions: number, tick: number): Promise<void> {
    await this.db.transaction(async (tx) => {
      await tx.query("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ READ ONLY");
      const [state] = await tx.query<State>(`SELECT ${STATE}`, [this.ns]);
      const fresh = this.matrix?.dimensions !== dimensions;
      const matrix = fresh ? new VectorMatrix(dimensions, Number(state.count ?? 0) + 1024) : this.matrix!;
      const last = fresh ? 0 : Number(this.key.split(":")[1]);
      for await (const [id, v] of vectorsAfter(tx, this.ns, last, PAGE)) matrix.add(id, v);
      if (matrix.count !== Number(state.count ?? 0)) {
        const kept = new Set((await tx.query<{ id: number }>("SELECT id FROM chunks WHERE namespace = $1", [this.ns])).map((r) => Number(r.id)));
        for (const key of matrix.keyList()) if (!kept.has(key)) matrix.remove(key);
      }
      this.matrix = matrix;
      this.key = keyOf(state);
      this.loadedAt = tick;
    });
  }
}

interface State {
  count: number | string | null;
  last: number | string | null;
}

const keyOf = (s: State) => `${Number(s.count ?? 0)}:${Number(s.last ?? 0)}`;

/** The chunks a filtered search may return. */
async function allowedChunks(q: Queryable, ns: string, filter: SearchFilter): Promise<number[]> {
  const p = new Params(ns);
  const rows = await q.query<{ id: number }>(
    `SELECT c.id FROM chunks c JOIN memories m ON m.namespace = c.namespace AND m.rowid = c.memory_rowid WHERE c.namespace = $1 AND ${filterCondition(filter, p)}`,
    p.values,
  );
  return rows.map((r) => Number(r.id));
}
