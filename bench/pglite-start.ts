/**
 * What a new in-memory PGlite costs (pgvector and ltree loaded, started, one query, closed): the CPU time (user +
 * system) per database over `--runs` in a row in this process, as the test suite makes them. Run it with and
 * without CASCADE_PGLITE_TEMPLATE (the tarball test/warm-caches writes when that variable names a file) to compare
 * initdb with the template; CPU time, not wall time, because wall time on a shared machine measures the neighbours.
 *
 *   npx tsc -p tsconfig.json && CASCADE_PGLITE_TEMPLATE=/tmp/t.tar node dist/test/warm-caches.js
 *   CASCADE_PGLITE_TEMPLATE=/tmp/t.tar node dist/bench/pglite-start.js [--runs 6]
 *   node dist/bench/pglite-start.js [--runs 6]
 */
import { newPglite } from "../src/backends/postgres/open.js";
import { numberFlag } from "./args.js";

const runs = numberFlag("--runs", 6);
const start = process.cpuUsage();
for (let i = 0; i < runs; i++) {
  const db = newPglite();
  await db.waitReady;
  await db.query("SELECT 1");
  await db.close();
}
const used = process.cpuUsage(start);
const template = process.env.CASCADE_PGLITE_TEMPLATE ? "from the template" : "initdb";
process.stdout.write(`${runs} new PGlite databases (${template}): ${((used.user + used.system) / 1e6 / runs).toFixed(2)} s of CPU each\n`);
