/**
 * A resumed `cascade migrate` whose source changed since the copy began. Before, the resume went on from the mark
 * and the copy silently held records of two states of the source (a memory added after the interruption was
 * copied or not depending on where its row fell; an edit to a memory already copied was lost). Now each page's
 * mark carries the source namespace's fingerprint (StoreCopy.fingerprint) and a resume compares it first: a source
 * that changed is refused in one line naming what changed and what to do (exit 2, nothing written); an unchanged
 * one resumes to equal counts. A SQLite source through the CLI (stopped by SIGKILL at a chosen page), then a
 * PGlite and a SQLite source through the SDK (stopped by an abort), with an edit and a forget.
 */
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { mkdirSync, rmSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { migrateStore, openMemory } from "../src/index.js";
import { cli, cliHere, rememberHere, tempDir } from "./helpers.js";

const CLI = new URL("../src/surfaces/cli/main.js", import.meta.url).pathname;

/** Runs migrate held after its `page`th page and kills it there (SIGKILL). */
function killedMigrate(source: string, target: string, page: number, env: Record<string, string>): Promise<number | null> {
  const child = spawn(process.execPath, [CLI, "migrate", "--from", source, "--to", target, "--batch", "20"], {
    stdio: ["ignore", "ignore", "pipe"],
    env: { ...process.env, ...env, CASCADE_MIGRATE_PAUSE_AFTER: String(page) },
  });
  let stderr = "";
  child.stderr.on("data", (d) => {
    stderr += d;
    if (/paused after page/.test(stderr)) child.kill("SIGKILL");
  });
  return new Promise((resolve) => child.on("close", (code) => resolve(code)));
}

test("cascade migrate: a resume from a source that changed is refused in one line (exit 2); an unchanged one resumes to equal counts", async () => {
  const dir = tempDir();
  const tmp = join(dir, "tmp");
  mkdirSync(tmp);
  const env = { TMPDIR: tmp };
  const source = join(dir, "source.db");
  const target = join(dir, "target.db");
  // the source, written in this process (import has tests of its own)
  await rememberHere(source, Array.from({ length: 120 }, (_, i) => ({ text: `Ops note ${i}: Rosalind moved the ${i % 7} service to rack ${i % 13}` })));

  assert.equal(await killedMigrate(source, target, 3, env), null);
  // the change and the target's state through the CLI in this process (helpers cliHere: neither reads TMPDIR);
  // the migrations, the subject, are processes
  assert.equal((await cliHere(["add", "Rosalind moved the billing service to rack 99", "--db", source])).status, 0);
  const refused = cli(["migrate", "--from", source, "--to", target, "--batch", "20"], { env });
  assert.equal(refused.status, 2, refused.stderr);
  const lines = refused.stderr.trim().split("\n");
  assert.equal(lines.length, 1, refused.stderr);
  assert.match(lines[0], /^cascade: --from: \S*source\.db changed since the interrupted copy into \S*target\.db began \(namespace default: memories 120 → 121, last_memory \d+ → \d+, .*\); resuming would mix two states of it: remove \S*target\.db and run cascade migrate again to copy it from the start$/);
  assert.match((await cliHere(["stats", "--db", target])).stderr, /incomplete copy/, "the target is as it was: marked");

  // what the line says to do, with the source left alone this time: the resume goes on and ends equal
  rmSync(target);
  assert.equal(await killedMigrate(source, target, 3, env), null);
  const resumed = cli(["migrate", "--from", source, "--to", target, "--batch", "20", "--json"], { env });
  assert.equal(resumed.status, 0, resumed.stderr);
  assert.equal(resumed.json.ok, true);
  assert.equal(resumed.json.namespaces[0].target.memories, 121);
  assert.deepEqual(resumed.json.namespaces[0].target, resumed.json.namespaces[0].source);
});

/** Copies `from` into `to` and stops it after its second page, as a Ctrl-C would. */
async function stoppedCopy(from: string, to: string): Promise<void> {
  const stop = new AbortController();
  let pages = 0;
  await assert.rejects(migrateStore({ from, to, batch: 5, signal: stop.signal, onProgress: () => void (++pages === 2 && stop.abort()) }));
}

for (const [name, location] of [["PGlite", (dir: string) => `pglite:${join(dir, "source-pg")}`], ["SQLite", (dir: string) => join(dir, "source.db")]] as const) {
  test(`migrateStore from ${name}: an edit or a forget in the source since the copy began refuses the resume; unchanged, it resumes`, async (t) => {
    const dir = tempDir();
    const from = location(dir);
    const to = join(dir, "target.db");
    if (name === "PGlite") {
      // one store held open to the end: the opens below (the copies', the changes') share its PGlite instance
      // (backends/postgres/open) instead of each starting PostgreSQL on the directory again, seconds of CPU each;
      // what the fingerprints compare is the source's content, the same either way
      const held = await openMemory({ path: from });
      t.after(() => held.close());
    }
    const engine = await openMemory({ path: from });
    let ids: (string | null)[];
    try {
      ids = (await engine.rememberMany(Array.from({ length: 30 }, (_, i) => ({ text: `Note ${i} on the ${i % 4} rollout` })))).ids;
    } finally {
      await engine.close();
    }
    const change = async (what: (e: Awaited<ReturnType<typeof openMemory>>) => Promise<unknown>) => {
      const e = await openMemory({ path: from });
      try {
        await what(e);
      } finally {
        await e.close();
      }
    };
    await stoppedCopy(from, to);
    await change((e) => e.update(ids[0]!, { text: "Note 0 on the rollout, corrected" }));
    await assert.rejects(migrateStore({ from, to, batch: 5 }), (err: Error & { code?: string }) => {
      assert.equal(err.code, "INVALID_INPUT");
      assert.match(err.message, /changed since the interrupted copy .* began \(namespace default: [^)]*revisions 0 → 1[^)]*\); resuming would mix two states of it: remove /);
      return true;
    });
    rmSync(to);
    await stoppedCopy(from, to);
    await change((e) => e.forget(ids[1]!));
    await assert.rejects(migrateStore({ from, to, batch: 5 }), /namespace default: memories 30 → 29/);
    rmSync(to);
    await stoppedCopy(from, to);
    const report = await migrateStore({ from, to, batch: 5 });
    assert.equal(report.ok, true);
    assert.equal(report.namespaces[0].target.memories, 29);
  });
}
