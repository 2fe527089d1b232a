#!/usr/bin/env node
/**
 * Runs the built test files (dist/test/*.test.js, dist/test/contract/*.test.js) with node:test's run(), N at a
 * time, the slowest first, and ends with the slowest files' durations on stderr.
 *
 * Why not `node --test FILES`: Node 20 sorts the files it is given, so a file of two minutes whose name sorts late
 * starts when the others are nearly done and the run ends with one core busy. run() starts them in the order given.
 * SLOWEST_FIRST is that order, from a run's own summary (the table this script prints); a name here that no longer
 * exists is skipped. Each of these files runs in its own process.
 *
 * The other files share processes, several to a process (below): each test file's process costs 0.7-1.5 s of CPU
 * before its first test (Node, node:test, the SDK's modules, the tagger, the word vectors), which for most of them
 * is more than their tests. A shared process is a generated file that imports its files statically: all of them
 * are loaded, and all their tests registered, before the first test starts; the tests then run one at a time, in
 * the order of the files and of the tests in them, under their own names. (A test registered once the run is under
 * way starts at once, before the rest of its file's top-level code has run, so a file is never imported later.)
 * A file runs alone all the same when it has a top-level await (the files after it would load late), or when its
 * compiled text changes what the process holds for the other files: a beforeEach or afterEach at the top level
 * (every file's tests would run it), process.env written, a listener on the process, a global tracer provider or
 * context manager, or the fixture that sets a variable before the SDK loads (OWN_PROCESS_IF, below). A file's
 * top-level `before` runs before the process's first test, and its `after` when the process's last one is done.
 *
 * Usage (scripts/run-tests.sh calls it): node [NODE_TEST_FLAGS...] scripts/run-tests.mjs
 * The node flags (e.g. --test-name-pattern=doctor) reach every test file's process. CASCADE_TEST_CONCURRENCY=N
 * changes the two (scripts/run-tests.sh says why two); CASCADE_TEST_SHARED=0 runs every file in its own process.
 */
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { run } from "node:test";
import { spec } from "node:test/reporters";

const SLOWEST_FIRST = [
  "contract/postgres",
  "crash",
  "inspector",
  "language-total",
  "hnsw-forged",
  "reembed",
  "hnsw-file",
  "postgres-store",
  "write-thread",
  "later-values",
  "concurrency",
  "pack",
  "steps",
  "read-once",
  "bench-cli",
  "postgres-engine",
  "cli",
  "postgres-two-servers",
  "full-disk",
  "cli-pipes",
  "input-gaps",
  "cli-start",
];

const root = resolve(new URL("..", import.meta.url).pathname);
const dir = join(root, "dist", "test");
const all = [
  ...readdirSync(dir).filter((f) => f.endsWith(".test.js")).map((f) => join(dir, f)),
  ...readdirSync(join(dir, "contract")).filter((f) => f.endsWith(".test.js")).map((f) => join(dir, "contract", f)),
].sort();
const first = SLOWEST_FIRST.map((name) => join(dir, `${name}.test.js`)).filter((f) => existsSync(f));

/** What in a compiled test file makes it run in its own process (the header says why). */
const OWN_PROCESS_IF = [
  /^(await |(const|let|var) [^=\n]+= await |for await)/m, // a top-level await
  /^(beforeEach|afterEach)\(/m, // a hook of the process's root test that every test would run
  /process\.env(\.\w+|\[[^\]]+\])\s*=[^=]|delete process\.env/, // the environment written
  /process\.(on|once|chdir|exit)\(/, // the process's listeners, directory or end
  /setGlobal/, // OpenTelemetry's global tracer provider or context manager
  /approximate-above/, // a variable set before the SDK loads
];
/** Files per shared process: 4-30 CPU s each, under the longest files alone, so they still pack beside them. */
const PER_SHARED = 8;

const rest = all.filter((f) => !first.includes(f));
const shareable = process.env.CASCADE_TEST_SHARED === "0" ? [] : rest.filter((f) => !OWN_PROCESS_IF.some((re) => re.test(readFileSync(f, "utf8"))));
const alone = rest.filter((f) => !shareable.includes(f));
const shared = [];
let sharedDir = null;
if (shareable.length > 0) {
  sharedDir = mkdtempSync(join(tmpdir(), "cascade-shared-tests-"));
  for (let i = 0; i < shareable.length; i += PER_SHARED) {
    const members = shareable.slice(i, i + PER_SHARED);
    const file = join(sharedDir, `shared-${String(shared.length + 1).padStart(2, "0")}.test.mjs`);
    writeFileSync(file, members.map((f) => `import ${JSON.stringify(pathToFileURL(f).href)}; // ${relative(dir, f)}\n`).join(""));
    shared.push({ file, members });
  }
}
const files = [...first, ...shared.map((s) => s.file), ...alone];
/** The name a file's duration is printed under: its path, or a shared process's files. */
const label = (f) => shared.find((s) => s.file === f)?.members.map((m) => relative(dir, m).replace(/\.test\.js$/, "")).join(" + ") ?? relative(dir, f);

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
  process.stderr.write(`\nslowest files (s):\n${slowest.map(([f, ms]) => `${(ms / 1000).toFixed(1).padStart(7)}  ${label(f)}`).join("\n")}\n`);
  if (sharedDir) rmSync(sharedDir, { recursive: true, force: true });
});
