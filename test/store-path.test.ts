/**
 * `--db` opens only Cascade stores: another application's SQLite file, a file that is not SQLite, a directory
 * and an empty path are refused with exit 2 and left exactly as they were.
 */
import assert from "node:assert/strict";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import Database from "better-sqlite3";
import { cli, cliHere, tempDir } from "./helpers.js";

test("another application's SQLite database is refused and left untouched", async () => {
  const path = join(tempDir(), "other_app.db");
  const other = new Database(path);
  other.exec("CREATE TABLE users (id INTEGER PRIMARY KEY, name TEXT); INSERT INTO users (name) VALUES ('ada')");
  other.close();
  const before = readFileSync(path);
  for (const args of [["stats"], ["add", "hello"]]) {
    const r = await cliHere(["--db", path, ...args, "--json"]);
    assert.equal(r.status, 2, r.stderr);
    assert.equal(r.json.error.code, "INVALID_INPUT");
    assert.match(r.stderr, /another application \(tables users\), not a Cascade store/);
  }
  assert.deepEqual(readFileSync(path), before, "not one byte changed (no tables added, no switch to WAL)");
});

test("a file that is not SQLite, a directory and an empty path are refused", async () => {
  const dir = tempDir();
  writeFileSync(join(dir, "notes.txt"), "just some text, long enough to have a header\n");
  mkdirSync(join(dir, "folder"));
  const cases: [string, RegExp][] = [
    [join(dir, "notes.txt"), /is not a SQLite database/],
    [join(dir, "folder"), /is a directory/],
    ["", /the store path is empty/],
  ];
  for (const [db, message] of cases) {
    const r = await cliHere(["--db", db, "stats", "--json"]);
    assert.equal(r.status, 2, `${db}: ${r.stderr}`);
    assert.match(r.stderr, message);
  }
  assert.equal(readFileSync(join(dir, "notes.txt"), "utf8"), "just some text, long enough to have a header\n");
});

test("a new path, an empty file and an existing store all open", async () => {
  const dir = tempDir();
  writeFileSync(join(dir, "empty.db"), "");
  for (const db of [join(dir, "new.db"), join(dir, "empty.db")]) {
    assert.equal(cli(["--db", db, "add", "a first memory"]).status, 0);
    const again = await cliHere(["--db", db, "stats", "--json"]);
    assert.equal(again.status, 0, again.stderr);
    assert.equal(again.json.memories, 1);
  }
});

test("scratch stores on disk leave nothing behind once closed", async () => {
  const { scratchStores } = await import("../src/index.js");
  const { existsSync } = await import("node:fs");
  const { dirname } = await import("node:path");
  const store = await scratchStores("files")("bench run/1");
  const path = (store as unknown as { path: string }).path;
  await store.settle();
  assert.ok(existsSync(path));
  await store.close();
  assert.equal(existsSync(dirname(path)), false, "the store's own folder is removed with it");
});
