/**
 * Several processes writing one store at once: three SDK writer processes, `cascade serve` taking HTTP writes
 * and searches, and a `cascade import`, all for CASCADE_STRESS_MS (default 4 s; docs/RELIABILITY.md reports a
 * 20 s run). Every write must succeed: a deferred transaction that reads before it writes fails with
 * SQLITE_BUSY at once, whatever the busy timeout, so this test fails unless write transactions are IMMEDIATE.
 */
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { spawnServer } from "../bench/spawn-server.js";
import { openMemory } from "../src/index.js";
import { cli, cliHere, tempDir } from "./helpers.js";

const WRITER = new URL("./procs/writer.js", import.meta.url).pathname;
const CLI = new URL("../src/surfaces/cli/main.js", import.meta.url).pathname;
const MS = Number(process.env.CASCADE_STRESS_MS ?? 4000);
const IMPORT_LINES = 600;

function run(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, args, { stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d) => (stdout += d));
    child.stderr.on("data", (d) => (stderr += d));
    child.on("exit", (code) => resolve({ code, stdout, stderr }));
  });
}

test(`three writer processes, a server and an import on one store for ${MS} ms: 0 errors`, { timeout: MS + 60_000 }, async () => {
  const dir = tempDir();
  const db = join(dir, "shared.db");
  // no store yet: the five processes race to create it (schema migrations re-check their version under the lock)
  const lines = Array.from({ length: IMPORT_LINES }, (_, i) => JSON.stringify({ text: `imported line ${i} about the ledger retry queue`, ref: `line-${i}` }));
  writeFileSync(join(dir, "in.jsonl"), lines.join("\n") + "\n");

  const { child: server, url } = await spawnServer(db);
  try {
    const writers = [1, 2, 3].map((n) => run([WRITER, "write", db, String(MS), `w${n}`]));
    const importer = run([CLI, "--db", db, "import", join(dir, "in.jsonl"), "--json"]);
    const http = { writes: 0, searches: 0, failures: [] as string[] };
    const deadline = Date.now() + MS;
    // at least one write and one search, however long a loaded machine takes over the first
    for (let i = 0; Date.now() < deadline || i < 2; i++) {
      const search = i % 2 === 1;
      const res = await fetch(`${url}/v1/${search ? "search" : "memories"}`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify(search ? { query: "ledger retry", k: 5 } : { text: `http memory ${i} about cache latency` }),
      });
      const body = await res.text();
      if (!res.ok) http.failures.push(`${res.status} ${body}`);
      else if (search) http.searches++;
      else http.writes++;
    }
    const results = await Promise.all(writers);
    const imported = await importer;

    for (const r of results) {
      assert.equal(r.code, 0, r.stderr);
      const summary = JSON.parse(r.stdout);
      assert.deepEqual(summary.errors, {}, `a writer failed: ${r.stdout}`);
      assert.ok(summary.acknowledged > 0);
    }
    assert.equal(imported.code, 0, imported.stderr);
    assert.deepEqual(JSON.parse(imported.stdout).failed, []);
    assert.equal(JSON.parse(imported.stdout).imported, IMPORT_LINES);
    assert.deepEqual(http.failures.slice(0, 3), [], `${http.failures.length} HTTP failures`);
    assert.ok(http.writes > 0 && http.searches > 0);

    const acknowledged = results.reduce((s, r) => s + JSON.parse(r.stdout).acknowledged, 0) + IMPORT_LINES + http.writes;
    const engine = await openMemory({ path: db });
    try {
      assert.equal((await engine.stats()).memories, acknowledged, "every acknowledged write is in the store, once");
      assert.equal((await engine.doctor()).ok, true);
    } finally {
      await engine.close();
    }
    process.stderr.write(
      `# concurrency: ${MS} ms, writers acknowledged ${results.map((r) => JSON.parse(r.stdout).acknowledged).join("/")}, ` +
        `http ${http.writes} writes + ${http.searches} searches, import ${IMPORT_LINES}, errors 0\n`,
    );
  } finally {
    server.kill("SIGTERM");
  }
});

test("a lock held longer than the busy timeout is STORE_ERROR, and the import exits 1 rather than dropping lines", async () => {
  const dir = tempDir();
  const db = join(dir, "locked.db");
  await (await openMemory({ path: db })).close();
  writeFileSync(join(dir, "in.jsonl"), '{"text": "first good line"}\n{"text": "second good line"}\n');
  const { default: Database } = await import("better-sqlite3");
  const holder = new Database(db);
  holder.exec("BEGIN IMMEDIATE");
  try {
    const env = { CASCADE_BUSY_TIMEOUT_MS: "200" };
    const r = cli(["--db", db, "import", join(dir, "in.jsonl"), "--json"], { env });
    assert.equal(r.status, 1, r.stdout + r.stderr);
    assert.equal(r.json.error.code, "STORE_ERROR");
    assert.match(r.stderr, /locked by another writer for more than 0\.2 s/);
    const add = cli(["--db", db, "add", "one more", "--json"], { env });
    assert.equal(add.status, 1);
    assert.equal(add.json.error.code, "STORE_ERROR");
  } finally {
    holder.exec("ROLLBACK");
    holder.close();
  }
  const after = await cliHere(["--db", db, "import", join(dir, "in.jsonl"), "--json"]);
  assert.equal(after.status, 0, after.stderr);
  assert.equal(after.json.imported, 2);
});

test("a search on a store whose summaries are behind answers while another writer holds the lock: the open's catch-up gives way", async () => {
  const dir = tempDir();
  const db = join(dir, "behind.db");
  const first = await openMemory({ path: db });
  await first.remember({ text: "The deploy freeze ends on Friday.", at: "2026-06-16T09:00:00Z" });
  await first.close();
  // written with the pyramid off: its windows are left for the next open's catch-up
  const off = await openMemory({ path: db, pyramid: { enabled: false } });
  await off.remember({ text: "The deploy freeze was extended to Monday.", at: "2026-06-16T15:00:00Z" });
  await off.close();
  const { default: Database } = await import("better-sqlite3");
  const holder = new Database(db);
  holder.exec("BEGIN IMMEDIATE");
  try {
    // the catch-up's first write used to run outside a transaction: SQLite's own "database is locked", exit 1
    const r = cli(["--db", db, "search", "deploy freeze", "--json"], { env: { CASCADE_BUSY_TIMEOUT_MS: "200" } });
    assert.equal(r.status, 0, r.stderr);
    assert.equal(r.json.hits.length, 2);
  } finally {
    holder.exec("ROLLBACK");
    holder.close();
  }
});
