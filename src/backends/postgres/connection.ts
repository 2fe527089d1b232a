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
import { createHash, randomBytes } from "node:crypto";
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
  /**
   * Whether a statement sent while a transaction is open runs on another connection beside it (a server's pool),
   * rather than after it or, worse, inside it (PGlite, in process or served over a socket, has one session).
   */
  readonly concurrent: boolean;
}

/** How long one statement may run on a server before PostgreSQL cancels it (CASCADE_PG_STATEMENT_TIMEOUT_MS overrides). */
export const STATEMENT_TIMEOUT_MS = Number(process.env.CASCADE_PG_STATEMENT_TIMEOUT_MS) > 0 ? Number(process.env.CASCADE_PG_STATEMENT_TIMEOUT_MS) : 30_000;

/** Attempts of one transaction before its last failure is reported. */
const TRANSACTION_ATTEMPTS = 4;

/** PGlite in this process. `owned`: closing the database closes the PGlite instance too. */
export function pgliteDatabase(db: PGlite, options: { owned: boolean; label?: string }): Database {
  return {
    label: options.label ?? "pglite",
    concurrent: false,
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

/**
 * Statements run as named prepared statements, each parsed and planned once per connection rather than on every
 * call: a search's ~40 statements spent more time being planned than executed (a mention lookup: 1.8 ms of
 * planning for 0.9 ms of execution at 20,000 chunks). The server re-plans a prepared statement with each call's
 * values until a generic plan is as cheap (plan_cache_mode auto), so filters with very different selectivity
 * keep fitting plans. Distinct statement texts are bounded per process (a filter's conditions make new texts):
 * past the bound a text runs unnamed, as before. A name is unique to its connection and process, so a session
 * that outlives its client or serves several (a pooler, a PGlite socket) never meets a name it already holds.
 * CASCADE_PG_PREPARED=0 turns them off, for a pooler that cannot keep them (PgBouncer in transaction mode before 1.21).
 * PGlite served over a socket never gets them: its multiplexer interleaves the messages of its clients' statements
 * outside transactions, and a prepared statement's shorter exchange made that lose a portal in 1 run of 3 of the
 * two-processes test (0 of 5 before).
 */
const MAX_PREPARED = process.env.CASCADE_PG_PREPARED === "0" ? 0 : 1000;
const statementKeys = new Map<string, string>();
const processTag = `${process.pid.toString(36)}${randomBytes(3).toString("hex")}`;
let connections = 0;
const connectionTags = new WeakMap<pg.PoolClient, string>();

/** Connections to PGlite served over a socket (see above): their statements are never prepared. */
const unprepared = new WeakSet<pg.PoolClient>();

function statement(client: pg.PoolClient, sql: string, values: unknown[]): pg.QueryConfig {
  if (unprepared.has(client)) return { text: sql, values };
  let key = statementKeys.get(sql);
  if (key === undefined && statementKeys.size < MAX_PREPARED && values.length > 0) {
    key = createHash("sha1").update(sql).digest("hex").slice(0, 16);
    statementKeys.set(sql, key);
  }
  if (key === undefined) return { text: sql, values };
  let tag = connectionTags.get(client);
  if (tag === undefined) connectionTags.set(client, (tag = `${processTag}_${(++connections).toString(36)}`));
  return { name: `cascade_${tag}_${key}`, text: sql, values };
}

/** A pool of connections to a PostgreSQL server (a `postgres://` URL). */
export function poolDatabase(url: string, options: { max?: number } = {}): Database {
  const pool = new pg.Pool({ connectionString: url, max: options.max ?? 4, types });
  // an idle client whose server went away emits 'error' on the pool; without a listener that ends the process
  pool.on("error", () => {});
  const label = safeLabel(url);
  const timed = new WeakSet<pg.PoolClient>();
  let pglite = false;

  /**
   * Runs `fn` on a pooled connection. A new connection first gets its statement timeout, with SET rather than a
   * startup parameter (which poolers such as PgBouncer refuse and PGlite's socket server ignores). A connection
   * that dies while checked out emits 'error' with no pool listening, which unheard would end the process:
   * heard here, it is marked broken and not handed back; the failed query rejects and the caller retries.
   */
  async function withClient<T>(fn: (client: pg.PoolClient, broken: () => void) => Promise<T>): Promise<T> {
    const client = await pool.connect();
    let broken = false;
    const onError = () => void (broken = true);
    client.on("error", onError);
    try {
      if (!timed.has(client)) {
        await client.query(`SET statement_timeout = ${Math.floor(STATEMENT_TIMEOUT_MS)}`);
        const [{ v }] = (await client.query<{ v: string }>("SELECT version() AS v")).rows;
        if (/PGlite/.test(v)) {
          unprepared.add(client);
          pglite = true;
        }
        timed.add(client);
      }
      return await fn(client, () => void (broken = true));
    } catch (err) {
      if (isConnectionLoss(err)) broken = true;
      throw err;
    } finally {
      client.off("error", onError);
      client.release(broken);
    }
  }

  return {
    label,
    get concurrent() {
      return (options.max ?? 4) > 1 && !pglite;
    },
    async query<T>(sql: string, params: unknown[] = []) {
      return withRetries(label, () =>
        withClient(async (client, broken) => {
          const run = async () => (await client.query(statement(client, sql, params))).rows as T[];
          // PGlite served over a socket takes its clients' protocol messages one at a time from all of them, so
          // outside a transaction one client's Bind could meet another's unnamed statement ("malformed array
          // literal" in 2 of 10 runs of the two-processes test); a client inside a transaction it serves alone
          // to the end. A statement without parameters is one message, and safe.
          return unprepared.has(client) && params.length > 0 ? inTransaction(client, label, broken, run) : run();
        }),
      );
    },
    async transaction<T>(fn: (tx: Queryable) => Promise<T>) {
      return withRetries(label, () =>
        withClient((client, broken) =>
          inTransaction(client, label, broken, () => fn({ query: async <R>(sql: string, params: unknown[] = []) => (await client.query(statement(client, sql, params))).rows as R[] })),
        ),
      );
    },
    async exec(sql: string) {
      await withRetries(label, () => withClient(async (client) => void (await client.query(sql))));
    },
    async maintenance(sql: string) {
      try {
        await withClient((client) => client.query(sql));
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

/**
 * COMMIT, told apart from the statements before it: when the connection goes while COMMIT is on its way, the
 * server may have committed or not, and no one can say which. Running the transaction again would store it twice
 * when it did; reporting "nothing was written" would be false. So the error says the outcome is unknown and how
 * to make the retry safe: a memory with a `ref` is stored once however often it is sent.
 */
async function commit(client: pg.PoolClient, label: string, broken: () => void): Promise<void> {
  try {
    await client.query("COMMIT");
  } catch (err) {
    if (!isConnectionLoss(err)) throw err;
    broken();
    throw new CascadeError(
      "STORE_ERROR",
      `the connection to ${label} was lost while committing (${(err as Error).message}): the write may or may not be stored; ` +
        "a retry is safe when each memory carries its ref (metadata.ref), which is stored once",
      { cause: err }, // a CascadeError: never run again (withRetries)
    );
  }
}

/** Runs `fn` between BEGIN and COMMIT on `client`, rolling back when it throws. */
async function inTransaction<T>(client: pg.PoolClient, label: string, broken: () => void, fn: () => Promise<T>): Promise<T> {
  await client.query("BEGIN");
  let result: T;
  try {
    result = await fn();
  } catch (err) {
    await client.query("ROLLBACK").catch(broken); // a connection that cannot roll back is not handed back
    throw err;
  }
  await commit(client, label, broken);
  return result;
}

/** Failures worth running the whole transaction again for: they come from timing, not from what it does. */
export function isTransient(err: unknown): boolean {
  const code = (err as { code?: unknown })?.code;
  return code === "40001" || code === "40P01" || isConnectionLoss(err); // serialization failure, deadlock
}

/** The connection went away (network, server restart, backend terminated): it must not go back to the pool. */
function isConnectionLoss(err: unknown): boolean {
  const code = (err as { code?: unknown })?.code;
  if (typeof code === "string" && (code.startsWith("08") || code === "57P01" || code === "57P02" || code === "57P03")) return true;
  if (code === "ECONNRESET" || code === "ECONNREFUSED" || code === "EPIPE") return true;
  return /Connection terminated|connection closed|Client has encountered a connection error/i.test((err as Error)?.message ?? "");
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
