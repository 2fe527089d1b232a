/**
 * The store contract against the PostgreSQL store:
 *   - on PGlite in this process: one in-memory database for the suite, each store in a namespace of its own, so
 *     every case also runs beside the rows of the others (PGlite's start-up, initdb in WebAssembly, and the
 *     migrations are paid once, not per store). A case named in OWN_DATABASE gets a fresh database instead;
 *   - on PGlite without pgvector, as on a server that lacks it (Debian's PostgreSQL): vectors in a `real[]`
 *     column, dense search in process (backends/postgres/vector-matrix.ts); shared the same way;
 *   - through the `pg` driver and its pool, on PGlite served over a socket (pglite-socket, 127.0.0.1, a free
 *     port): the wire protocol, type parsing and transactions of a real server connection. One database for the
 *     whole suite, each store in a namespace of its own.
 *     One connection, the socket server's default (several are multiplexed onto PGlite's one session:
 *     test/postgres-two-servers.test.ts and docs/POSTGRES.md, "Several processes, one store");
 *   - on the server named by CASCADE_PG_URL, when set (each store in a namespace of its own).
 */
import assert from "node:assert/strict";
import { after, test } from "node:test";
import type { PGlite } from "@electric-sql/pglite";
import { PGLiteSocketServer } from "@electric-sql/pglite-socket";
import { pgliteDatabase, type Database } from "../../src/backends/postgres/connection.js";
import { newPglite, openPostgresUrl } from "../../src/backends/postgres/open.js";
import { PostgresStore } from "../../src/backends/postgres/store.js";
import { storeContract, type ContractCase } from "./store-contract.js";
import { loggingDatabase, routingProblem, type Logged } from "./citus-routing.js";
import { PG_SKIP, PG_URL } from "../pg-server.js";

/**
 * The cases that get a database of their own on PGlite, and why; every other case gets a namespace in the suite's
 * shared database. A re-embedding drops its side table when no namespace of the database still re-embeds, and the
 * case ends with a re-embedding under way: on a shared database what it checks would hang on what the other
 * namespaces did, and what it leaves would reach the cases after it.
 */
const OWN_DATABASE = new Set<ContractCase>(["a re-embedding builds beside the live vectors and switches in one step"]);

/**
 * A store factory for one PGlite suite: `make` starts a PGlite; the suite's shared one is started by the first
 * case that asks and closed after the file (a store's close leaves it open: `owned: false`); a case in
 * OWN_DATABASE gets a fresh one per store, closed with it.
 */
function pgliteStores(make: () => PGlite, open = (db: Database, namespace: string) => PostgresStore.open(db, { namespace })) {
  let shared: PGlite | undefined;
  let opened = 0;
  after(async () => {
    if (shared && !shared.closed) await shared.close();
  });
  return async (name: ContractCase) => {
    const db = OWN_DATABASE.has(name) ? pgliteDatabase(make(), { owned: true }) : pgliteDatabase((shared ??= make()), { owned: false });
    return open(db, `contract_${++opened}`);
  };
}

/** What the PGlite store sent, by statement text, for the routing check at the end. */
const statements = new Map<string, Logged>();
storeContract(
  "postgres on pglite",
  pgliteStores(newPglite, async (db, namespace) => {
    let opened = false; // the migrations on open are the schema's, not a namespace's
    const store = await PostgresStore.open(loggingDatabase(db, statements, namespace, () => opened), { namespace });
    opened = true;
    return store;
  }),
);

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
storeContract("postgres on pglite without pgvector", pgliteStores(() => newPglite(undefined, { pgvector: false })));

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
