#!/usr/bin/env node
/**
 * Runs the built test files (dist/test/*.test.js, dist/test/contract/*.test.js) with node:test's run(), N at a
 * time, the slowest first, and ends with the slowest files' durations on stderr.
 *
 * Why not `node --test FILES`: Node 20 sorts the files it is given, so a file of two minutes whose name sorts late
 * starts when the others are nearly done and the run ends with one core busy. run() starts them in the order given.
 * SLOWEST_FIRST is that order, from a run's own summary (the table this script prints): a file missing from the
 * list still runs, after these; a name here that no longer exists is skipped.
 *
 * Usage (scripts/run-tests.sh calls it): node [NODE_TEST_FLAGS...] scripts/run-tests.mjs
 * The node flags (e.g. --test-name-pattern=doctor) reach every test file's process. CASCADE_TEST_CONCURRENCY=N
 * changes the two (scripts/run-tests.sh says why two).
 */
import { existsSync, readdirSync } from "node:fs";
import { join, relative, resolve } from "node:path";
import { run } from "node:test";
import { spec } from "node:test/reporters";

const SLOWEST_FIRST = [
  "contract/postgres",
  "crash",
  "hnsw-forged",
  "reembed",
  "hnsw-file",
  "cli-pipes",
  "postgres-store",
  "language-total",
  "postgres-engine",
  "migrate",
  "postgres-scratch",
  "cli",
  "inspector",
  "bench-cli",
  "concurrency",
  "steps",
  "pack",
  "migrate-changed-source",
  "scope-2",
  "later-values",
  "read-once",
  "cli-start",
  "input-gaps",
  "pyramid",
  "migrate-resume",
  "eval",
  "graph-surfaces",
  "postgres-two-servers",
  "eval-readers",
  "heap",
  "no-store",
  "topics",
  "pyramid-scopes",
  "postgres-connection",
  "list",
  "idempotent-import",
  "purge-resume",
  "pyramid-context",
  "cv",
  "filters",
  "contract/postgres-bm25",
];

const root = resolve(new URL("..", import.meta.url).pathname);
const dir = join(root, "dist", "test");
const all = [
  ...readdirSync(dir).filter((f) => f.endsWith(".test.js")).map((f) => join(dir, f)),
  ...readdirSync(join(dir, "contract")).filter((f) => f.endsWith(".test.js")).map((f) => join(dir, "contract", f)),
].sort();
const first = SLOWEST_FIRST.map((name) => join(dir, `${name}.test.js`)).filter((f) => existsSync(f));
const files = [...first, ...all.filter((f) => !first.includes(f))];

const durations = new Map();
const stream = run({ files, concurrency: Number(process.env.CASCADE_TEST_CONCURRENCY ?? 2) });
stream.on("test:fail", () => (process.exitCode = 1));
// each file's process ends with a test:complete of nesting 0 named by its path: its whole time, loading included
stream.on("test:complete", (event) => {
  if (event.nesting === 0 && files.includes(event.name)) durations.set(event.name, event.details.duration_ms);
});
stream.compose(new spec()).pipe(process.stdout);
stream.on("end", () => {
  const slowest = [...durations].sort((a, b) => b[1] - a[1]).slice(0, 15);
  process.stderr.write(`\nslowest files (s):\n${slowest.map(([f, ms]) => `${(ms / 1000).toFixed(1).padStart(7)}  ${relative(dir, f)}`).join("\n")}\n`);
});
