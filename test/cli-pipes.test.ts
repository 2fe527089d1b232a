/**
 * The CLI's output written to a pipe its reader closed, or to a full disk. Before, `cascade search x | head -1`,
 * `export` and `list` printed an unhandled EPIPE stack and exited 1, and `export > /dev/full` printed an ENOSPC
 * stack. Now a closed pipe ends the command quietly with exit 0, and a full disk is one line on stderr, exit 1.
 * The pipe is closed before the CLI writes anything (the reader's end destroyed at once), so every write meets it.
 */
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { closeSync, existsSync, openSync, writeFileSync } from "node:fs";
import { test } from "node:test";
import { cli, tempDir } from "./helpers.js";
import { join } from "node:path";

const CLI = new URL("../src/surfaces/cli/main.js", import.meta.url).pathname;
const dir = tempDir();
const db = join(dir, "memory.db");
writeFileSync(join(dir, "notes.jsonl"), Array.from({ length: 200 }, (_, i) => JSON.stringify({ text: `Project note ${i}: the release train moved on by step ${i}` })).join("\n"));
assert.equal(cli(["import", join(dir, "notes.jsonl"), "--db", db]).status, 0);

/** Runs the CLI with its stdout a pipe whose reading end is closed at once; resolves its exit code and stderr. */
function closedPipe(args: string[]): Promise<{ code: number | null; stderr: string }> {
  const child = spawn(process.execPath, [process.env.CASCADE_TEST_CLI ?? CLI, ...args], { stdio: ["ignore", "pipe", "pipe"] });
  child.stdout.destroy();
  let stderr = "";
  child.stderr.on("data", (d) => (stderr += d));
  return new Promise((resolve) => child.on("close", (code) => resolve({ code, stderr })));
}

for (const args of [["search", "project"], ["export"], ["list"], ["search", "project", "--json"]]) {
  test(`cascade ${args.join(" ")} into a closed pipe ends quietly with exit 0`, async () => {
    const r = await closedPipe([...args, "--db", db]);
    assert.equal(r.stderr, "", "nothing on stderr");
    assert.equal(r.code, 0);
  });
}

/** As closedPipe, but the reader takes the first line before it closes (`cascade export | head -1`). */
function firstLineThenClose(args: string[]): Promise<{ code: number | null; stderr: string; first: string }> {
  const child = spawn(process.execPath, [process.env.CASCADE_TEST_CLI ?? CLI, ...args], { stdio: ["ignore", "pipe", "pipe"] });
  let [stdout, stderr] = ["", ""];
  child.stdout.on("data", (d) => {
    stdout += d;
    if (stdout.includes("\n")) child.stdout.destroy();
  });
  child.stderr.on("data", (d) => (stderr += d));
  return new Promise((resolve) => child.on("close", (code) => resolve({ code, stderr, first: stdout.split("\n")[0] })));
}

// output larger than a pipe's buffer (64 KiB), so that writes are still to come when the reader leaves
const big = join(dir, "big.db");
writeFileSync(join(dir, "more.jsonl"), Array.from({ length: 700 }, (_, i) => JSON.stringify({ text: `Project note ${i}: the release train moved on by step ${i} of the plan` })).join("\n"));
assert.equal(cli(["import", join(dir, "more.jsonl"), "--db", big]).status, 0);

for (const args of [["export"], ["list", "--limit", "1000"], ["search", "project", "-k", "700"]]) {
  test(`cascade ${args.join(" ")} read for one line, then the pipe closed: exit 0, nothing on stderr`, async () => {
    const r = await firstLineThenClose([...args, "--db", big]);
    assert.notEqual(r.first, "", "the reader got its line");
    assert.equal(r.stderr, "", "nothing on stderr");
    assert.equal(r.code, 0);
  });
}

test("cascade export to a full disk (/dev/full) says so in one line, exit 1", { skip: !existsSync("/dev/full") && "no /dev/full here" }, async () => {
  const full = openSync("/dev/full", "w");
  try {
    const child = spawn(process.execPath, [process.env.CASCADE_TEST_CLI ?? CLI, "export", "--db", db], { stdio: ["ignore", full, "pipe"] });
    let stderr = "";
    child.stderr!.on("data", (d) => (stderr += d));
    const code = await new Promise((resolve) => child.on("close", resolve));
    assert.equal(code, 1);
    assert.match(stderr, /^cascade: cannot write the output: no space left on the disk it goes to \(ENOSPC\)\n$/);
  } finally {
    closeSync(full);
  }
});
