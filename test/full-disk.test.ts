/**
 * A full disk. SQLite's `max_page_count` (CASCADE_SQLITE_MAX_PAGES) stops the store file from
 * growing: a real SQLITE_FULL from a real file. The store holds windows the pyramid has not summarised yet, so
 * opening it wants to write. Reads and doctor must still answer; every write fails with STORE_ERROR naming the
 * full disk, and an import says how far it got.
 */
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { copyFileSync, writeFileSync } from "node:fs";
import Database from "better-sqlite3";
import { join } from "node:path";
import { before, test } from "node:test";
import { openMemory, parseInstant } from "../src/index.js";
import { cli, cliHere, tempDir } from "./helpers.js";

const NOW = "2026-06-03T10:00:00Z";
let db: string;
let firstId: string;
const FULL = { CASCADE_SQLITE_MAX_PAGES: "1" }; // below the file's size: it may not grow at all

before(async () => {
  db = join(tempDir(), "memory.db");
  // the pyramid off while writing: every day written stays a dirty window for the next open to summarise
  const engine = await openMemory({ path: db, now: parseInstant("now", NOW), pyramid: { enabled: false } });
  const days = ["2026-05-01", "2026-05-02", "2026-05-09", "2026-05-20"];
  const r = await engine.rememberMany(
    Array.from({ length: 40 }, (_, i) => ({ text: `Standup note ${i}: the ${["parser", "indexer", "cache", "planner"][i % 4]} work moved on by step ${i}`, at: `${days[i % 4]}T09:${String(i).padStart(2, "0")}:00Z` })),
  );
  firstId = r.ids[0]!;
  await engine.close();
});

const run = (args: string[], env = FULL) => cli(["--db", db, "--now", NOW, ...args, "--json"], { env });

test("on a full disk, stats, search, show, list and doctor answer", () => {
  const answers = new Map<string, any>();
  for (const args of [["stats"], ["search", "indexer work"], ["show", firstId], ["list", "--limit", "5"], ["doctor"]]) {
    const r = run(args);
    assert.equal(r.status, 0, `${args[0]}: ${r.stderr}`);
    answers.set(args[0], r.json);
  }
  assert.equal(answers.get("stats").memories, 40);
  assert.ok(answers.get("search").hits.length > 0);
  assert.equal(answers.get("show").id, firstId);
  assert.equal(answers.get("list").memories.length, 5);
  assert.equal(answers.get("doctor").ok, true);
});

test("on a full disk, a write is STORE_ERROR saying the disk is full, and nothing is written", () => {
  const r = run(["add", "The cache work is done"]);
  assert.equal(r.status, 1, r.stderr);
  assert.equal(r.json.error.code, "STORE_ERROR");
  assert.match(r.json.error.message, /full/);
  assert.match(r.stderr.trim(), /^[^\n]*full[^\n]*$/, "one line on stderr");
  assert.equal(run(["stats"]).json.memories, 40);
});

test("an import stopped by a full disk says how far it got", () => {
  const file = join(tempDir(), "notes.jsonl");
  writeFileSync(file, Array.from({ length: 600 }, (_, i) => JSON.stringify({ text: `Imported note ${i} about the ${i % 7} rollout`, ref: `n${i}` })).join("\n"));
  const r = run(["import", file]);
  assert.equal(r.status, 1, r.stderr);
  assert.equal(r.json.error.code, "STORE_ERROR");
  assert.match(r.json.error.message, /import stopped near line 1 after storing 0 memories: .*full.*run the same import again to resume/);
});

test("an import the disk fills part-way says how many memories it stored: what the store holds", async () => {
  const copy = join(tempDir(), "memory.db");
  copyFileSync(db, copy);
  const raw = new Database(copy);
  const pages = raw.pragma("page_count", { simple: true }) as number;
  raw.close();
  const file = join(tempDir(), "notes.jsonl");
  writeFileSync(file, Array.from({ length: 600 }, (_, i) => JSON.stringify({ text: `Imported note ${i} about the ${i % 7} rollout and the parser, cache and planner work that moved on`, ref: `n${i}` })).join("\n"));
  // room for one batch of 256 lines and not two (before, the answer was "after storing at least 0 memories")
  const env = { CASCADE_SQLITE_MAX_PAGES: String(pages + 100) };
  const r = cli(["--db", copy, "--now", NOW, "import", file, "--json"], { env });
  assert.equal(r.status, 1, r.stderr);
  const m = /^import stopped near line (\d+) after storing (\d+) memories: the disk holding the store \S+ is full \(SQLITE_FULL\): free some space and try again; run the same import again to resume \(lines already stored are skipped\)$/.exec(r.json.error.message);
  assert.ok(m, r.json.error.message);
  const stored = (await cliHere(["--db", copy, "--now", NOW, "stats", "--json"])).json.memories - 40;
  assert.ok(stored > 0, "the disk took some lines");
  assert.equal(Number(m[2]), stored, "the count is what the store holds");
  assert.equal(Number(m[1]), stored + 1, "the line is the first not stored");
});

test("a disk too full for the shared-memory file: the full disk named, not 'disk I/O error', and nothing written", { skip: process.platform === "win32" }, async () => {
  const copy = join(tempDir(), "memory.db");
  copyFileSync(db, copy);
  // a file-size limit of 8 KB (16 blocks of 512 bytes) stands in for a full disk: SQLite's first write into the
  // store's `-shm` file fails as it would on a full filesystem (EFBIG instead of ENOSPC, SIGXFSZ ignored), which
  // the driver reports as SQLITE_IOERR_SHMSIZE "disk I/O error" (a real full tmpfs: bench/full-disk.ts)
  const CLI = new URL("../src/surfaces/cli/main.js", import.meta.url).pathname;
  const r = spawnSync("sh", ["-c", `trap '' XFSZ; ulimit -f 16; exec "$0" "$@"`, process.execPath, CLI, "--db", copy, "--now", NOW, "add", "One more standup note", "--json"], { encoding: "utf8" });
  assert.equal(r.status, 1, r.stderr);
  assert.deepEqual(JSON.parse(r.stdout), {
    error: { code: "STORE_ERROR", message: `the disk holding the store ${copy} is full (SQLITE_IOERR_SHMSIZE: its shared-memory file could not grow); nothing was written: free some space and try again` },
  });
  assert.equal((await cliHere(["--db", copy, "--now", NOW, "stats", "--json"])).json.memories, 40);
});
