/**
 * @module backends/sqlite/connection
 * How Cascade opens SQLite: every pragma in one place, each with its reason, and the transaction policy.
 */
import Database from "better-sqlite3";
import { mkdirSync } from "node:fs";
import { dirname } from "node:path";
import { CascadeError, storeFailure } from "../../errors.js";
import { checkCascadeSchema, checkStorePath } from "./identify.js";
import { refuseNewerSchema } from "./schema.js";

export type Connection = Database.Database;

/**
 * How long a writer waits for another process's write lock before giving up with STORE_ERROR: 5 s, far above
 * any one batch's commit (tens of milliseconds). CASCADE_BUSY_TIMEOUT_MS overrides it (tests use a short one).
 */
export const BUSY_TIMEOUT_MS = Number(process.env.CASCADE_BUSY_TIMEOUT_MS) > 0 ? Number(process.env.CASCADE_BUSY_TIMEOUT_MS) : 5000;

/** CASCADE_SQLITE_MAX_PAGES: the most pages the store file may hold (never below its current size). */
const MAX_PAGES = Math.floor(Number(process.env.CASCADE_SQLITE_MAX_PAGES)) || 0;

export function openConnection(path: string, options: { readonly?: boolean } = {}): Connection {
  checkStorePath(path);
  if (path !== ":memory:" && !options.readonly) mkdirSync(dirname(path), { recursive: true });
  const db = new Database(path, { readonly: options.readonly ?? false, fileMustExist: options.readonly ?? false });
  try {
    // Another process holding the write lock (an import in progress) is waited for, not failed on. This only
    // works because every write transaction takes the lock when it begins (see immediateTransactions). Set
    // first, so that even the schema check below waits for a store another process is creating.
    db.pragma(`busy_timeout = ${BUSY_TIMEOUT_MS}`);
    // Before any pragma that writes: WAL mode and migrations would otherwise rewrite another application's database.
    checkCascadeSchema(db, path);
    refuseNewerSchema(db, path);
  } catch (err) {
    db.close();
    throw err;
  }
  // Readers never block the writer and vice versa; a CLI search can run while `cascade serve` writes.
  db.pragma("journal_mode = WAL");
  // In WAL mode NORMAL is durable across application crashes and only risks the last commit on power loss.
  db.pragma("synchronous = NORMAL");
  // Chunks and postings cascade from their memory; without this a forget would leave orphans.
  db.pragma("foreign_keys = ON");
  // Sorting and temporary b-trees for fused queries stay off the disk.
  db.pragma("temp_store = MEMORY");
  // 64 MB page cache: the FTS5 and posting indexes of 100,000 chunks fit.
  db.pragma("cache_size = -65536");
  // A cap on the file's pages: a quota, and the way to see what a full disk does (a real SQLITE_FULL).
  if (MAX_PAGES > 0) db.pragma(`max_page_count = ${MAX_PAGES}`);
  immediateTransactions(db, path);
  return db;
}

/**
 * Every `db.transaction(fn)()` begins IMMEDIATE. A deferred transaction that reads first (the embedder-stamp
 * check) and writes later cannot wait for the lock when it upgrades: SQLite answers SQLITE_BUSY at once,
 * whatever the busy timeout, because waiting could deadlock. With three writer processes that was 11,462
 * failures in 20 s; taking the write lock at BEGIN makes the busy timeout apply, and the count 0.
 * A lock held longer than the timeout becomes STORE_ERROR with a message a person can act on.
 */
function immediateTransactions(db: Connection, path: string): void {
  const make = db.transaction.bind(db);
  const wrapped = (fn: (...args: unknown[]) => unknown) => {
    const tx = make(function (this: unknown, ...args: unknown[]) {
      writeGuards.get(db)?.();
      return fn.apply(this, args);
    });
    const run = function (this: unknown, ...args: unknown[]) {
      try {
        return tx.immediate.apply(this, args);
      } catch (err) {
        throw asStoreError(err, path);
      }
    };
    return Object.assign(run, { default: run, deferred: tx.deferred, immediate: run, exclusive: tx.exclusive, database: db });
  };
  db.transaction = wrapped as unknown as Connection["transaction"];
}

const writeGuards = new WeakMap<Connection, () => void>();

/**
 * Runs `check` first in every later write transaction on `db` (inside it, so it reads what is committed): a
 * check that throws refuses the write. Used to refuse writes to a store doctor found damaged.
 */
export function guardWrites(db: Connection, check: () => void): void {
  writeGuards.set(db, check);
}

/** Runs `fn` (a repair, or doctor recording what it found) without the guard. */
export function unguarded<T>(db: Connection, fn: () => T): T {
  const guard = writeGuards.get(db);
  writeGuards.delete(db);
  try {
    return fn();
  } finally {
    if (guard) writeGuards.set(db, guard);
  }
}

/** SQLite's lock, full-disk and damage errors, in words; anything else passes through unchanged. */
export function asStoreError(err: unknown, path: string): unknown {
  const code = (err as { code?: unknown })?.code;
  const failure = storeFailure(err, `the store ${path}`);
  if (failure) return failure;
  if (typeof code === "string" && (code.startsWith("SQLITE_BUSY") || code.startsWith("SQLITE_LOCKED"))) {
    return new CascadeError(
      "STORE_ERROR",
      `the store ${path} stayed locked by another writer for more than ${BUSY_TIMEOUT_MS / 1000} s (${code}); nothing was written, try again`,
      { cause: err },
    );
  }
  return err;
}
