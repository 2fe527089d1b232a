/**
 * What a `cascade` command loads: the modules a command does not use stay unread (issue 48). Each run preloads a
 * probe that records every ES module and CommonJS file the process loaded, then the test names the ones that
 * must be absent. (What that costs in CPU time is measured by bench/cli-start.ts, never here.)
 */
import assert from "node:assert/strict";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { describe, test } from "node:test";
import { cli, tempDir } from "./helpers.js";

const NOW = "2026-06-20T09:00:00Z";

describe("what a cascade command loads", () => {
  const dir = tempDir();
  const db = join(dir, "start.db");
  const hooks = join(dir, "hooks.mjs");
  writeFileSync(hooks, `import { appendFileSync } from "node:fs";
export async function load(url, context, next) { appendFileSync(process.env.LOADED_OUT, url + "\\n"); return next(url, context); }`);
  const probe = join(dir, "probe.mjs");
  writeFileSync(probe, `import { register, createRequire } from "node:module";
import { appendFileSync } from "node:fs";
register(${JSON.stringify(pathToFileURL(hooks).href)});
const requireHere = createRequire(import.meta.url);
process.on("exit", () => appendFileSync(process.env.LOADED_OUT, Object.keys(requireHere.cache).join("\\n") + "\\n"));`);

  /** Runs the CLI; its status, stdout and every module file it loaded. */
  function loaded(args: string[]): { status: number | null; stdout: string; stderr: string; files: string[] } {
    const out = join(dir, `loaded-${args[0].replace(/\W/g, "")}.txt`);
    writeFileSync(out, "");
    const r = cli(args, { env: { NODE_OPTIONS: `--import ${pathToFileURL(probe).href}`, LOADED_OUT: out } });
    return { status: r.status, stdout: r.stdout, stderr: r.stderr, files: readFileSync(out, "utf8").split("\n").filter(Boolean) };
  }
  const absent = (files: string[], part: string) => assert.deepEqual(files.filter((f) => f.includes(part)), [], `${part} was loaded`);

  test("--version reads package.json and nothing of the engine", () => {
    const r = loaded(["--version"]);
    assert.equal(r.status, 0, r.stderr);
    assert.match(r.stdout, /^\d+\.\d+\.\d+/);
    for (const part of ["/node_modules/zod/", "/node_modules/commander/", "/node_modules/better-sqlite3/", "/dist/src/index.js"]) absent(r.files, part);
  });

  test("stats, list and show answer without the tracing API, usearch, the tagger, the search pipeline or the rarely used entry points", () => {
    const added = cli(["add", "The deploy freeze ends on Friday", "--json", "--db", db, "--now", NOW]);
    assert.equal(added.status, 0, added.stderr);
    const id = JSON.parse(added.stdout).id as string;
    for (const args of [["stats", "--json"], ["list", "--json"], ["show", id, "--json"]]) {
      const r = loaded([...args, "--db", db, "--now", NOW]);
      assert.equal(r.status, 0, r.stderr);
      assert.ok(JSON.parse(r.stdout), `${args[0]} answered`);
      // (the probe itself is in require.cache under the test's dir, not under these names)
      for (const part of [
        "/node_modules/@opentelemetry/api/",
        "/node_modules/usearch/",
        "/node_modules/wink-nlp/",
        "/node_modules/wink-eng-lite-web-model/",
        "/node_modules/cli-progress/",
        "/dist/src/api/search-actions.js",
        "/dist/src/api/migrate.js",
        "/dist/src/api/reembed.js",
        "/dist/src/api/backup.js",
        "/dist/src/bench/",
        "/dist/src/eval/cv-command.js",
      ])
        absent(r.files, part);
    }
  });
});
