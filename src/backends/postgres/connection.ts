/**
 * @module backends/postgres/connection
 * The one thing the PostgreSQL store talks to: a "queryable" (SQL text plus positional parameters in, plain row
 * objects out) with all-or-nothing transactions. Two implementations, so the same SQL runs on both:
 *
 *   - PGlite (PostgreSQL compiled to WebAssembly, in this process): one connection, so its own transaction
 *     mutex already makes writers take turns; nothing to retry.
 *   - a `pg` Pool for `postgres://` URLs: every session gets a statement timeout, and a transaction that fails
 *     on a serialization failure (40001), a deadlock (40P01) or a dropped connection is run again from the start,
 *     a few times, with a short pause: those failures say nothing about the transaction itself.
 *
 * Values only ever travel as parameters ($1, $2, ...); a JS array binds as a PostgreSQL array.
 */
import type { PGlite } from "@electric-sql/pglite";
import pg from "pg";
import { CascadeError } from "../../errors.js";

/** Runs one statement; rows come back as objects keyed by column name. */
export interface Queryable {
  query<T = Record<string, unknown>>(sql: string, params?: unknown[]): Promise<T[]>;
}

/** A database: statements outside a transaction, transactions, and the end of the connection(s). */
export interface Database extends Queryable {
  /** Runs `fn` in one transaction: it commits when `fn` resolves and rolls back (nothing written) when it throws. */
  transaction<T>(fn: (tx: Queryable) => Promise<T>): Promise<T>;
  /** Runs several statements separated by semicolons, without parameters (migrations). */
  exec(sql: string): Promise<void>;
  /** A statement that cannot run inside a transaction block (VACUUM); errors are reported, not thrown. */
  maintenance(sql: string): Promise<boolean>;
  close(): Promise<void>;
  /** Where it points, for messages (never a password). */
  readonly label: string;
}

/** How long one statement may run on a server before PostgreSQL cancels it (CASCADE_PG_STATEMENT_TIMEOUT_MS overrides). */
export const STATEMENT_TIMEOUT_MS = Number(process.env.CASCADE_PG_STATEMENT_TIMEOUT_MS) > 0 ? Number(process.env.CASCADE_PG_STATEMENT_TIMEOUT_MS) : 30_000;

/** Attempts of one transaction before its last failure is reported. */
const TRANSACTION_ATTEMPTS = 4;

/** PGlite in this process. `owned`: closing the database closes the PGlite instance too. */
export function pgliteDatabase(db: PGlite, options: { owned: boolean; label?: string }): Database {
  return {
    label: options.label ?? "pglite",
    async query<T>(sql: string, params: unknown[] = []) {
      return (await db.query<T>(sql, params)).rows;
    },
    async transaction<T>(fn: (tx: Queryable) => Promise<T>) {
      return db.transaction(async (tx) => fn({ query: async <R>(sql: string, params: unknown[] = []) => (await tx.query<R>(sql, params)).rows }));
    },
    async exec(sql: string) {
      await db.exec(sql);
    },
    async maintenance(sql: string) {
      try {
        await db.exec(sql);
        return true;
      } catch {
        return false;
      }
    },
    async close() {
      if (options.owned && !db.closed) await db.close();
    },
  };
}

/**
 * bigint (int8) comes back from `pg` as a string unless told otherwise: counts, row ids and millisecond times
 * here stay far below 2^53, so they are read as numbers, as PGlite reads them.
 */
const types = {
  getTypeParser: ((oid: number, format?: "text" | "binary") => {
    if (oid === 20) return (v: string) => Number(v);
    return pg.types.getTypeParser(oid, format as "text");
  }) as typeof pg.types.getTypeParser,
};

/** A pool of connections to a PostgreSQL server (a `postgres://` URL). */
export function poolDatabase(url: string, options: { max?: number } = {}): Database {
  const pool = new pg.Pool({ connectionString: url, max: options.max ?? 4, types });
  // Set on connect with SET rather than as a startup parameter, which poolers such as PgBouncer refuse and
  // PGlite's socket server ignores; a client runs its queries in order, so this one comes before any other.
  pool.on("connect", (client) => void client.query(`SET statement_timeout = ${Math.floor(STATEMENT_TIMEOUT_MS)}`).catch(() => {}));
  // an idle client whose server went away emits 'error' on the pool; without a listener that ends the process
  pool.on("error", () => {});
  const label = safeLabel(url);
  return {
    label,
    async query<T>(sql: string, params: unknown[] = []) {
      return withRetries(label, async () => (await pool.query(sql, params)).rows as T[]);
    },
    async transaction<T>(fn: (tx: Queryable) => Promise<T>) {
      return withRetries(label, async () => {
        const client = await pool.connect();
        let broken = false;
        try {
          await client.query("BEGIN");
          const result = await fn({ query: async <R>(sql: string, params: unknown[] = []) => (await client.query(sql, params)).rows as R[] });
          await client.query("COMMIT");
          return result;
        } catch (err) {
          try {
            await client.query("ROLLBACK");
          } catch {
            broken = true; // the connection is gone: do not hand it back to the pool
          }
          throw err;
        } finally {
          client.release(broken);
        }
      });
    },
    async exec(sql: string) {
      await withRetries(label, async () => void (await pool.query(sql)));
    },
    async maintenance(sql: string) {
      try {
        await pool.query(sql);
        return true;
      } catch {
        return false;
      }
    },
    async close() {
      await pool.end();
    },
  };
}

/** Failures worth running the whole transaction again for: they come from timing, not from what it does. */
export function isTransient(err: unknown): boolean {
  const code = (err as { code?: unknown })?.code;
  if (code === "40001" || code === "40P01") return true; // serialization failure, deadlock
  if (typeof code === "string" && (code.startsWith("08") || code === "57P01" || code === "57P02" || code === "57P03")) return true; // connection lost, server shutting down
  if (code === "ECONNRESET" || code === "ECONNREFUSED" || code === "EPIPE") return true;
  const message = (err as Error)?.message ?? "";
  return /Connection terminated|connection closed|Client has encountered a connection error/i.test(message);
}

async function withRetries<T>(label: string, run: () => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await run();
    } catch (err) {
      if (err instanceof CascadeError) throw err;
      if (!isTransient(err)) throw asStoreError(err, label);
      if (attempt >= TRANSACTION_ATTEMPTS) {
        throw new CascadeError("STORE_ERROR", `the store ${label} kept failing (${(err as Error).message}) after ${attempt} attempts; nothing was written, try again`, { cause: err });
      }
      await new Promise((resolve) => setTimeout(resolve, 20 * 2 ** attempt + Math.random() * 20));
    }
  }
}

/** A statement cancelled by the statement timeout, in words; anything else passes through unchanged. */
function asStoreError(err: unknown, label: string): unknown {
  if ((err as { code?: unknown })?.code === "57014") {
    return new CascadeError("STORE_ERROR", `a statement on ${label} ran longer than ${STATEMENT_TIMEOUT_MS / 1000} s and was cancelled; nothing was written`, { cause: err });
  }
  return err;
}

/** The URL without its password, for messages. */
function safeLabel(url: string): string {
  try {
    const u = new URL(url);
    if (u.password) u.password = "***";
    return u.toString();
  } catch {
    return "postgres";
  }
}
