/**
 * What a `cascade` command loads: the modules a command does not use stay unread. Each run preloads a
 * probe that records every ES module and CommonJS file the process loaded, then the test names the ones that
 * must be absent. (What that costs in CPU time is measured by bench/cli-start.ts, never here.)
 */
import assert from "node:assert/strict";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { describe, test } from "node:test";
import Database from "better-sqlite3";
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

  test("stats, list and show read the store without zod, the SDK's front door, the engine or its write path (src/light.ts)", () => {
    const added = cli(["add", "The freeze moved to Monday", "--json", "--db", db, "--now", NOW]);
    assert.equal(added.status, 0, added.stderr);
    const id = JSON.parse(added.stdout).id as string;
    for (const args of [["stats"], ["list", "--limit", "5", "--order", "desc"], ["show", id]]) {
      const r = loaded([...args, "--db", db, "--now", NOW]);
      assert.equal(r.status, 0, r.stderr);
      assert.ok(r.files.some((f) => f.includes("/dist/src/api/reader.js")), `${args[0]} read through api/reader.js`);
      for (const part of [
        "/node_modules/zod/",
        "/dist/src/index.js",
        "/dist/src/api/engine.js",
        "/dist/src/api/open.js",
        "/dist/src/api/write-path.js",
        "/dist/src/api/list.js",
        "/dist/src/ingest/",
        "/dist/src/pyramid/build.js",
        "/dist/src/config/file.js",
        "/dist/src/query/where.js",
        "/dist/src/surfaces/cli/program.js",
        "/dist/src/surfaces/cli/commands/memory-commands.js",
      ])
        absent(r.files, part);
    }
  });

  test("stats, list and show open the SQLite store without the parts a read of its rows does not use (store-parts.ts)", () => {
    for (const args of [["stats"], ["list", "--limit", "5"], ["show", JSON.parse(cli(["list", "--json", "--limit", "1", "--db", db]).stdout).memories[0].id]]) {
      const r = loaded([...args, "--db", db, "--now", NOW]);
      assert.equal(r.status, 0, r.stderr);
      assert.ok(r.files.some((f) => f.includes("/dist/src/backends/sqlite/store.js")), `${args[0]} opened the SQLite store`);
      for (const part of [
        "/dist/src/backends/sqlite/store-parts.js",
        "/dist/src/backends/sqlite/vector-index.js",
        "/dist/src/vectors/hnsw.js",
        "/dist/src/backends/sqlite/threads.js",
        "/dist/src/backends/sqlite/side-reader.js",
        "/dist/src/backends/sqlite/write-thread.js",
        "/dist/src/backends/sqlite/lexical-sql.js",
        "/dist/src/backends/sqlite/live-search.js",
        "/dist/src/backends/sqlite/copy-sql.js",
        "/dist/src/backends/sqlite/reembed-sql.js",
        "/dist/src/backends/sqlite/doctor-store.js",
        "/dist/src/backends/sqlite/purge.js",
        "/dist/src/backends/sqlite/topics-sql.js",
        "/dist/src/backends/sqlite/write-batch.js",
      ])
        absent(r.files, part);
    }
  });

  test("a read that needs more than reading takes the engine's way: a --filter, a config file, a store whose pyramid is behind", () => {
    const filtered = loaded(["list", "--json", "--filter", "speaker=nobody", "--db", db, "--now", NOW]);
    assert.equal(filtered.status, 0, filtered.stderr);
    assert.deepEqual(JSON.parse(filtered.stdout).memories, []);
    const config = join(dir, "cascade.config.json");
    writeFileSync(config, JSON.stringify({ db }));
    const configured = loaded(["stats", "--json", "--config", config]);
    assert.equal(configured.status, 0, configured.stderr);
    assert.ok(configured.files.some((f) => f.includes("/dist/src/api/engine.js")), "a config file opens the engine");
    assert.ok(JSON.parse(configured.stdout).memories >= 1);
    // a store from before the turn level: the engine's catch-up on open runs, as it always did
    const meta = (value?: string) => {
      const sqlite = new Database(db);
      try {
        if (value !== undefined) sqlite.prepare("UPDATE meta SET value = ? WHERE key = 'engine.pyramid.turn_level'").run(value);
        return sqlite.prepare("SELECT value FROM meta WHERE key = 'engine.pyramid.turn_level'").pluck().get();
      } finally {
        sqlite.close();
      }
    };
    assert.equal(meta("0"), "0");
    const behind = loaded(["stats", "--json", "--db", db, "--now", NOW]);
    assert.equal(behind.status, 0, behind.stderr);
    assert.ok(behind.files.some((f) => f.includes("/dist/src/api/engine.js")), "a pyramid behind opens the engine");
    assert.equal(meta(), "1", "the catch-up ran");
  });
});
