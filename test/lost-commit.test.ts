/**
 * A commit whose answer is lost. A TCP proxy between the `pg` pool and PGlite served by
 * pglite-socket lets a COMMIT reach the database, waits for the database's answer, and then cuts the connection
 * instead of passing it on: the write is stored, the client cannot know it. Such a transaction must not be run
 * again (it would be stored twice), the error must say the outcome is unknown, and a retry of a memory that
 * carries a `ref` must store nothing new.
 */
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { createServer, connect, type AddressInfo, type Server, type Socket } from "node:net";
import { PGLiteSocketServer } from "@electric-sql/pglite-socket";
import { poolDatabase, type Database } from "../src/backends/postgres/connection.js";
import { newPglite } from "../src/backends/postgres/open.js";
import { join } from "node:path";
import { openMemory, parseInstant, type Engine } from "../src/index.js";
import { cli, cliHere, tempDir } from "./helpers.js";

let server: PGLiteSocketServer;
let proxy: Server;
let proxyUrl: string;
/** When set, the first COMMIT sent after a message containing this text (SQL or a value) loses its answer. */
let dropCommitAfter: string | null = null;
let dropped = 0;

before(async () => {
  const pglite = newPglite();
  await pglite.waitReady;
  server = new PGLiteSocketServer({ db: pglite, host: "127.0.0.1", port: 0 });
  await server.start();
  const [host, port] = server.getServerConn().split(":");
  proxy = createServer((client) => relay(client, connect(Number(port), host)));
  await new Promise<void>((resolve) => proxy.listen(0, "127.0.0.1", resolve));
  proxyUrl = `postgres://postgres@127.0.0.1:${(proxy.address() as AddressInfo).port}/postgres?sslmode=disable`;
});

after(async () => {
  proxy?.close();
  await server?.stop();
  await server?.db.close();
});

/** Passes bytes both ways, except the answer to a COMMIT chosen to be lost: then both sockets are cut. */
function relay(client: Socket, upstream: Socket): void {
  let seen = false;
  let losing = false;
  client.on("data", (chunk) => {
    const text = chunk.toString("latin1");
    if (dropCommitAfter !== null && text.includes(dropCommitAfter)) seen = true;
    // a simple-protocol query message: "Q", its length, the SQL text, a NUL
    if (seen && text.includes("COMMIT\0")) {
      losing = true;
      dropCommitAfter = null;
    }
    upstream.write(chunk);
  });
  upstream.on("data", (chunk) => {
    if (!losing) return void client.write(chunk);
    dropped++;
    client.destroy();
    upstream.destroy();
  });
  const end = () => (client.destroy(), upstream.destroy());
  client.on("error", end).on("close", end);
  upstream.on("error", end).on("close", end);
}

test("a transaction whose COMMIT answer is lost is not run again and says its outcome is unknown", async () => {
  const db: Database = poolDatabase(proxyUrl, { max: 1 });
  try {
    await db.exec("CREATE TABLE t (n integer)");
    let attempts = 0;
    dropCommitAfter = "INSERT INTO t";
    const before = dropped;
    await assert.rejects(
      db.transaction(async (tx) => {
        attempts++;
        await tx.query("INSERT INTO t VALUES (1)");
      }),
      (err: Error & { code?: string }) => err.code === "STORE_ERROR" && /may or may not be stored/.test(err.message) && !/nothing was written/.test(err.message),
    );
    assert.equal(dropped, before + 1, "the proxy cut one answer");
    assert.equal(attempts, 1, "a commit of unknown outcome is never run again");
    const [row] = await db.query<{ n: number }>("SELECT count(*)::int AS n FROM t");
    assert.equal(row.n, 1, "the commit did reach the database: one row, not two");
  } finally {
    await db.close();
  }
});

test("remember with a ref, retried after a lost commit answer, stores the memory once", async () => {
  const engine: Engine = await openMemory({ path: proxyUrl, namespace: "lost_commit", now: parseInstant("now", "2026-06-03T10:00:00Z") });
  try {
    await engine.remember({ text: "The build server moved to the basement rack" }); // the store's first write: stamps and schema
    const input = { text: "Deploys are frozen on Fridays from noon", metadata: { ref: "ticket-4711" } };
    // statements are prepared (their SQL crosses the wire once per connection, and the first remember already
    // sent it): the trigger is a value only this write sends
    dropCommitAfter = "Deploys are frozen on Fridays";
    await assert.rejects(engine.remember(input), (err: Error & { code?: string }) => err.code === "STORE_ERROR" && /retry is safe when each memory carries its ref/.test(err.message));
    const retried = await engine.remember(input);
    assert.equal(retried.existing, true);
    const again = await engine.remember(input);
    assert.equal(again.id, retried.id);
    const listed = await engine.list({ limit: 10 });
    const frozen = listed.memories.filter((m) => m.text.includes("frozen on Fridays"));
    assert.equal(frozen.length, 1, "one copy of the memory whose commit answer was lost");
    assert.equal(frozen[0].id, retried.id);
  } finally {
    await engine.close();
  }
});

test("add of a ref already stored says so and stores nothing new (SQLite, CLI)", async () => {
  const db = join(tempDir(), "memory.db");
  const args = ["--db", db, "add", "Deploys are frozen on Fridays from noon", "--metadata", '{"ref": "ticket-4711"}'];
  const first = cli([...args, "--json"]);
  const again = cli(args);
  assert.equal(again.status, 0, again.stderr);
  assert.match(again.stdout, new RegExp(`^already stored \\(its ref\\), nothing new written: ${first.json.id} `));
  assert.equal((await cliHere(["--db", db, "stats", "--json"])).json.memories, 1);
});
