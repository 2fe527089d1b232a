/**
 * Shared test fixtures: stores in temporary folders, the demo corpus, and a CLI runner.
 */
import assert from "node:assert/strict";
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { request } from "node:http";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Readable } from "node:stream";
import { after } from "node:test";
import { CascadeError, DEMO_NOW, demoCorpus, loadDatasets, openMemory, parseInstant, type Engine, type MemoryInput } from "../src/index.js";

const dirs: string[] = [];
after(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

export function tempDir(): string {
  const d = mkdtempSync(join(tmpdir(), "cascade-test-"));
  dirs.push(d);
  return d;
}

export async function emptyEngine(now = DEMO_NOW): Promise<{ engine: Engine; path: string }> {
  const path = join(tempDir(), "memory.db");
  return { engine: await openMemory({ path, now: parseInstant("now", now) }), path };
}

/** An engine holding the demo corpus; ids are returned in corpus order. */
export async function demoEngine(): Promise<{ engine: Engine; ids: string[]; path: string }> {
  const { engine, path } = await emptyEngine();
  const r = await engine.rememberMany(demoCorpus);
  return { engine, ids: r.ids as string[], path };
}

// CASCADE_TEST_CLI runs the tests against another build (to show a new test failing on the code before a fix)
const CLI = process.env.CASCADE_TEST_CLI ?? new URL("../src/surfaces/cli/main.js", import.meta.url).pathname;

export interface CliResult {
  status: number | null;
  /** The child's process id (scratch namespaces on a server are named after it). */
  pid: number | undefined;
  stdout: string;
  stderr: string;
  json: any;
}

export function cli(args: string[], options: { input?: string; env?: Record<string, string>; cwd?: string; timeoutMs?: number } = {}): CliResult {
  const r = spawnSync(process.execPath, [CLI, ...args], {
    encoding: "utf8",
    input: options.input,
    cwd: options.cwd,
    timeout: options.timeoutMs,
    killSignal: "SIGKILL",
    env: { ...process.env, ...options.env },
  });
  return { status: r.status, pid: r.pid, stdout: r.stdout, stderr: r.stderr, json: jsonOf(args, r.stdout) };
}

/** What a `--json` command printed, parsed (undefined when it printed no JSON, or was not asked for it). */
function jsonOf(args: string[], stdout: string): unknown {
  if (!args.includes("--json")) return undefined;
  try {
    return JSON.parse(stdout);
  } catch {
    return undefined;
  }
}

/** The variables the CLI itself reads from its run's environment (surfaces/cli/io.ts); the SDK reads process.env. */
const RUN_ENV = new Set(["CASCADE_DB", "CASCADE_TOKEN", "CASCADE_DEBUG", "CASCADE_MIGRATE_PAUSE_AFTER"]);
/** Commands that own the process they run in. */
const PROCESS_COMMANDS = new Set(["bench", "serve", "mcp"]);

/**
 * `cascade ARGS` run in this process (surfaces/cli/run.ts) with sinks for its stdout and stderr: the same parsing,
 * engine calls, output bytes and exit code as cli(), without a process's start-up (Node, the ESM loader, the SDK's
 * modules, the tagger and the word vectors: 0.5–0.9 s of CPU each). For a test whose subject is what a command
 * prints or refuses. What only a process has stays with cli()/cliAsync(): signals, a killed or timed-out run, a
 * closed or full stdout, a terminal, the working directory, and variables read at start (only RUN_ENV may be
 * given here, others only with the value this process has: the SDK reads them from this process's environment).
 * Runs may overlap: each has its own sinks.
 */
export async function cliHere(args: string[], options: { input?: string; env?: Record<string, string> } = {}): Promise<CliResult> {
  if (process.env.CASCADE_TEST_CLI) return cliAsync(args, options);
  for (const [name, value] of Object.entries(options.env ?? {})) {
    // a variable the SDK reads may be given only with the value this process already has (set before the SDK loaded)
    if (!RUN_ENV.has(name) && process.env[name] !== value) throw new Error(`cliHere: ${name} is read by the SDK at start; run the CLI as a process (cli)`);
  }
  // bench and serve set V8's heap growth for the process they own, mcp and serve hold it until they are stopped
  const owner = args.find((a) => PROCESS_COMMANDS.has(a));
  if (owner) throw new Error(`cliHere: ${owner} owns the process it runs in; run it as a process (cli)`);
  const { run } = await import("../src/surfaces/cli/run.js");
  const sink = () => {
    const chunks: string[] = [];
    return { chunks, write: (s: string) => (chunks.push(s), true), once: () => undefined };
  };
  const [out, err] = [sink(), sink()];
  const stdin = Readable.from(options.input === undefined ? [] : [Buffer.from(options.input)]);
  const status = await run(args, { stdout: out, stderr: err, stdin, env: { ...process.env, ...options.env }, exitCode: undefined });
  const stdout = out.chunks.join("");
  return { status, pid: undefined, stdout, stderr: err.chunks.join(""), json: jsonOf(args, stdout) };
}

/**
 * cli() without blocking this process: the test can run several CLI processes at once (see cliAll) and its own
 * timers and servers keep running meanwhile.
 */
export function cliAsync(args: string[], options: { input?: string; env?: Record<string, string>; cwd?: string; timeoutMs?: number } = {}): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLI, ...args], { cwd: options.cwd, env: { ...process.env, ...options.env }, timeout: options.timeoutMs, killSignal: "SIGKILL" });
    let stdout = "";
    let stderr = "";
    child.stdout!.setEncoding("utf8").on("data", (d) => (stdout += d));
    child.stderr!.setEncoding("utf8").on("data", (d) => (stderr += d));
    child.on("error", reject);
    child.on("close", (status) => resolve({ status, pid: child.pid, stdout, stderr, json: jsonOf(args, stdout) }));
    child.stdin!.end(options.input);
  });
}

