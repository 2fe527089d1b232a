/**
 * SQLite's page cache follows the store's size (backends/sqlite/connection.ts): a quarter of the file, between
 * 64 and 512 MB, set at open and again as writes grow the store.
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import Database from "better-sqlite3";
import { cacheBytesFor, fitCache } from "../src/backends/sqlite/connection.js";

const MB = 1024 * 1024;

test("a quarter of the store, between 64 and 512 MB", { skip: process.env.CASCADE_SQLITE_CACHE_MB ? "CASCADE_SQLITE_CACHE_MB fixes the size" : false }, () => {
  assert.equal(cacheBytesFor(0), 64 * MB);
  assert.equal(cacheBytesFor(100 * MB), 64 * MB);
  assert.equal(cacheBytesFor(1000 * MB), 250 * MB);
  assert.equal(cacheBytesFor(8000 * MB), 512 * MB);
});

test("fitCache sets the connection's cache for its current size, and raises it as the file grows", { skip: process.env.CASCADE_SQLITE_CACHE_MB ? "CASCADE_SQLITE_CACHE_MB fixes the size" : false }, () => {
  const db = new Database(":memory:");
  fitCache(db);
  assert.equal(db.pragma("cache_size", { simple: true }), -65536);
  // 300 MB of pages: the cache becomes a quarter of them
  db.pragma("page_size = 65536");
  db.exec("CREATE TABLE t (b BLOB)");
  const insert = db.prepare("INSERT INTO t VALUES (zeroblob(?))");
  db.transaction(() => {
    for (let i = 0; i < 300; i++) insert.run(MB);
  })();
  fitCache(db);
  const bytes = (db.pragma("page_count", { simple: true }) as number) * 65536;
  assert.ok(bytes > 300 * MB);
  assert.equal(db.pragma("cache_size", { simple: true }), -Math.round(bytes / 4 / 1024));
  db.close();
});
