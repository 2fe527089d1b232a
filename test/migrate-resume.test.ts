/**
 * `cascade migrate` stopped part-way, by SIGKILL, SIGTERM and SIGINT, at five points (two namespaces). Before, the
 * target of a killed copy answered `stats` with 500 of 3,000 memories and exit 0, a rerun refused it ("already holds
 * a store") without saying the copy was interrupted, and each kill after the snapshot left a whole copy of the
 * source in the temporary folder. Now every command but migrate refuses the target in one line naming `cascade
 * migrate`, each rerun goes on from the last page that committed, and no snapshot is left: SIGTERM and SIGINT
 * remove it on their way out, the run after a SIGKILL removes the one it left. The copy is held at a chosen page
 * by CASCADE_MIGRATE_PAUSE_AFTER (surfaces/cli/commands/migrate-command), then signalled.
 */
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { mkdirSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { cli, cliAll, cliHere, rememberHere, tempDir } from "./helpers.js";

const CLI = new URL("../src/surfaces/cli/main.js", import.meta.url).pathname;
const dir = tempDir();
const tmp = join(dir, "tmp"); // the CLI's temporary folder (TMPDIR), so its snapshots are counted exactly
mkdirSync(tmp);
const source = join(dir, "source.db");
const target = join(dir, "target.db");
const env = { TMPDIR: tmp };
const snapshots = () => readdirSync(tmp).filter((f) => f.startsWith("cascade-snapshot-")).length;

const notes = (n: number, what: string) =>
  Array.from({ length: n }, (_, i) => ({ text: `${what} note ${i}: Rosalind moved the ${i % 7} service to rack ${i % 13}`, at: `2026-05-${String(1 + (i % 28)).padStart(2, "0")}T10:00:00Z` }));
// the source's two namespaces, written in this process (import has tests of its own)
await rememberHere(source, notes(240, "Ops"));
await rememberHere(source, notes(120, "Team"), "team");

/** Runs migrate held after its `page`th page, sends `signal` once it says so, and resolves its exit code and stderr. */
function stoppedMigrate(page: number, signal: NodeJS.Signals): Promise<{ code: number | null; stderr: string }> {
  const child = spawn(process.execPath, [CLI, "migrate", "--from", source, "--to", target, "--batch", "20"], {
    stdio: ["ignore", "ignore", "pipe"],
    env: { ...process.env, ...env, CASCADE_MIGRATE_PAUSE_AFTER: String(page) },
  });
  let stderr = "";
  let sent = false;
  child.stderr.on("data", (d) => {
    stderr += d;
    if (!sent && /paused after page/.test(stderr)) sent = child.kill(signal);
  });
  return new Promise((resolve) => child.on("close", (code) => resolve({ code, stderr })));
}

const refusal = /target\.db is an incomplete copy: cascade migrate from .*source\.db was interrupted .*run `cascade migrate --from .*source\.db --to .*target\.db` again to resume it/;

test("a migrate stopped at five points resumes each time and ends with equal counts and no snapshot left", async () => {
  // each run goes on from the one before: pages are counted per run
  const stops: [number, NodeJS.Signals][] = [[3, "SIGKILL"], [4, "SIGTERM"], [5, "SIGINT"], [9, "SIGKILL"], [12, "SIGKILL"]];
  for (const [page, signal] of stops) {
    const run = await stoppedMigrate(page, signal);
    const what = `stopped by ${signal} after page ${page}`;
    if (signal === "SIGKILL") {
      assert.equal(run.code, null, what);
      assert.equal(snapshots(), 1, `${what}: nothing ran to remove the snapshot`);
    } else {
      assert.equal(run.code, signal === "SIGINT" ? 130 : 143, `${what}: ${run.stderr}`);
      assert.match(run.stderr, /interrupted .*marked incomplete: run the same cascade migrate again to resume it/, what);
      assert.equal(snapshots(), 0, `${what}: the snapshot went with the process`);
    }
    // four readers of the stopped copy at once: none of them writes (each refuses it). CLI processes after the first
    // stop, the CLI in this process after the others (helpers cliHere: the same output and exit code)
    const commands = [["stats"], ["doctor"], ["search", "rack"], ["list"]];
    const runs = commands.map((args) => [...args, "--db", target]);
    const refusals = page === stops[0][0] ? await cliAll(runs, { env, width: 4 }) : await Promise.all(runs.map((args) => cliHere(args)));
    for (const [i, args] of commands.entries()) {
      const r = refusals[i];
      assert.equal(r.status, 1, `${what}: ${args[0]} refuses the copy`);
      assert.match(r.stderr, refusal, `${what}: ${args[0]}`);
      assert.equal(r.stderr.trim().split("\n").length, 1, `${what}: one line`);
    }
  }
  // the last stop fell in the second namespace (the default one's pages are 22 of 38): the default namespace is
  // whole but stays marked until every namespace is in, the other is part-way. Only the migrate that resumes the copy
  // runs as a process from here on (its snapshot is counted in TMPDIR); the rest run the CLI in this process
  assert.match((await cliHere(["stats", "--db", target])).stderr, /interrupted before it finished/);
  const namespaced = await cliHere(["stats", "--db", target, "--namespace", "team"]);
  assert.equal(namespaced.status, 1);
  assert.match(namespaced.stderr, /interrupted after \d+ of \d+ records/);

  // a copy from another source, or from the unfinished copy, is refused
  const other = join(dir, "other.db");
  await rememberHere(other, notes(120, "Team"));
  const wrongSource = await cliHere(["migrate", "--from", other, "--to", target]);
  assert.equal(wrongSource.status, 2);
  assert.match(wrongSource.stderr, /holds an interrupted copy of .*source\.db, not of .*other\.db: resume it with --from/);
  const fromHalf = await cliHere(["migrate", "--from", target, "--to", join(dir, "third.db")]);
  assert.equal(fromHalf.status, 2);
  assert.match(fromHalf.stderr, /--from: .*is an incomplete copy/);

  const done = cli(["migrate", "--from", source, "--to", target, "--batch", "20", "--json"], { env });
  assert.equal(done.status, 0, done.stderr);
  assert.equal(done.json.ok, true, JSON.stringify(done.json.namespaces));
  assert.deepEqual(done.json.namespaces.map((n: { namespace: string; target: { memories: number } }) => [n.namespace, n.target.memories]), [["default", 240], ["team", 120]]);
  assert.equal(snapshots(), 0, "the last SIGKILL's snapshot was removed by the run that resumed");

  // a copy that was never stopped holds the same records
  const straight = join(dir, "straight.db");
  const once = await cliHere(["migrate", "--from", source, "--to", straight, "--json"]);
  assert.deepEqual(done.json.namespaces.map((n: { target: unknown }) => n.target), once.json.namespaces.map((n: { target: unknown }) => n.target));
  const [statsDefault, statsTeam, fromTarget, fromStraight] = await Promise.all(
    [...["default", "team"].map((ns) => ["stats", "--db", target, "--namespace", ns, "--json"]), ...[target, straight].map((db) => ["search", "Rosalind rack 3", "--db", db, "--json"])].map((args) => cliHere(args)),
  );
  for (const stats of [statsDefault, statsTeam]) assert.equal(stats.status, 0, stats.stderr);
  const hits = (r: { json: { hits: { id: string }[] } }) => r.json.hits.map((h) => h.id);
  assert.deepEqual(hits(fromTarget), hits(fromStraight), "the resumed copy answers as the straight one");
  const again = await cliHere(["migrate", "--from", source, "--to", target]);
  assert.equal(again.status, 2, "a whole copy is a store like any other: a new migrate into it is refused");
  assert.match(again.stderr, /already holds a store/);
});
