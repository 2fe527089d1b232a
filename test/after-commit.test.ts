/**
 * A disk that fills after a write's commit. The memory is stored; revision detection, which runs once it is
 * committed, then writes the edge or suggestion it found and meets a full disk: a real SQLITE_FULL from a real
 * file (CASCADE_SQLITE_MAX_PAGES caps the file, and a trigger makes the edge's insert ask for 40 MB). Before, the
 * write's answer was the store's error, "nothing was written" (exit 1), for a memory that was stored (a retry
 * without `ref` stored it twice). Now the answer is the stored memory with a warning naming the step, and the step
 * is kept for `doctor --repair`.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { test } from "node:test";
import Database from "better-sqlite3";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";

const CAP = "3000"; // pages of 4 KiB: 12 MB, room for every memory here and not for the trigger's 40 MB
process.env.CASCADE_SQLITE_MAX_PAGES = CAP; // read when the SQLite backend loads: before the engine is imported
const { openMemory, MemorySpace } = await import("../src/index.js");
const { startHttpServer } = await import("../src/surfaces/http/serve.js");
const { cli, cliHere, tempDir } = await import("./helpers.js");

const NOW = "2026-11-20T12:00:00Z";
const FIRST = { text: "My flight to Oslo is on Monday with Ingrid.", at: "2026-11-01T09:00:00Z" };
const SECOND = { text: "My flight to Oslo moved to Tuesday, Ingrid says.", at: "2026-11-02T09:00:00Z" };

/** Whatever detection adds after the commit needs more room than the disk has left. */
function fillOnDetection(db: string): void {
  const raw = new Database(db);
  raw.exec(`CREATE TABLE filler (b BLOB);
    CREATE TRIGGER fill_edges BEFORE INSERT ON edges BEGIN INSERT INTO filler VALUES (zeroblob(40000000)); END;
    CREATE TRIGGER fill_suggestions BEFORE INSERT ON suggestions BEGIN INSERT INTO filler VALUES (zeroblob(40000000)); END;`);
  raw.close();
}

const count = (db: string, sql: string) => {
  const raw = new Database(db, { readonly: true });
  try {
    return (raw.prepare(sql).get() as { n: number }).n;
  } finally {
    raw.close();
  }
};

test("cascade add: a disk full after the commit is a warning on the stored memory, exit 0, never 'nothing was written'", async () => {
  const db = join(tempDir(), "memory.db");
  const env = { CASCADE_SQLITE_MAX_PAGES: CAP };
  assert.equal(cli(["--db", db, "--now", NOW, "add", FIRST.text, "--at", FIRST.at], { env }).status, 0);
  fillOnDetection(db);
  const r = await cliHere(["--db", db, "--now", NOW, "add", SECOND.text, "--at", SECOND.at], { env });
  assert.equal(r.status, 0, r.stderr);
  assert.equal(r.stderr, "");
  const [first, ...rest] = r.stdout.trim().split("\n");
  assert.match(first, /^remembered (m_\w+) \(note, 2026-11-02T09:00:00Z\)$/);
  assert.deepEqual(rest, ["  warning: stored without revisions: STORE_ERROR: the disk holding the store is full (SQLITE_FULL) after the memory was stored; `cascade doctor --repair` runs detection again once there is space"]);
  const id = /^remembered (m_\w+)/.exec(first)![1];
  assert.equal(count(db, "SELECT count(*) AS n FROM memories WHERE kind <> 'summary'"), 2, "stored once");
  // the same answer as JSON: the id to look at, the warning
  const again = await cliHere(["--db", db, "--now", NOW, "add", "My flight to Oslo moved to Wednesday, Ingrid says.", "--at", "2026-11-03T09:00:00Z", "--json"], { env });
  assert.equal(again.status, 0, again.stderr);
  const json = again.json as { id: string; warnings: { step: string; reason: string }[] };
  assert.match(json.id, /^m_/);
  assert.deepEqual(json.warnings.map((w) => w.step), ["revisions"]);
  assert.match(json.warnings[0].reason, /full \(SQLITE_FULL\) after the memory was stored/);
  const shown = await cliHere(["--db", db, "show", id, "--json"]);
  assert.equal(shown.status, 0, shown.stderr);
  assert.equal((shown.json as { text: string }).text, SECOND.text);
});

test("remember and rememberMany: the stored memory with a warning, and the step kept for doctor --repair", async () => {
  const db = join(tempDir(), "memory.db");
  let engine = await openMemory({ path: db, now: Date.parse(NOW) });
  await engine.remember(FIRST);
  await engine.close();
  fillOnDetection(db);
  engine = await openMemory({ path: db, now: Date.parse(NOW) });
  try {
    const r = await engine.remember(SECOND);
    assert.match(r.id, /^m_/);
    assert.deepEqual(r.warnings?.map((w) => w.step), ["revisions"]);
    assert.match(r.warnings![0].reason, /^STORE_ERROR: the disk holding the store is full \(SQLITE_FULL\) after the memory was stored/);
    assert.equal((await engine.show(r.id)).text, SECOND.text);
    const batch = await engine.rememberMany([{ text: "My flight to Oslo moved to Thursday, Ingrid says.", at: "2026-11-03T09:00:00Z" }]);
    assert.equal(batch.imported, 1);
    assert.deepEqual(batch.failed, []);
    assert.deepEqual(batch.warnings.map((w) => [w.index, w.step]), [[0, "revisions"]]);
    const waiting = (await engine.doctor()).checks.find((c) => c.name === "enrichment")!;
    assert.match(waiting.detail, /failed enrichment steps wait \(revisions 2\)/);
  } finally {
    await engine.close();
  }
});

