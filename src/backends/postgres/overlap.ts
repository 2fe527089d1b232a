/**
 * @module backends/postgres/overlap
 * Client work done while the server answers. A write transaction sends its statements one after another, and
 * between them the server waits for the client and the client for the server. Work the later statements need
 * (a batch's chunks analysed for the index, their vectors written out as text) is done here a slice at a time
 * while an earlier statement runs, so the two halves overlap instead of adding up. Same results in the same
 * order as doing it all at once; only when it is done changes.
 */
import type { Queryable } from "./connection.js";
import { letIoIn } from "../../event-loop.js";

/** Items per slice: small enough that a statement's answer is read within a few milliseconds of arriving. */
const SLICE = 32;

export class Overlap<I, O> {
  private readonly out: O[] = [];

  constructor(
    private readonly items: readonly I[],
    private readonly work: (item: I) => O,
  ) {}

  /** Works through slices until `pending` settles (or nothing is left), then answers what it answers. */
  async during<R>(pending: Promise<R>): Promise<R> {
    let settled = false;
    pending.then(
      () => (settled = true),
      () => (settled = true),
    );
    // the socket's data is read between slices
    while (!settled && this.step()) await letIoIn();
    return pending;
  }

  /** Statements sent through this queryable overlap the work. */
  over(q: Queryable): Queryable {
    return { query: <T>(sql: string, params?: unknown[]) => this.during(q.query<T>(sql, params)) };
  }

  /** Every item's result, in order: what is left is done now. */
  all(): O[] {
    while (this.step());
    return this.out;
  }

  /** One slice; whether anything is left. */
  private step(): boolean {
    const end = Math.min(this.items.length, this.out.length + SLICE);
    for (let i = this.out.length; i < end; i++) this.out.push(this.work(this.items[i]));
    return this.out.length < this.items.length;
  }
}
