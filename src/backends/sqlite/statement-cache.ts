/**
 * @module backends/sqlite/statement-cache
 * Prepared statements kept for reuse, at most `capacity` of them, the least recently used dropped first.
 * Each prepared statement holds native memory; a cache keyed by SQL text grows with every distinct SQL string,
 * and when one distinct string per request was possible (a parameter per `kinds` entry) 3,000 requests took the
 * server from 86 MB to 2.5 GB. The SQL is now fixed-shape, and this bound holds whatever comes next.
 */
import type Database from "better-sqlite3";

export class StatementCache<V> extends Map<string, V> {
  constructor(readonly capacity = 256) {
    super();
  }

  override get(key: string): V | undefined {
    const value = super.get(key);
    if (value !== undefined) {
      // re-insert: a Map iterates in insertion order, so the first key is always the least recently used
      super.delete(key);
      super.set(key, value);
    }
    return value;
  }

  override set(key: string, value: V): this {
    super.delete(key);
    super.set(key, value);
    while (this.size > this.capacity) super.delete(this.keys().next().value as string);
    return this;
  }
}

/**
 * A cached prepared statement of `db`, always handed out in plain object mode: `.pluck()` and `.raw()` change a
 * statement in place, and a mode left over from another caller once made forget delete nothing.
 */
export function cachedStatement(db: Database.Database, cache: StatementCache<Database.Statement>, sql: string): Database.Statement {
  let s = cache.get(sql);
  if (!s) {
    s = db.prepare(sql);
    cache.set(sql, s);
  }
  return s.reader ? s.raw(false).pluck(false) : s;
}
