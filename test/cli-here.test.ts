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
