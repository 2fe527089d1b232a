/**
 * Imports converge: importing a file twice, or re-running an import that was killed half-way, leaves one copy of
 * each line (by `ref`, else by a hash of the line). `--no-dedupe` keeps every copy.
 */
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import Database from "better-sqlite3";
import { test } from "node:test";
import { openMemory } from "../src/index.js";
import { cli, cliHere, tempDir } from "./helpers.js";

const CLI = new URL("../src/surfaces/cli/main.js", import.meta.url).pathname;

function file(dir: string, lines: number): string {
  const path = join(dir, "in.jsonl");
  const rows = Array.from({ length: lines }, (_, i) =>
    // every third line has a ref; the rest are deduplicated by content, and have no `at` (stamped at import time)
    JSON.stringify(i % 3 === 0 ? { text: `line ${i} about the ledger`, ref: `r${i}` } : { text: `line ${i} about the queue`, tags: ["t"] }),
  );
  writeFileSync(path, rows.join("\n") + "\n");
  return path;
}

test("importing the same file twice adds nothing the second time", async () => {
  const dir = tempDir();
  const db = join(dir, "twice.db");
  const path = file(dir, 30);
  const first = cli(["--db", db, "import", path, "--json"]);
  assert.equal(first.status, 0, first.stderr);
  assert.deepEqual([first.json.imported, first.json.skipped], [30, 0]);
  const second = await cliHere(["--db", db, "import", path, "--json"]);
  assert.deepEqual([second.json.imported, second.json.skipped, second.json.failed], [0, 30, []]);
  assert.equal((await cliHere(["--db", db, "stats", "--json"])).json.memories, 30);
  const forced = await cliHere(["--db", db, "import", path, "--no-dedupe", "--json"]);
  assert.equal(forced.json.imported, 30);
  assert.equal((await cliHere(["--db", db, "stats", "--json"])).json.memories, 60);
});

test("an import killed half-way and run again converges to one copy of each line", async () => {
  const dir = tempDir();
  const db = join(dir, "resume.db");
  // Large enough that even a fast machine is still importing when the first batches are visible (an earlier
  // 1,500-line version finished before the first poll on CI). The child is frozen with SIGSTOP before it is
  // counted, so the count cannot move between the look and the kill. The first commit is one write batch (256
  // memories): 6,000 lines leave more than 5,700 still to import, seconds of the child's CPU against a 5 ms poll
  // (the rest is what the second import does: 30,000 lines made this test most of the file's time).
  const lines = 6_000;
  const path = file(dir, lines);
  await (await openMemory({ path: db })).close(); // schema in place, so the poll below never races the migration
  const stored = () => {
    const conn = new Database(db, { readonly: true, fileMustExist: true });
    try {
      return (conn.prepare("SELECT count(*) AS n FROM memories").get() as { n: number }).n;
    } finally {
      conn.close();
    }
  };
  await new Promise<void>((resolve) => {
    const child = spawn(process.execPath, [CLI, "--db", db, "import", path, "--no-detect"], { stdio: "ignore" });
    const poll = setInterval(() => {
      if (stored() > 0) {
        clearInterval(poll);
        child.kill("SIGSTOP");
        child.kill("SIGKILL");
      }
    }, 5);
    child.on("exit", () => {
      clearInterval(poll);
      resolve();
    });
  });
  const partial = (await cliHere(["--db", db, "stats", "--json"])).json.memories;
  assert.ok(partial > 0 && partial < lines, `the kill landed half-way (${partial} stored)`);
  const again = await cliHere(["--db", db, "import", path, "--no-detect", "--json"]);
  assert.equal(again.status, 0, again.stderr);
  assert.equal(again.json.skipped, partial);
  assert.equal(again.json.imported, lines - partial);
  assert.equal((await cliHere(["--db", db, "stats", "--json"])).json.memories, lines);
});

test("the SDK deduplicates when asked; refs of skipped lines still resolve `supersedes`", async () => {
  const engine = await openMemory({ path: join(tempDir(), "sdk.db") });
  const first = await engine.rememberMany([{ text: "Pool size is 50.", metadata: { ref: "a" } }, { text: "Plain note." }], { dedupe: true });
  const again = await engine.rememberMany(
    [{ text: "Pool size is 50.", metadata: { ref: "a" } }, { text: "Plain note." }, { text: "Pool size is 20 now.", supersedes: "a" }],
    { dedupe: true },
  );
  assert.deepEqual([again.imported, again.skipped], [1, 2]);
  assert.deepEqual(again.ids.slice(0, 2), first.ids, "a skipped line names the memory that holds it");
  assert.deepEqual((await engine.history(first.ids[0]!)).chain.map((c) => c.id), [first.ids[0], again.ids[2]]);
  assert.equal((await engine.rememberMany([{ text: "Plain note." }])).imported, 1, "off by default in the SDK");
  await engine.close();
});
