/**
 * Damaged stores: bytes flipped in the file of a closed store. Doctor reports what is damaged
 * however badly (a check that cannot read its pages fails, naming why); `--repair` rebuilds what the tables hold
 * (both FTS5 indexes, SQLite's own indexes) and says what it cannot; writes are refused while the store is known
 * damaged, and taken again once a repair passes the integrity check.
 */
import assert from "node:assert/strict";
import { closeSync, copyFileSync, openSync, readSync, writeSync } from "node:fs";
import { join } from "node:path";
import { before, test } from "node:test";
import Database from "better-sqlite3";
import { openMemory, parseInstant } from "../src/index.js";
import { cli, cliHere, tempDir } from "./helpers.js";

const NOW = "2026-06-03T10:00:00Z";
const now = parseInstant("now", NOW);
let pristine: string;

before(async () => {
  pristine = join(tempDir(), "pristine.db");
  const engine = await openMemory({ path: pristine, now });
  const work = ["parser", "indexer", "cache", "planner"];
  await engine.rememberMany(
    Array.from({ length: 160 }, (_, i) => ({
      text: `Note ${i}: the ${work[i % 4]} work moved on by step ${i}, with words w${i} and x${i * 7}`,
      title: i % 3 ? undefined : `Title ${i}`,
      at: `2026-05-${String(1 + (i % 28)).padStart(2, "0")}T09:00:00Z`,
    })),
  );
  await engine.close(); // the last connection: the log is checkpointed into the file
});

/** Offsets near the end of the middle leaf page of one b-tree: inside its last cells' data, not its structure. */
function leafTail(name: string, count: number): string {
  const path = join(tempDir(), "memory.db");
  copyFileSync(pristine, path);
  const db = new Database(path, { readonly: true });
  const pageSize = db.pragma("page_size", { simple: true }) as number;
  const leaves = db.prepare("SELECT pageno FROM dbstat WHERE name = ? AND pagetype = 'leaf' ORDER BY pageno").pluck().all(name) as number[];
  db.close();
  const page = leaves[Math.floor(leaves.length / 2)];
  flip(path, Array.from({ length: count }, (_, i) => page * pageSize - 8 * (i + 1) - 3));
  return path;
}

function flip(path: string, offsets: number[]): void {
  const fd = openSync(path, "r+");
  for (const at of offsets) {
    const b = Buffer.alloc(1);
    readSync(fd, b, 0, 1, at);
    b[0] ^= 0x5a;
    writeSync(fd, b, 0, 1, at);
  }
  closeSync(fd);
}

const integrity = (r: { checks: { name: string; ok: boolean; repaired?: boolean; detail: string }[] }) => r.checks.find((c) => c.name === "sqlite integrity")!;

test("a damaged FTS5 index: doctor names it, writes are refused, --repair rebuilds it and writes resume", async () => {
  const path = leafTail("chunks_fts_data", 8);
  const engine = await openMemory({ path, now });
  try {
    const found = await engine.doctor();
    assert.equal(found.ok, false);
    assert.match(integrity(found).detail, /fts5/);
    await assert.rejects(engine.remember({ text: "The cache work is done" }), (err: Error & { code?: string }) => err.code === "STORE_ERROR" && /failed its integrity check .*doctor --repair/.test(err.message));
    const repaired = await engine.doctor({ repair: true });
    assert.equal(repaired.ok, true);
    assert.equal(integrity(repaired).repaired, true);
    assert.equal((await engine.doctor()).checks.every((c) => c.ok), true, "a second doctor finds nothing");
    const added = await engine.remember({ text: "The cache work is done" });
    assert.equal((await engine.recall("cache work done", { k: 3 })).hits[0].id, added.id);
  } finally {
    await engine.close();
  }
});

test("an index that disagrees with its table: the store opens, doctor reports rows missing, --repair reindexes", async () => {
  const path = leafTail("memories_at", 2);
  const engine = await openMemory({ path, now }); // before: "database disk image is malformed" at open
  try {
    const found = await engine.doctor();
    assert.match(integrity(found).detail, /missing from index memories_at/);
    const repaired = await engine.doctor({ repair: true });
    assert.equal(repaired.ok, true);
    assert.equal((await engine.doctor()).checks.every((c) => c.ok), true);
  } finally {
    await engine.close();
  }
});

test("200 flipped bytes: doctor still reports, says what a repair cannot fix, and add is refused", async () => {
  const path = join(tempDir(), "memory.db");
  copyFileSync(pristine, path);
  const db = new Database(path, { readonly: true });
  const pageSize = db.pragma("page_size", { simple: true }) as number;
  // the schema and meta pages stay whole (without them nothing can be read, and doctor says only that)
  const pages = db.prepare("SELECT pageno FROM dbstat WHERE name NOT IN ('sqlite_schema', 'meta') ORDER BY pageno").pluck().all() as number[];
  db.close();
  let seed = 1;
  const rand = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
  flip(path, Array.from({ length: 200 }, () => (pages[Math.floor(rand() * pages.length)] - 1) * pageSize + Math.floor(rand() * pageSize)));

  for (const repair of [[], ["--repair"]]) {
    const r = await cliHere(["--db", path, "--now", NOW, "doctor", ...repair, "--json"]);
    assert.equal(r.status, 1, r.stderr);
    assert.equal(r.json.ok, false);
    assert.ok(r.json.checks.length >= 9, "every check reported");
    assert.match(integrity(r.json).detail, /not repairable here/);
  }
  const add = cli(["--db", path, "--now", NOW, "add", "The cache work is done", "--json"]);
  assert.equal(add.status, 1);
  assert.equal(add.json.error.code, "STORE_ERROR");
});
