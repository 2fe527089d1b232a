#!/usr/bin/env node
/**
 * Writes test/fixtures/upgrades/: one tiny SQLite store per earlier schema version, each made by the Cascade of
 * its time. For every first-parent commit of main that changed the SQLite schema, it checks the commit out with
 * `git worktree` into a temporary folder, transpiles its sources (TypeScript's transpileModule: no type check,
 * seconds instead of a minute), and with that version's own CLI adds four memories and one supersession. The
 * store is folded into one file (no write-ahead log), vacuumed and gzipped (a few KB), and manifest.json records
 * the commit, the schema version and the ids the old CLI gave.
 *
 * Run from the repository root after a build of the current tree: node scripts/make-upgrade-fixtures.mjs
 * (CASCADE_FIXTURE_COMMITS=sha,sha limits it to those commits). The current schema version gets no fixture.
 */
import { execFileSync, spawnSync } from "node:child_process";
import { gzipSync } from "node:zlib";
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, relative, resolve } from "node:path";
import { createRequire } from "node:module";

const require = createRequire(import.meta.url);
const ts = require("typescript");
const Database = require("better-sqlite3");

const root = resolve(dirname(new URL(import.meta.url).pathname), "..");
const out = join(root, "test", "fixtures", "upgrades");
const git = (...args) => execFileSync("git", ["-C", root, ...args], { encoding: "utf8" }).trim();
const { SCHEMA_VERSION } = await import(join(root, "dist/src/backends/sqlite/schema.js"));

const NOW = "2026-06-20T09:00:00Z";
const MEMORIES = [
  { text: "The billing service stores invoices in MySQL.", at: "2026-03-02T10:00:00Z" },
  { text: "The billing service stores invoices in PostgreSQL now, after the March migration.", at: "2026-05-04T10:00:00Z" },
  { text: "Alice runs the on-call rota for the payments team this quarter.", at: "2026-04-01T09:00:00Z" },
  { text: "The deploy pipeline waits for two approvals before production.", at: "2026-04-15T16:30:00Z" },
];

function transpile(src, dist) {
  for (const entry of readdirSync(src, { withFileTypes: true })) {
    const from = join(src, entry.name);
    if (entry.isDirectory()) {
      if (entry.name !== "client") transpile(from, join(dist, entry.name));
      continue;
    }
    if (!entry.name.endsWith(".ts") || entry.name.endsWith(".d.ts")) continue;
    const js = ts.transpileModule(readFileSync(from, "utf8"), {
      compilerOptions: { target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.ES2022, esModuleInterop: true },
      fileName: from,
    }).outputText;
    mkdirSync(dist, { recursive: true });
    writeFileSync(join(dist, entry.name.replace(/\.ts$/, ".js")), js);
  }
}

function storeMadeAt(commit) {
  const tree = mkdtempSync(join(tmpdir(), `cascade-old-${commit.slice(0, 7)}-`));
  try {
    git("worktree", "add", "--detach", tree, commit);
    symlinkSync(join(root, "node_modules"), join(tree, "node_modules"));
    transpile(join(tree, "src"), join(tree, "dist", "src"));
    const db = join(tree, "fixture.db");
    const cli = (...args) => {
      const r = spawnSync(process.execPath, [join(tree, "dist/src/surfaces/cli/main.js"), "--db", db, "--now", NOW, "--json", ...args], { encoding: "utf8", cwd: tree });
      if (r.status !== 0) throw new Error(`${commit.slice(0, 7)}: cascade ${args[0]} exited ${r.status}: ${r.stderr.trim()}`);
      return JSON.parse(r.stdout);
    };
    const ids = MEMORIES.map((m) => cli("add", m.text, "--at", m.at).id);
    let edge = null;
    try {
      edge = cli("supersede", ids[1], ids[0], "--reason", "moved to PostgreSQL");
    } catch {
      // a version before the memory graph: no supersede command
    }
    const conn = new Database(db);
    const version = conn.pragma("user_version", { simple: true });
    conn.pragma("wal_checkpoint(TRUNCATE)");
    conn.pragma("journal_mode = DELETE"); // one file; Cascade turns WAL back on when it opens it
    conn.exec("VACUUM");
    conn.close();
    return { version, bytes: readFileSync(db), ids, edge: edge ? { from: ids[1], to: ids[0] } : null };
  } finally {
    try {
      git("worktree", "remove", "--force", tree);
    } catch {
      rmSync(tree, { recursive: true, force: true });
      git("worktree", "prune");
    }
  }
}

const wanted = process.env.CASCADE_FIXTURE_COMMITS?.split(",").filter(Boolean);
const commits = wanted ?? git("rev-list", "--first-parent", "--reverse", "main", "--", "src/backends/sqlite/schema.ts").split("\n");
mkdirSync(out, { recursive: true });
const manifestPath = join(out, "manifest.json");
const manifest = (() => {
  try {
    return JSON.parse(readFileSync(manifestPath, "utf8"));
  } catch {
    return { now: NOW, memories: MEMORIES, stores: [] };
  }
})();
for (const commit of commits) {
  const made = storeMadeAt(commit);
  if (made.version >= SCHEMA_VERSION) {
    console.log(`${commit.slice(0, 7)}: schema ${made.version} is the current one; no fixture`);
    continue;
  }
  const file = `schema-${String(made.version).padStart(2, "0")}-${commit.slice(0, 7)}.db.gz`;
  writeFileSync(join(out, file), gzipSync(made.bytes, { level: 9 }));
  manifest.stores = manifest.stores.filter((s) => s.commit !== commit);
  manifest.stores.push({ file, commit, schema: made.version, ids: made.ids, edge: made.edge });
  manifest.stores.sort((a, b) => a.schema - b.schema || a.file.localeCompare(b.file));
  console.log(`${commit.slice(0, 7)}: schema ${made.version}, ${made.bytes.length} bytes → ${relative(root, join(out, file))} (${statSync(join(out, file)).size} gzipped)`);
}
writeFileSync(manifestPath, `${JSON.stringify(manifest, null, 2)}\n`);
