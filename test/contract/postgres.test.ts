/**
 * The store contract against the PostgreSQL store: on PGlite in this process (a fresh in-memory database per
 * store), and on a server given by CASCADE_PG_URL (each store in a namespace of its own, so runs never see
 * each other's rows).
 */
import { openPglite, openPostgresUrl } from "../../src/backends/postgres/open.js";
import { storeContract } from "./store-contract.js";

storeContract("postgres on pglite", async () => openPglite());

const url = process.env.CASCADE_PG_URL;
if (url) {
  const run = `contract_${process.pid}_${Date.now()}`;
  let n = 0;
  storeContract("postgres server (CASCADE_PG_URL)", async () => openPostgresUrl(url, { namespace: `${run}_${n++}` }));
}
