/**
 * The dense channel's similarity distribution on PostgreSQL (backends/postgres/vector-sql.ts similarityNull):
 * the sample's chunk ids are kept between queries and chosen again when the namespace changed, including by
 * another store (another process) writing to it; the figures always equal numbering every chunk afresh.
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import type { Queryable } from "../src/backends/postgres/connection.js";
import { PostgresStore } from "../src/backends/postgres/store.js";
import { toVectorText } from "../src/backends/postgres/vector-sql.js";
import { prepared, queryVector, stamp } from "./contract/fixture.js";
import { withSharedPglite } from "./shared-pglite.js";

/** The sample numbered afresh in one statement: every k-th chunk in id order, at most 2,048. */
async function reference(q: Queryable, ns: string, vector: Float32Array) {
  const [row] = await q.query<{ n: number; mean: number; sd: number }>(
    `WITH numbered AS (SELECT id, row_number() OVER (ORDER BY id) - 1 AS r, count(*) OVER () AS total FROM chunks WHERE namespace = $1)
     SELECT count(*)::int AS n, avg(-(c.vector <#> $2::vector)) AS mean, stddev_pop(-(c.vector <#> $2::vector)) AS sd
     FROM numbered x JOIN chunks c ON c.namespace = $1 AND c.id = x.id WHERE x.r % greatest(1, ceil(x.total::float8 / 2048)::bigint) = 0`,
    [ns, toVectorText(vector)],
  );
  return row;
}

test("the similarity sample is reused while the namespace is unchanged and chosen again after any store's write", async () => {
  await withSharedPglite(async (db) => {
    const a = await PostgresStore.open(db, { namespace: "ns" });
    const b = await PostgresStore.open(db, { namespace: "ns" });
    const notes = (from: number, n: number) => prepared(Array.from({ length: n }, (_, i) => ({ text: `note ${from + i} about billing ledger item${(from + i) % 37} part${(from + i) % 11}` })));
    assert.deepEqual(await a.similarityNull(queryVector("billing")), { mean: 0, sd: 0, rows: 0 });
    for (let i = 0; i < 3000; i += 1000) await a.writeMemories(await notes(i, 1000), stamp);
    const check = async (store: PostgresStore, text: string) => {
      const got = await store.similarityNull(queryVector(text));
      const want = await reference(db, "ns", queryVector(text));
      assert.equal(got.rows, want.n);
      assert.ok(Math.abs(got.mean - Number(want.mean)) < 1e-9 && Math.abs(got.sd - Number(want.sd)) < 1e-9, `${JSON.stringify(got)} vs ${JSON.stringify(want)}`);
      return got.rows;
    };
    assert.equal(await check(a, "billing ledger"), 1500); // every 2nd of 3,000
    assert.equal(await check(a, "item5 part3"), 1500); // the kept sample, another query
    await b.writeMemories(await notes(3000, 7), stamp); // another store writes: a's sample is stale
    assert.equal(await check(a, "billing ledger"), 1504); // every 2nd of 3,007
    assert.equal(await check(b, "billing ledger"), 1504);
    await a.close();
    await b.close();
  }, "pglite (null sample test)");
});
