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
import { after } from "node:test";
import { PGlite } from "@electric-sql/pglite";
import { ltree } from "@electric-sql/pglite/contrib/ltree";
import { PGLiteSocketServer } from "@electric-sql/pglite-socket";
import { pgliteDatabase } from "../../src/backends/postgres/connection.js";
import { newPglite, openPglite, openPostgresUrl } from "../../src/backends/postgres/open.js";
import { PostgresStore } from "../../src/backends/postgres/store.js";
import { storeContract } from "./store-contract.js";

storeContract("postgres on pglite", async () => openPglite());
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

const url = process.env.CASCADE_PG_URL;
if (url) {
  const run = `contract_${process.pid}_${Date.now()}`;
  let n = 0;
  storeContract("postgres server (CASCADE_PG_URL)", async () => openPostgresUrl(url, { namespace: `${run}_${n++}` }));
}
