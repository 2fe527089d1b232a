import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { join } from "node:path";
import { test } from "node:test";
import pg from "pg";
import { openMemory } from "../src/index.js";
import { PG_SKIP, PG_URL } from "./pg-server.js";
import { tempDir } from "./helpers.js";

const NOW = Date.parse("2026-06-20T09:00:00Z");
const hasTools = spawnSync("pg_dump", ["--version"]).status === 0 && spawnSync("pg_restore", ["--version"]).status === 0;

// the commands docs/OPERATIONS.md gives, run as written there
test("a pg_dump of a Cascade database restores into an empty database and searches", { skip: PG_SKIP || (!hasTools && "needs pg_dump and pg_restore on PATH") }, async () => {
  const namespace = `dump_${process.pid}`;
  const source = `${PG_URL}#namespace=${namespace}`;
  const engine = await openMemory({ path: source, now: NOW });
  const { ids } = await engine.rememberMany([
    { text: "The billing service stores invoices in MySQL.", at: "2026-03-02" },
    { text: "The billing service stores invoices in PostgreSQL now.", at: "2026-05-04" },
    { text: "Alice runs the on-call rota this quarter.", at: "2026-04-01" },
  ]);
  await engine.supersede(ids[1]!, ids[0]!, { reason: "moved" });
  await engine.close();

  const dump = join(tempDir(), "cascade.dump");
  const dumped = spawnSync("pg_dump", ["--format=custom", "--no-owner", "--file", dump, PG_URL!], { encoding: "utf8" });
  assert.equal(dumped.status, 0, dumped.stderr);

  const restoredDb = `cascade_restore_${process.pid}`;
  const admin = new pg.Client({ connectionString: PG_URL });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE ${restoredDb}`);
    const target = PG_URL!.replace(/\/[^/]*$/, `/${restoredDb}`);
    const restored = spawnSync("pg_restore", ["--no-owner", "--dbname", target, dump], { encoding: "utf8" });
    assert.equal(restored.status, 0, restored.stderr);
    const copy = await openMemory({ path: `${target}#namespace=${namespace}`, create: false, now: NOW });
    try {
      assert.equal((await copy.stats()).memories, 3);
      assert.deepEqual((await copy.history(ids[0]!)).chain.map((m) => m.id), [ids[0], ids[1]]);
      assert.equal((await copy.recall("where are the invoices stored", { k: 1 })).hits[0].id, ids[1]);
      assert.ok((await copy.doctor()).ok);
    } finally {
      await copy.close();
    }
  } finally {
    await admin.query(`DROP DATABASE IF EXISTS ${restoredDb} WITH (FORCE)`).catch(() => undefined);
    await admin.end();
  }
});