test("HTTP POST /v1/memories and MCP memory_add: the stored memory (201) with the warning, and the MCP text says it", async () => {
  const db = join(tempDir(), "memory.db");
  const engine = await openMemory({ path: db, now: Date.parse(NOW) });
  await engine.remember(FIRST);
  await engine.close();
  fillOnDetection(db);
  const server = await startHttpServer(new MemorySpace(db, { now: Date.parse(NOW) }), { host: "127.0.0.1", port: 0 });
  try {
    const res = await fetch(`${server.url}/v1/memories`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(SECOND) });
    const body = (await res.json()) as { id: string; warnings: { step: string; reason: string }[] };
    assert.equal(res.status, 201, JSON.stringify(body));
    assert.match(body.id, /^m_/);
    assert.deepEqual(body.warnings.map((w) => w.step), ["revisions"]);
  } finally {
    await server.close();
  }
  const CLI = new URL("../src/surfaces/cli/main.js", import.meta.url).pathname;
  const client = new Client({ name: "cascade-test", version: "1.0.0" });
  await client.connect(new StdioClientTransport({ command: process.execPath, args: [CLI, "mcp", "--db", db, "--now", NOW], env: { ...process.env, CASCADE_SQLITE_MAX_PAGES: CAP } as Record<string, string>, stderr: "pipe" }));
  try {
    const r = (await client.callTool({ name: "memory_add", arguments: { text: "My flight to Oslo moved to Friday, Ingrid says.", at: "2026-11-04T09:00:00Z" } })) as { isError?: boolean; content: { text: string }[] };
    assert.notEqual(r.isError, true, r.content[0].text);
    const text = r.content.map((c) => c.text).join("\n");
    assert.match(text, /^Remembered \[m_\w+\]/);
    assert.match(text, /\nWarning: stored without revisions: STORE_ERROR: the disk holding the store is full \(SQLITE_FULL\) after the memory was stored/);
  } finally {
    await client.close();
  }
});

test("with the pyramid off, a long memory whose turn-node note meets a full disk is stored and answered, and its close does not fail", async () => {
  const db = join(tempDir(), "memory.db");
  let engine = await openMemory({ path: db, now: Date.parse(NOW), pyramid: { enabled: false } });
  await engine.remember({ text: "first note" });
  await engine.close();
  const raw = new Database(db);
  raw.exec(`CREATE TABLE filler (b BLOB);
    CREATE TRIGGER fill_note BEFORE INSERT ON meta WHEN NEW.key = 'engine.pyramid.turn_level' BEGIN INSERT INTO filler VALUES (zeroblob(40000000)); END;
    CREATE TRIGGER fill_note_again BEFORE UPDATE ON meta WHEN NEW.key = 'engine.pyramid.turn_level' BEGIN INSERT INTO filler VALUES (zeroblob(40000000)); END;`);
  raw.close();
  engine = await openMemory({ path: db, now: Date.parse(NOW), pyramid: { enabled: false } });
  const long = Array.from({ length: 80 }, (_, i) => `Sentence ${i} of the long design note says the parser and the planner share one cache.`).join(" ");
  const r = await engine.remember({ text: long });
  assert.match(r.id, /^m_/);
  assert.equal((await engine.show(r.id)).text, long);
  await engine.close();
});

test("rememberMany stopped by a full disk part-way says how many memories it stored, and from which input none was", async () => {
  const db = join(tempDir(), "memory.db");
  let engine = await openMemory({ path: db, now: Date.parse(NOW) });
  await engine.remember({ text: "first note" });
  await engine.close();
  // the third item's insert asks for more room than the disk has: its batch (the second) is not stored
  const raw = new Database(db);
  raw.exec(`CREATE TABLE filler (b BLOB);
    CREATE TRIGGER fill BEFORE INSERT ON memories WHEN NEW.text LIKE '%disk fills here%' BEGIN INSERT INTO filler VALUES (zeroblob(40000000)); END;`);
  raw.close();
  engine = await openMemory({ path: db, now: Date.parse(NOW) });
  try {
    const items = ["The parser work moved on.", "The cache work moved on.", "The disk fills here.", "The planner work moved on."].map((text) => ({ text }));
    await assert.rejects(engine.rememberMany(items, { batchSize: 2, detect: false }), (err: Error & { code?: string }) => {
      assert.equal(err.code, "STORE_ERROR");
      assert.match(err.message, /^stored 2 memories \(inputs before index 2\), then stopped: the disk holding the store \S+ is full \(SQLITE_FULL\): free some space and try again; inputs from index 2 on were not stored$/);
      return true;
    });
    assert.equal((await engine.stats()).memories, 3);
  } finally {
    await engine.close();
  }
});
