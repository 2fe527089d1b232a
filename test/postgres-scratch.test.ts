/**
 * Throwaway stores on PostgreSQL (`scratchStores(url)`, `--store postgres://…` of eval and bench): each is a
 * namespace of its own, deleted with its HNSW index when the store closes, so a run leaves nothing behind on the
 * server. The deletion is checked on PGlite (always); the CLI on a real server only with CASCADE_PG_URL (a named
 * skip without it). A `--store` that is none of sqlite, pglite or a postgres:// URL is refused with exit 2.
 */
import assert from "node:assert/strict";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { poolDatabase, type Database } from "../src/backends/postgres/connection.js";
import { hnswIndexName } from "../src/backends/postgres/hnsw-sql.js";
import { PostgresStore } from "../src/backends/postgres/store.js";
import { TABLES } from "../src/backends/postgres/schema.js";
import { prepared, queryVector, stamp } from "./contract/fixture.js";
import { cli, cliHere, tempDir } from "./helpers.js";
import { withSharedPglite } from "./shared-pglite.js";
import { tinyLocomo as conversation } from "./fixtures/tiny-locomo.js";
import { PG_SKIP, PG_URL } from "./pg-server.js";

const url = PG_URL;
const skip = PG_SKIP;

/** Rows of namespaces matching `pattern` (LIKE) in every table, and the HNSW indexes named for `namespaces`. */
async function leftovers(db: Database, pattern: string): Promise<Record<string, number>> {
  const out: Record<string, number> = {};
  for (const t of TABLES) {
    const [{ n }] = await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${t} WHERE namespace LIKE $1`, [pattern]);
    if (n > 0) out[t] = n;
  }
  return out;
}

test("a store dropped on close leaves no row and no HNSW index of its namespace; other namespaces keep theirs", async () => {
  await withSharedPglite(async (db) => {
    const keep = await PostgresStore.open(db, { namespace: "keep" });
    await keep.writeMemories(await prepared([{ text: "kept note about billing", tags: ["kept"] }]), stamp);
    const scratch = await PostgresStore.open(db, { namespace: "scratch_test", dropOnClose: true, approximate: { above: 10 } });
    await scratch.writeMemories(
      await prepared(Array.from({ length: 40 }, (_, i) => ({ text: `scratch note ${i} about billing and the ledger`, tags: ["t"], metadata: { team: "core" }, topic: "ops.db" }))),
      stamp,
    );
    await scratch.settle(); // builds the namespace's HNSW index (above 10 chunks)
    assert.equal((await scratch.nearestChunks({ vector: queryVector("billing ledger"), depth: 5, filter: {} })).length, 5);
    const index = hnswIndexName("scratch_test", stamp.dimensions);
    assert.equal((await db.query("SELECT 1 FROM pg_indexes WHERE indexname = $1", [index])).length, 1, "the index was built");
    assert.ok(Object.keys(await leftovers(db, "scratch_test")).length >= 5, "rows in several tables before closing");
    await scratch.close();
    await scratch.close(); // a second close is harmless
    assert.deepEqual(await leftovers(db, "scratch_test"), {});
    assert.equal((await db.query("SELECT 1 FROM pg_indexes WHERE indexname = $1", [index])).length, 0, "the index was dropped");
    assert.equal((await keep.stats()).memories, 1);
    await keep.close();
    await assert.rejects(PostgresStore.open(db, { dropOnClose: true }), /namespace of its own/);
  }, "pglite (scratch test)");
});

test("a --store that is not sqlite, pglite or a postgres:// URL is refused: exit 2, one line naming --store", async () => {
  // bench owns its process (helpers cliHere refuses it): a process; eval through the CLI in this process
  for (const [args, run] of [
    [["bench", "--chunks", "10", "--store", "mysql"], cli],
    [["bench", "--chunks", "10", "--store", "postgres://localhost/db#namespace=a"], cli],
    [["eval", "locomo", tempDir(), "--store", "sqlite:memory"], cliHere],
  ] as const) {
    const r = await run([...args]);
    assert.equal(r.status, 2, `${args.join(" ")}: ${r.stderr}`);
    assert.match(r.stderr, /--store/);
    assert.equal(r.stderr.trim().split("\n").length, 1, r.stderr);
  }
});


test("eval and bench with --store postgres://… give SQLite's figures and leave no namespace on the server", { skip }, async () => {
  const dir = tempDir();
  writeFileSync(join(dir, "conv-1.json"), JSON.stringify(conversation));
  writeFileSync(join(dir, "conv-2.json"), JSON.stringify({ ...conversation, session_1: conversation.session_1.slice(1) }));
  const db = poolDatabase(url!, { max: 1 });
  try {
    // the SQLite figures through the CLI in this process (helpers cliHere); the runs on the server are processes,
    // their namespaces named after their pids
    const onSqlite = await cliHere(["eval", "locomo", dir, "--no-ablation", "--json"]);
    assert.equal(onSqlite.status, 0, onSqlite.stderr);
    const onServer = cli(["eval", "locomo", dir, "--no-ablation", "--store", url!, "--json"]);
    assert.equal(onServer.status, 0, onServer.stderr);
    assert.deepEqual(onServer.json.overall, onSqlite.json.overall);
    // the children's namespaces are scratch_<their pid>_…; other runs on the server may hold scratch namespaces of their own
    const bench = cli(["bench", "--chunks", "300", "--queries", "5", "--store", url!, "--json"]);
    assert.equal(bench.status, 0, bench.stderr);
    assert.equal(bench.json.chunks, 300);
    assert.equal(bench.json["ann_recall@10"], 1);
    for (const [name, pid] of [["eval", onServer.pid], ["bench", bench.pid]] as const) {
      assert.ok(pid);
      assert.deepEqual(await leftovers(db, `scratch\\_${pid}\\_%`), {}, `${name} left rows behind`);
    }
  } finally {
    await db.close();
  }
});