/**
 * Runs independent CLI invocations `width` at a time (two cores: more would only queue) and returns their results
 * in the order given. Only for invocations that do not depend on each other's writes.
 */
export async function cliAll(runs: string[][], options: { env?: Record<string, string>; width?: number } = {}): Promise<CliResult[]> {
  const results: CliResult[] = new Array(runs.length);
  let next = 0;
  const worker = async () => {
    while (next < runs.length) {
      const i = next++;
      results[i] = await cliAsync(runs[i], options);
    }
  };
  await Promise.all(Array.from({ length: Math.min(options.width ?? 3, runs.length) }, worker));
  return results;
}

/**
 * `cascade [global flags] serve --port 0 [serve flags]` as a child process, once it says where it listens;
 * `log` is its stderr so far.
 */
export async function serve(global: string[], flags: string[] = []): Promise<{ child: ChildProcess; url: string; log: () => string }> {
  const child = spawn(process.execPath, [CLI, ...global, "serve", "--port", "0", ...flags], { stdio: ["ignore", "ignore", "pipe"] });
  let err = "";
  child.stderr!.on("data", (d) => (err += d));
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setInterval(() => {
      const m = /serving (http:\/\/127\.0\.0\.1:\d+)/.exec(err);
      if (m) {
        clearInterval(timer);
        resolve(m[1]);
      }
    }, 20);
    child.once("exit", (code) => {
      clearInterval(timer);
      reject(new Error(`serve exited ${code}: ${err}`));
    });
  });
  return { child, url, log: () => err };
}

/** `node --test FILE` as a run of its own (TAP on stdout), `env` over this process's environment. */
export function runTestFile(file: string, env: Record<string, string>) {
  // NODE_TEST_CONTEXT would make the child report to this run instead of printing
  const { NODE_TEST_CONTEXT: _, ...outer } = process.env;
  return spawnSync(process.execPath, ["--test", "--test-reporter=tap", file], { encoding: "utf8", env: { ...outer, ...env } });
}

export interface HttpReply {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
  json: any;
}

/** One request with node:http, which, unlike fetch, lets a test set any header (Host, Sec-Fetch-Site). */
export function sendHttp(url: string, method: string, path: string, headers: Record<string, string>, body?: string): Promise<HttpReply> {
  return new Promise((resolve, reject) => {
    const req = request(url + path, { method, headers }, (res) => {
      let text = "";
      res.on("data", (d) => (text += d));
      res.on("end", () => resolve({ status: res.statusCode!, headers: res.headers, text, json: text ? JSON.parse(text) : null }));
    });
    req.on("error", reject);
    req.end(body);
  });
}

/**
 * `cascade doctor [--repair] --db path` as this process sees it (the engine's doctor, no CLI process): its exit code
 * and the lines it prints. For a test checking a store's state after a CLI process changed it (a graph rebuilt and saved),
 * where a CLI process of its own would add its start-up (0.7 s of CPU) and nothing the test looks at.
 */
export async function doctorHere(path: string, options: { repair?: boolean } = {}): Promise<{ status: number; stdout: string }> {
  const engine = await openMemory({ path });
  try {
    const r = await engine.doctor({ repair: options.repair });
    // the lines of `cascade doctor` (surfaces/cli/commands/store-commands.ts), the checks' part
    return { status: r.ok ? 0 : 1, stdout: r.checks.map((c) => `${c.ok ? "ok      " : c.repaired ? "REPAIRED" : "FAILED  "}  ${c.name}: ${c.detail}`).join("\n") };
  } finally {
    await engine.close();
  }
}

/**
 * Stores `memories` at `path` in this process, with the rememberMany `cascade import` runs for a JSONL file: for a
 * test whose subject is what other commands do with a store, where an import process would add its start-up and
 * nothing the test looks at. Fails unless every memory is stored.
 */
export async function rememberHere(path: string, memories: MemoryInput[], namespace?: string): Promise<void> {
  const engine = await openMemory({ path, namespace });
  try {
    const r = await engine.rememberMany(memories);
    if (r.imported !== memories.length) throw new Error(`stored ${r.imported} of ${memories.length} memories: ${JSON.stringify(r.failed.slice(0, 3))}`);
  } finally {
    await engine.close();
  }
}

/** The first hit's text for a query, read in this process (`search --json` prints engine.recall's hits as they are). */
export async function topHitHere(path: string, query: string): Promise<string | undefined> {
  const engine = await openMemory({ path });
  try {
    return (await engine.recall(query)).hits[0]?.text;
  } finally {
    await engine.close();
  }
}

/**
 * The same refusal in this process: `cascade eval DATASET PATH` reads the dataset with loadDatasets before anything
 * else, and prints the CascadeError it throws as one line with exit 2 (a usage error). A test runs the binary on one
 * malformed input of each reader; the reader's other mistakes are checked here, where a CLI process would add
 * its start-up (0.5–0.7 s of CPU) and nothing the assertions look at. A file the reader skips would be a line of
 * its own on the CLI's stderr: none may be skipped.
 */
export function evalRefusedHere(dataset: string, path: string, message: RegExp): void {
  const skipped: string[] = [];
  assert.throws(
    () => loadDatasets({ [dataset]: path }, (line) => skipped.push(line)),
    (e: unknown) => e instanceof CascadeError && e.isUsageError && message.test(e.message) && !e.message.includes("\n"),
    `eval ${dataset} ${path}`,
  );
  assert.deepEqual(skipped, []);
}
