/**
 * The PostgreSQL store's connection layer over a real wire connection (the `pg` pool on PGlite served by
 * pglite-socket): a transaction is all or nothing; one that fails with a serialization failure or a deadlock
 * is run again from the start, and one that fails for its own reasons is not; a statement timeout is set.
 */
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { PGLiteSocketServer } from "@electric-sql/pglite-socket";
import { isTransient, poolDatabase, type Database } from "../src/backends/postgres/connection.js";
import { newPglite } from "../src/backends/postgres/open.js";
import { PG_SKIP, PG_URL } from "./pg-server.js";

let server: PGLiteSocketServer;
let db: Database;

before(async () => {
  const pglite = newPglite();
  await pglite.waitReady;
  server = new PGLiteSocketServer({ db: pglite, host: "127.0.0.1", port: 0 });
  await server.start();
  db = poolDatabase(`postgres://postgres@${server.getServerConn()}/postgres?sslmode=disable`, { max: 1 });
  await db.exec("CREATE TABLE t (n integer)");
});

after(async () => {
  await db?.close();
  await server?.stop();
  await server?.db.close();
});

const count = async () => (await db.query<{ n: number }>("SELECT count(*)::int AS n FROM t"))[0].n;
const failure = (code: string) => Object.assign(new Error(`simulated ${code}`), { code });

test("a transaction that fails on a serialization failure or deadlock runs again, and its first attempt left nothing", async () => {
  for (const code of ["40001", "40P01"]) {
    await db.query("DELETE FROM t");
    let attempts = 0;
    await db.transaction(async (tx) => {
      await tx.query("INSERT INTO t VALUES (1)");
      if (attempts++ === 0) throw failure(code);
    });
    assert.equal(attempts, 2, code);
    assert.equal(await count(), 1, `${code}: only the second attempt's row`);
  }
});

test("a transaction that fails for its own reasons is rolled back and not retried", async () => {
  await db.query("DELETE FROM t");
  let attempts = 0;
  await assert.rejects(
    db.transaction(async (tx) => {
      attempts++;
      await tx.query("INSERT INTO t VALUES (1)");
      await tx.query("INSERT INTO t VALUES ('not a number')");
    }),
    (err: unknown) => (err as { code?: string }).code === "22P02",
  );
  assert.equal(attempts, 1);
  assert.equal(await count(), 0);
});

test("a failure that keeps coming back is STORE_ERROR after a few attempts", async () => {
  let attempts = 0;
  await assert.rejects(
    db.transaction(async () => {
      attempts++;
      throw failure("40001");
    }),
    (err: unknown) => (err as { code?: string }).code === "STORE_ERROR",
  );
  assert.ok(attempts > 1 && attempts <= 5, `${attempts} attempts`);
});

test("transient failures are told apart from the others", () => {
  for (const code of ["40001", "40P01", "08006", "57P01", "ECONNRESET"]) assert.equal(isTransient(failure(code)), true, code);
  for (const code of ["23505", "22P02", "42P01", "57014"]) assert.equal(isTransient(failure(code)), false, code);
  assert.equal(isTransient(new Error("Connection terminated unexpectedly")), true);
});

test("every pooled session has a statement timeout", async () => {
  const [row] = await db.query<{ statement_timeout: string }>("SHOW statement_timeout");
  assert.notEqual(row.statement_timeout, "0");
});

const PREPARED_SQL = "SELECT $1::int + 41 AS n";
const preparedNames = async (on: Database) =>
  (await on.query<{ name: string }>("SELECT name FROM pg_prepared_statements WHERE statement = $1", [PREPARED_SQL])).map((r) => r.name);

test("on a server, statements with values run prepared: planned once per connection, under a name of that connection", { skip: PG_SKIP }, async () => {
  const names = new Set<string>();
  for (const round of [1, 2]) {
    const server = poolDatabase(PG_URL!, { max: 1 });
    try {
      assert.equal((await server.query<{ n: number }>(PREPARED_SQL, [1]))[0].n, 42);
      assert.equal((await server.query<{ n: number }>(PREPARED_SQL, [2]))[0].n, 43);
      const held = await preparedNames(server);
      assert.equal(held.length, 1, `connection ${round} prepared the statement once and reused it`);
      assert.equal(server.concurrent, false, "one connection: nothing runs beside a transaction");
      names.add(held[0]);
    } finally {
      await server.close();
    }
  }
  assert.equal(names.size, 2, "a new connection never reuses another's name");
});

test("PGlite served over a socket never gets prepared statements (its multiplexer interleaves clients' messages)", async () => {
  assert.equal((await db.query<{ n: number }>(PREPARED_SQL, [1]))[0].n, 42);
  assert.equal((await db.query<{ n: number }>(PREPARED_SQL, [2]))[0].n, 43);
  assert.deepEqual(await preparedNames(db), []);
  assert.equal(db.concurrent, false, "one PGlite session: a statement beside a transaction would land inside it");
});

test("a server's pool runs statements beside an open transaction", { skip: PG_SKIP }, async () => {
  const server = poolDatabase(PG_URL!);
  try {
    await server.query("SELECT 1");
    assert.equal(server.concurrent, true);
  } finally {
    await server.close();
  }
});
