/**
 * Run once by scripts/run-tests.sh before the test files start, several at once: the word-vector cache (the
 * default embedder's vectors, converted from the package's 307 MB of JSON on first use) is built here, once,
 * instead of by every file that would find it missing at the same moment on a fresh machine.
 *
 * With CASCADE_PGLITE_TEMPLATE set (run-tests.sh sets it to a file of its own), the data directory initdb makes is
 * written there as a tarball, once, and every new PGlite of the run is unpacked from it instead of running initdb
 * again (backends/postgres/open: newPglite).
 */
import { writeFileSync } from "node:fs";
import { loadGloveTable } from "../src/index.js";
import { newPglite } from "../src/backends/postgres/open.js";

loadGloveTable();

const template = process.env.CASCADE_PGLITE_TEMPLATE;
if (template) {
  delete process.env.CASCADE_PGLITE_TEMPLATE; // this one runs initdb: it is what the template is made of
  const pglite = newPglite();
  await pglite.waitReady;
  writeFileSync(template, Buffer.from(await (await pglite.dumpDataDir("none")).arrayBuffer()));
  await pglite.close();
}
