/**
 * The store contract against the PostgreSQL store:
 *   - on PGlite in this process, a fresh in-memory database per store;
 *   - on PGlite without pgvector, as on a server that lacks it (Debian's PostgreSQL): vectors in a `real[]`
 *     column, dense search in process (backends/postgres/vector-matrix.ts);
 *   - through the `pg` driver and its pool, on PGlite served over a socket (pglite-socket, 127.0.0.1, a free
 *     port): the wire protocol, type parsing and transactions of a real server connection. One database for the
 *     whole suite, each store in a namespace of its own, so every case also runs beside the rows of the others.
 *     One connection, the socket server's default (several are multiplexed onto PGlite's one session:
 *     test/postgres-two-servers.test.ts and docs/POSTGRES.md, "Several processes, one store");
 *   - on the server named by CASCADE_PG_URL, when set (each store in a namespace of its own).
 */
import assert from "node:assert/strict";
import { after, test } from "node:test";
import { PGlite } from "@electric-sql/pglite";
import { ltree } from "@electric-sql/pglite/contrib/ltree";
import { PGLiteSocketServer } from "@electric-sql/pglite-socket";
import { pgliteDatabase } from "../../src/backends/postgres/connection.js";
import { newPglite, openPglite, openPostgresUrl } from "../../src/backends/postgres/open.js";
import { PostgresStore } from "../../src/backends/postgres/store.js";
import { storeContract } from "./store-contract.js";
import { loggingDatabase, routingProblem, type Logged } from "./citus-routing.js";
import { PG_SKIP, PG_URL } from "../pg-server.js";

/** What the PGlite store sent, by statement text, for the routing check at the end. */
const statements = new Map<string, Logged>();
let storesOpened = 0;
storeContract("postgres on pglite", async () => {
  const namespace = `contract_${++storesOpened}`;
  let opened = false; // the migrations on open are the schema's, not a namespace's
  const store = await PostgresStore.open(loggingDatabase(pgliteDatabase(newPglite(), { owned: true }), statements, namespace, () => opened), { namespace });
  opened = true;
  return store;
});

/**
 * Distribution by namespace (Citus): every statement the store sent in the contract run reads and writes one
 * namespace, so it would route to one shard. The exceptions are named: listing every namespace of a database
 * (copy's source listing) is an operator's question, and whether any namespace is still re-embedding is asked once at
 * the end of a re-embedding; both fan out to every shard by design.
 */
test("every statement the store sends stays within one namespace (routes to one Citus shard)", async () => {
  assert.ok(statements.size > 100, `only ${statements.size} statements were logged`);
  // listing every namespace (copy's source), and whether any namespace still re-embeds (the side table is dropped
  // when none does): both ask about every namespace by design
  const crossNamespace = /^(SELECT namespace FROM meta UNION SELECT namespace FROM topics|SELECT 1 FROM reembed_vectors LIMIT 1)/;
  const db = pgliteDatabase(newPglite(), { owned: true });
  await PostgresStore.open(db, { namespace: "routing" }); // the schema, for EXPLAIN
  // and the tables the store makes at run time (the re-embedding's side table)
  for (const s of statements.values()) if (/^\s*CREATE TABLE/i.test(s.sql)) await db.exec(s.sql);
  try {
    const problems: string[] = [];
    for (const s of statements.values()) {
      if (crossNamespace.test(s.sql)) continue;
      const problem = await routingProblem(db, s);
      if (problem) problems.push(`${problem}:\n  ${s.sql.replace(/\s+/g, " ").slice(0, 300)}`);
    }
    assert.deepEqual(problems, []);
  } finally {
    await db.close();
  }
});
storeContract("postgres on pglite without pgvector", async () => PostgresStore.open(pgliteDatabase(new PGlite({ extensions: { ltree } }), { owned: true })));

let served: Promise<{ server: PGLiteSocketServer; url: string }> | undefined;
function socketServer() {
  served ??= (async () => {
    const db = newPglite();
    await db.waitReady;
    const server = new PGLiteSocketServer({ db, host: "127.0.0.1", port: 0 });
    await server.start();
    return { server, url: `postgres://postgres@${server.getServerConn()}/postgres?sslmode=disable` };
  })();
  return served;
}
after(async () => {
  if (!served) return;
  const { server } = await served;
  await server.stop();
  await server.db.close();
});
let socketStores = 0;
storeContract("postgres via pg driver on pglite-socket", async () => {
  const { url } = await socketServer();
  return openPostgresUrl(url, { namespace: `socket_${socketStores++}`, poolSize: 1 });
});

const url = PG_URL;
if (url) {
  const run = `contract_${process.pid}_${Date.now()}`;
  let n = 0;
  storeContract("postgres server (CASCADE_PG_URL)", async () => openPostgresUrl(url, { namespace: `${run}_${n++}` }));
} else test("store contract: postgres server (CASCADE_PG_URL)", { skip: PG_SKIP }, () => {});
