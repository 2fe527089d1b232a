/**
 * @module backends/postgres/params
 * Positional parameters for SQL assembled from parts (a filter's conditions): each value added gets the next
 * `$n`, so no value is ever spliced into the SQL text. `$1` is always the store's namespace.
 */
export class Params {
  readonly values: unknown[];

  constructor(namespace: string) {
    this.values = [namespace];
  }

  /** The placeholder of a new parameter holding `value` (a JS array binds as a PostgreSQL array). */
  add(value: unknown): string {
    this.values.push(value);
    return `$${this.values.length}`;
  }
}
