/**
 * Forged and odd vector-graph files against the CLI: a real store's `<store>.hnsw` with random bytes of its graph
 * altered and a matching checksum written into its record (what only a structural check can catch), and the path
 * made a directory or a FIFO. Each case runs `doctor` and `search` in fresh processes with a time limit and counts
 * how they ended: answered (exit 0 or 1 with a report), crashed (a signal, or 134/139 from native code), or hung.
 * Target: 0 crashes, 0 hangs.
 *
 *   node dist/bench/hostile-files.js [--cases 30] [--seed 1]
 */
import { spawnSync, execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

// CASCADE_TEST_CLI measures another build (the code before a fix)
const CLI = process.env.CASCADE_TEST_CLI ?? new URL("../src/surfaces/cli/main.js", import.meta.url).pathname;
const ENV = { ...process.env, CASCADE_APPROXIMATE_ABOVE: "100" };
const arg = (name: string, fallback: number) => {
  const i = process.argv.indexOf(name);
  return i > 0 ? Number(process.argv[i + 1]) : fallback;
};
const CASES = arg("--cases", 30);
let seed = arg("--seed", 1);
const next = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;

type Outcome = "answered" | "crashed" | "hung";
function run(args: string[]): Outcome {
  const r = spawnSync(process.execPath, [CLI, ...args], { env: ENV, encoding: "utf8", timeout: 60_000, killSignal: "SIGKILL" });
  if (r.error && (r.error as NodeJS.ErrnoException).code === "ETIMEDOUT") return "hung";
  return r.status === 0 || r.status === 1 ? "answered" : "crashed";
}

/** Flips `count` random bytes of the graph's part of the file, then writes a record whose checksum matches. */
function forge(file: string, count: number): void {
  const data = readFileSync(file);
  const recordLength = data.readUInt32LE(data.length - 12);
  const graphBytes = data.length - 12 - recordLength;
  for (let i = 0; i < count; i++) data[Math.floor(next() * graphBytes)] ^= 1 + Math.floor(next() * 255);
  const record = JSON.parse(data.subarray(graphBytes, graphBytes + recordLength).toString("utf8"));
  record.sha256 = createHash("sha256").update(data.subarray(0, graphBytes)).digest("hex");
  const json = Buffer.from(JSON.stringify(record));
  const tail = Buffer.alloc(4);
  tail.writeUInt32LE(json.length);
  writeFileSync(file, Buffer.concat([data.subarray(0, graphBytes), json, tail, Buffer.from("CSCDHNSW")]));
}

const dir = mkdtempSync(join(tmpdir(), "cascade-hostile-files-"));
try {
  const words = "pool config deploy cache latency ledger retry queue timeout shard replica index schema vacuum budget harbor lantern meadow orchard quarry".split(" ");
  writeFileSync(join(dir, "notes.jsonl"), Array.from({ length: 300 }, (_, i) => JSON.stringify({ text: `note ${i} codeword${i}: ${Array.from({ length: 6 }, () => words[Math.floor(next() * words.length)]).join(" ")}` })).join("\n"));
  const source = join(dir, "source.db");
  spawnSync(process.execPath, [CLI, "import", join(dir, "notes.jsonl"), "--db", source], { env: ENV });
  spawnSync(process.execPath, [CLI, "search", "harbor", "--db", source], { env: ENV });
  if (!existsSync(`${source}.hnsw`)) throw new Error("the graph was not saved");

  const tally: Record<string, Record<Outcome, number>> = {};
  const count = (kind: string, o: Outcome) => ((tally[kind] ??= { answered: 0, crashed: 0, hung: 0 })[o]++);
  const fresh = (name: string, withGraph: boolean) => {
    const db = join(dir, `${name}.db`);
    for (const suffix of ["", "-wal", ...(withGraph ? [".hnsw"] : [])]) if (existsSync(source + suffix)) copyFileSync(source + suffix, db + suffix);
    return db;
  };
  for (let i = 0; i < CASES; i++) {
    const db = fresh(`forged${i}`, true);
    forge(`${db}.hnsw`, 1 + Math.floor(next() * 8));
    count("forged bytes, checksum matching: doctor", run(["doctor", "--db", db]));
    count("forged bytes, checksum matching: search", run(["search", "harbor lantern", "--db", db]));
  }
  for (const [kind, make] of [["a directory", (p: string) => mkdirSync(p)], ["a FIFO", (p: string) => execFileSync("mkfifo", [p])]] as const) {
    const db = fresh(`odd${kind.length}`, false);
    make(`${db}.hnsw`);
    count(`${kind} at the path: doctor`, run(["doctor", "--db", db]));
    count(`${kind} at the path: search`, run(["search", "harbor lantern", "--db", db]));
  }
  const json = process.argv.includes("--json");
  if (json) console.log(JSON.stringify(tally, null, 2));
  else for (const [kind, t] of Object.entries(tally)) console.log(`${kind}: ${t.answered} answered, ${t.crashed} crashed, ${t.hung} hung`);
} finally {
  rmSync(dir, { recursive: true, force: true });
}
