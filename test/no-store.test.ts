/**
 * Reading never creates a store: every command but those that add memories (add, import, demo, mcp, topic
 * create|describe) answers NOT_FOUND (exit 2, one line) at a path with no store, and leaves no file or folder
 * behind; the SDK's openMemory({ create: false }) likewise.
 */
import assert from "node:assert/strict";
import { existsSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { CascadeError, openMemory } from "../src/index.js";
import { cli, cliHere, tempDir } from "./helpers.js";

const READS: string[][] = [
  ["search", "x"],
  ["list"],
  ["show", "m_x"],
  ["forget", "m_x"],
  ["forget", "--filter", "user=alice"],
  ["stats"],
  ["history", "m_x"],
  ["doctor"],
  ["topics"],
  ["pyramid", "show"],
  ["update", "m_x", "--text", "y"],
  ["retract", "e_x"],
];

test("a read at a path with no store is one NOT_FOUND line, exit 2, and creates no folder or file", async () => {
  const dir = tempDir();
  const db = join(dir, "nonexistent", "dir", "m.db");
  for (const args of READS) {
    const r = await cliHere([...args, "--db", db]);
    assert.equal(r.status, 2, `${args.join(" ")}: ${r.stderr}`);
    assert.equal(r.stderr, `cascade: no store at ${JSON.stringify(db)} (a store is created by its first write: add, import or demo)\n`, args.join(" "));
    assert.equal(r.stdout, "");
  }
  assert.equal(cli(["search", "x", "--db", db, "--json"]).json.error.code, "NOT_FOUND");
  assert.deepEqual(readdirSync(dir), [], "nothing was created");
});

test("a read in a folder without a store (the default ./.cascade/memory.db) creates no .cascade folder", () => {
  const dir = tempDir();
  for (const args of [["forget", "m_x"], ["list"], ["search", "x"]]) {
    const r = cli(args, { cwd: dir, env: { CASCADE_DB: "" } });
    assert.equal(r.status, 2, r.stderr);
    assert.match(r.stderr, /^cascade: no store at ".*\.cascade\/memory\.db"/);
  }
  assert.deepEqual(readdirSync(dir), []);
});

test("writing commands create the store; reads then work", async () => {
  const db = join(tempDir(), "new", "m.db");
  assert.equal(cli(["add", "The first memory.", "--db", db]).status, 0);
  assert.ok(existsSync(db));
  const r = await cliHere(["list", "--db", db]);
  assert.equal(r.status, 0, r.stderr);
  assert.match(r.stdout, /The first memory\./);
});

test("SDK: openMemory({ create: false }) refuses a missing store with NOT_FOUND and creates nothing", async () => {
  const dir = tempDir();
  const path = join(dir, "sub", "m.db");
  await assert.rejects(openMemory({ path, create: false }), (e: unknown) => e instanceof CascadeError && e.code === "NOT_FOUND" && /^no store at /.test(e.message));
  assert.deepEqual(readdirSync(dir), []);
  const engine = await openMemory({ path });
  await engine.close();
  const again = await openMemory({ path, create: false });
  await again.close();
});
