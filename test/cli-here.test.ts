/**
 * The CLI run in a test's process (helpers cliHere, surfaces/cli/run.ts) prints what the binary prints: the same
 * bytes on stdout and stderr and the same exit code, for help, a read's human and JSON output, a streamed export,
 * a usage error with --json, a refusal of the store and a command that sets its exit code without failing. Most
 * CLI calls in the other test files run this way; this file is why their text comparisons still hold for the
 * binary.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { test } from "node:test";
import { demoCorpus } from "../src/index.js";
import { cliAll, cliHere, rememberHere, tempDir } from "./helpers.js";

test("the CLI in the test's process prints the binary's bytes and exits with its code", async () => {
  const dir = tempDir();
  const db = join(dir, "m.db");
  await rememberHere(db, demoCorpus);
  const runs = [
    ["--help"],
    ["search", "--help"],
    ["pyramid"],
    ["--db", db, "list", "--limit", "3"],
    ["--db", db, "stats", "--json"],
    ["--db", db, "export", "--since", "2026-01-01"],
    ["--db", db, "search", "x", "-k", "zero", "--json"],
    ["--db", join(dir, "absent.db"), "doctor"],
    ["--db", db, "doctor", "--json"],
  ];
  const spawned = await cliAll(runs, { width: 2 });
  for (const [i, args] of runs.entries()) {
    const here = await cliHere(args);
    const want = spawned[i];
    assert.ok(want.stdout.length + want.stderr.length > 0, `${args.join(" ")}: the binary printed something`);
    // doctor's JSON holds its checks' timings: compared without them
    const norm = (s: string) => s.replace(/"took_ms": [\d.]+/g, '"took_ms": 0');
    assert.deepEqual([here.status, norm(here.stdout), here.stderr], [want.status, norm(want.stdout), want.stderr], args.join(" "));
  }
});

test("a run on the process's own streams (the binary's, entered without an AsyncLocalStorage) and a run on streams of its own keep their output and exit codes apart", async () => {
  const dir = tempDir();
  const db = join(dir, "m.db");
  await rememberHere(db, demoCorpus.slice(0, 3));
  const { run } = await import("../src/surfaces/cli/run.js");
  const { io, ownIo, withIo } = await import("../src/surfaces/cli/io.js");
  const sink = () => {
    const chunks: string[] = [];
    return { chunks, write: (s: string) => (chunks.push(s), true), once: () => undefined };
  };
  // the process's own record, its streams swapped for sinks while the test runs (the binary's are process.stdout...)
  const own = ownIo();
  const saved = { stdout: own.stdout, stderr: own.stderr, exitCode: own.exitCode };
  const [ownOut, ownErr, out, err] = [sink(), sink(), sink(), sink()];
  Object.assign(own, { stdout: ownOut, stderr: ownErr });
  try {
    const [ownCode, code] = await Promise.all([
      run(["--db", join(dir, "absent.db"), "doctor"], own),
      run(["--db", db, "stats", "--json"], { stdout: out, stderr: err, stdin: own.stdin, env: process.env, exitCode: undefined }),
    ]);
    assert.equal(JSON.parse(out.chunks.join("")).memories, 3);
    assert.deepEqual(err.chunks, []);
    assert.equal(code, 0);
    assert.deepEqual(ownOut.chunks, []);
    assert.match(ownErr.chunks.join(""), /absent\.db/);
    assert.equal(ownCode, 2);
    // inside a run on the own streams, io() answers them, and a run nested in it answers its own
    const other = { ...own, stdout: sink() };
    assert.equal(await withIo(own, async () => io()), own);
    assert.equal(await withIo(own, () => withIo(other, async () => io())), other);
    assert.equal(await withIo(other, () => withIo(own, async () => io())), own);
  } finally {
    Object.assign(own, saved);
  }
});
