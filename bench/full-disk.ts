/**
 * Writes on a real full filesystem, with the saved vector graph in use. Mounts a small tmpfs (root only), creates a
 * store of 300 memories there with the graph's threshold lowered to 100 chunks (CASCADE_APPROXIMATE_ABOVE=100; the
 * default is 200,000) so that every process loads, updates and saves `<store>.hnsw`, fills the filesystem with a
 * filler file, then makes `--writes` writes through the CLI (`add` with a `ref` in its metadata, every fifth an
 * `import` of three JSONL lines), each with the free space set first to a seeded amount between 0 and ~400 KB, so
 * that writes meet the full disk at different points: before the commit (the write-ahead log), at the commit, after
 * it (revision detection, the graph's save, side files). After every write the truth is read from the database file
 * (read-only, with space made for the read): how many memories hold each ref. A write's outcome is
 *
 *   stored            exit 0 and stored once (with or without a warning); ", graph not saved" when the write
 *                     committed and then could not save `<store>.hnsw` (the next process catches the graph up)
 *   not stored        exit 1/2 saying so, and nothing stored ("the full disk not named" when the answer does not
 *                     say the disk is full)
 *   partly stored     an import saying which lines failed, and exactly the others stored
 *   WRONG said-failed exit != 0 (or a line reported failed) without saying what was stored, but it is stored
 *   WRONG said-stored exit 0 (or a line not reported failed) but it is not stored
 *   WRONG duplicate   a ref stored twice
 *   WRONG internal    an INTERNAL answer (a fault the code did not expect)
 *   WRONG crash       a signal, exit > 2, or a stack trace on stderr
 *   WRONG hang        still running after `--timeout` seconds (killed)
 *
 * Every `--every` writes, `search` and `doctor` run on the full disk too (a crash, hang or INTERNAL is wrong; an
 * error naming the full disk is not). At the end the space is given back and `doctor` and `search` must pass.
 * Prints one row per outcome with its count; exits 1 when any outcome is wrong.
 *
 *   node dist/bench/full-disk.js [--writes 50] [--seed 1] [--timeout 60] [--size 8] [--every 5]
 *
 * CASCADE_TEST_CLI measures another build (the code before a fix).
 */
import { spawnSync } from "node:child_process";
import { closeSync, existsSync, mkdtempSync, openSync, rmSync, statfsSync, statSync, truncateSync, writeFileSync, writeSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Database from "better-sqlite3";
import { numberFlag } from "./args.js";

const CLI = process.env.CASCADE_TEST_CLI ?? new URL("../src/surfaces/cli/main.js", import.meta.url).pathname;
const ENV = { ...process.env, CASCADE_APPROXIMATE_ABOVE: "100" };
const arg = (name: string, fallback: number) => numberFlag(name, fallback);
const WRITES = arg("--writes", 50);
const TIMEOUT_MS = arg("--timeout", 60) * 1000;
const SIZE_MB = arg("--size", 8);
const EVERY = arg("--every", 5);
let seed = arg("--seed", 1);
const next = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;

if (typeof process.getuid === "function" && process.getuid() !== 0) {
  console.error("full-disk: needs root (it mounts a tmpfs); run it as root or skip it");
  process.exit(2);
}

interface Run {
  status: number | null;
  signal: string | null;
  hang: boolean;
  ms: number;
  stdout: string;
  stderr: string;
}
function cli(args: string[]): Run {
  const started = Date.now();
  const r = spawnSync(process.execPath, [CLI, ...args], { env: ENV, encoding: "utf8", timeout: TIMEOUT_MS, killSignal: "SIGKILL" });
  const hang = (r.error as NodeJS.ErrnoException | undefined)?.code === "ETIMEDOUT";
  return { status: r.status, signal: r.signal, hang, ms: Date.now() - started, stdout: r.stdout ?? "", stderr: r.stderr ?? "" };
}
const firstLine = (r: Run) => (r.stdout.trim() || r.stderr.trim()).split("\n")[0].slice(0, 200);
/** A run that is wrong whatever the store holds: a crash, a hang, a fault the code did not expect. */
function broken(r: Run): "WRONG hang" | "WRONG crash" | "WRONG internal" | null {
  if (r.hang) return "WRONG hang";
  if (r.status === null || r.status > 2 || /\n\s+at .+:\d+:\d+\)?\n/.test(r.stderr)) return "WRONG crash";
  if (/"code":\s*"INTERNAL"|\bINTERNAL\b/.test(r.stdout + r.stderr)) return "WRONG internal";
  return null;
}

const base = mkdtempSync(join(tmpdir(), "cascade-full-disk-"));
const mnt = join(base, "mnt");
let mounted = false;
const outcomes: Record<string, number> = {};
const wrong: string[] = [];
const count = (kind: string, detail?: string) => {
  outcomes[kind] = (outcomes[kind] ?? 0) + 1;
  if (kind.startsWith("WRONG")) wrong.push(`${kind}: ${detail ?? ""}`);
};

try {
  spawnSync("mkdir", ["-p", mnt]);
  const m = spawnSync("mount", ["-t", "tmpfs", "-o", `size=${SIZE_MB}m`, "tmpfs", mnt], { encoding: "utf8" });
  if (m.status !== 0) {
    console.error(`full-disk: could not mount a tmpfs at ${mnt}: ${(m.stderr || m.error?.message || "").trim()}`);
    process.exitCode = 2;
  } else {
    mounted = true;
    probe();
  }
} finally {
  if (mounted) {
    const u = spawnSync("umount", [mnt], { encoding: "utf8" });
    if (u.status !== 0) spawnSync("umount", ["-l", mnt]);
  }
  rmSync(base, { recursive: true, force: true });
}

function probe(): void {
  const db = join(mnt, "memory.db");
  const fillers: string[] = [];
  const free = () => {
    const s = statfsSync(mnt);
    return Number(s.bavail) * Number(s.bsize);
  };
  /** Sets the free space to about `target` bytes: a new filler file takes what is above it, truncating gives back. */
  const setFree = (target: number) => {
    let now = free();
    while (now < target && fillers.length) {
      const last = fillers[fillers.length - 1];
      const size = statSync(last).size;
      const give = target - now;
      if (give >= size) {
        rmSync(last);
        fillers.pop();
      } else truncateSync(last, size - give);
      now = free();
    }
    if (now > target) {
      const path = join(mnt, `filler-${fillers.length}`);
      fillers.push(path);
      const fd = openSync(path, "w");
      const block = Buffer.alloc(64 * 1024, 1);
      let left = now - target;
      try {
        while (left > 0) left -= writeSync(fd, block, 0, Math.min(block.length, left));
      } catch {
        // ENOSPC: as full as it gets
      } finally {
        closeSync(fd);
      }
    }
  };

  // the store: 300 memories, a search so that the graph is built and saved
  const words = "pool config deploy cache latency ledger retry queue timeout shard replica index schema vacuum budget harbor lantern meadow orchard quarry".split(" ");
  const text = (tag: string) => `${tag}: ${Array.from({ length: 8 }, () => words[Math.floor(next() * words.length)]).join(" ")}`;
  const seedFile = join(base, "seed.jsonl");
  writeFileSync(seedFile, Array.from({ length: 300 }, (_, i) => JSON.stringify({ text: text(`note ${i} codeword${i}`), metadata: { ref: `seed-${i}` } })).join("\n"));
  const made = cli(["import", seedFile, "--db", db]);
  if (made.status !== 0) throw new Error(`the store could not be made: ${firstLine(made)}`);
  cli(["search", "harbor lantern", "--db", db]);
  if (!existsSync(`${db}.hnsw`)) throw new Error("the graph was not saved: it is not in use");
  const graphBytes = statSync(`${db}.hnsw`).size;
  process.stderr.write(`store: ${statSync(db).size} bytes, graph ${graphBytes} bytes, tmpfs ${SIZE_MB} MB, ${free()} bytes free\n`);

  /** How many memories hold each ref (read-only; space is made for the read, the next write sets it again). */
  const truth = (refs: string[]): number[] => {
    setFree(2 * 1024 * 1024);
    const raw = new Database(db, { readonly: true, fileMustExist: true });
    try {
      const q = raw.prepare("SELECT count(*) AS n FROM memories WHERE json_extract(metadata, '$.ref') = ?");
      return refs.map((ref) => (q.get(ref) as { n: number }).n);
    } finally {
      raw.close();
    }
  };

  /** The saved graph's size and time: changed when a write saved it. */
  const graphStamp = () => (existsSync(`${db}.hnsw`) ? `${statSync(`${db}.hnsw`).size}@${statSync(`${db}.hnsw`).mtimeMs}` : "none");
  const log: string[] = [];
  const step = Math.max(4096, graphBytes / 6);
  let level = graphBytes * 4;
  for (let i = 0; i < WRITES; i++) {
    // the free space shrinks step by step from where a write stores everything, through where the graph's save
    // fails (it needs the graph's size again, beside the old file), to where the commit fails; then it starts again
    // above the last failure. One write in ten meets a disk with nothing free.
    const target = next() < 0.1 ? 0 : Math.max(0, Math.floor(level));
    level -= step * (0.5 + next());
    const isImport = i % 5 === 4;
    const refs = isImport ? [`r-${i}-a`, `r-${i}-b`, `r-${i}-c`] : [`r-${i}`];
    let args: string[];
    if (isImport) {
      const file = join(base, `w${i}.jsonl`);
      writeFileSync(file, refs.map((ref) => JSON.stringify({ text: text(`probe ${ref}`), metadata: { ref } })).join("\n"));
      args = ["import", file, "--db", db, "--json"];
    } else args = ["add", text(`probe ${refs[0]}`), "--metadata", JSON.stringify({ ref: refs[0] }), "--db", db, "--json"];
    setFree(target);
    const before = free();
    const graphBefore = graphStamp();
    const run = cli(args);
    const graphSaved = graphStamp() !== graphBefore;
    const stored = truth(refs);
    if (stored.every((n) => n === 0) && target > 0) level = target + step * (3 + 3 * next());
    const bad = broken(run);
    let kind: string;
    if (bad) kind = bad;
    else if (stored.some((n) => n > 1)) kind = "WRONG duplicate";
    else if (!isImport) {
      const said = run.status === 0;
      // a failure that says what was stored is not "not stored"
      const hedged = /stored|may be/i.test(run.stdout + run.stderr) && !/nothing was written/i.test(run.stdout + run.stderr);
      if (said && stored[0] === 1) kind = `stored${/warning/i.test(run.stdout) ? " (with a warning)" : ""}${graphSaved ? "" : ", graph not saved"}`;
      else if (!said && stored[0] === 0) kind = "not stored";
      else if (said) kind = "WRONG said-stored";
      else kind = hedged ? "stored (failure said so)" : "WRONG said-failed";
    } else {
      let failedLines = new Set<number>();
      let answered = false;
      try {
        const json = JSON.parse(run.stdout) as { imported?: number; failed?: { line: number }[]; error?: { message: string } };
        if (json.failed) {
          failedLines = new Set(json.failed.map((f) => f.line));
          answered = true;
        } else if (json.error) failedLines = new Set([1, 2, 3]);
      } catch {
        failedLines = new Set([1, 2, 3]);
      }
      const claims = refs.map((_, l) => !failedLines.has(l + 1));
      const mismatch = claims.findIndex((c, l) => c !== (stored[l] === 1));
      const hedged = !answered && /stored \d|may be/i.test(run.stdout + run.stderr);
      if (mismatch < 0) kind = claims.every(Boolean) ? `stored${graphSaved ? "" : ", graph not saved"}` : claims.some(Boolean) ? "partly stored" : "not stored";
      else if (hedged) kind = "stored (failure said so)";
      else kind = claims[mismatch] ? "WRONG said-stored" : "WRONG said-failed";
    }
    // a refusal that does not name the full disk is right but unhelpful ("disk I/O error"): counted apart
    if (kind === "not stored" && !/full/.test(run.stdout)) kind = "not stored, the full disk not named";
    count(kind, `write ${i} (${isImport ? "import" : "add"}, ${before} bytes free): exit ${run.status}: ${firstLine(run)}`);
    log.push(`${String(i).padStart(2)} ${isImport ? "import" : "add   "} free ${String(before).padStart(7)}  exit ${run.status ?? run.signal}  ${String(run.ms).padStart(5)} ms  stored ${stored.join(",")}  ${kind}  | ${firstLine(run)}`);

    if ((i + 1) % EVERY === 0) {
      setFree(Math.floor(next() * graphBytes * 1.5));
      for (const [name, a] of [["search", ["search", "harbor lantern", "--db", db, "--json"]], ["doctor", ["doctor", "--db", db, "--json"]]] as const) {
        const room = free();
        const c = cli([...a]);
        const bad2 = broken(c);
        const k = bad2 ?? (c.status === 0 ? `${name} ok` : `${name} error (named)`);
        count(k, `${name} after write ${i}: exit ${c.status}: ${firstLine(c)}`);
        log.push(`   ${name.padEnd(6)} free ${String(room).padStart(7)}  exit ${c.status ?? c.signal}  ${String(c.ms).padStart(5)} ms  ${k}  | ${firstLine(c)}`);
      }
    }
  }

  // the space given back: the store must be whole
  for (const f of fillers) rmSync(f);
  fillers.length = 0;
  for (const [name, a] of [["doctor", ["doctor", "--db", db, "--json"]], ["doctor --repair", ["doctor", "--repair", "--db", db, "--json"]], ["search", ["search", "harbor lantern", "--db", db, "--json"]], ["doctor after repair", ["doctor", "--db", db, "--json"]]] as const) {
    const c = cli([...a]);
    // the first doctor may find what the full disk left (a graph not saved, enrichment steps waiting): --repair mends it
    const last = name === "search" || name === "doctor after repair";
    const k = broken(c) ?? (c.status === 0 ? `${name} with space ok` : last ? `WRONG ${name} with space failed` : `${name} with space found something`);
    count(k, `${name} with space: exit ${c.status}: ${firstLine(c)}`);
    log.push(`   ${name} with space: exit ${c.status ?? c.signal}  ${c.ms} ms  ${k}  | ${firstLine(c)}`);
  }

  if (process.argv.includes("--log")) console.log(log.join("\n") + "\n");
  console.log("| outcome | count |\n|---|---|");
  for (const [kind, n] of Object.entries(outcomes).sort()) console.log(`| ${kind} | ${n} |`);
  console.log(`\n${WRITES} writes, ${wrong.length} wrong outcomes`);
  for (const w of wrong) console.log(`  ${w}`);
  if (wrong.length) process.exitCode = 1;
}
