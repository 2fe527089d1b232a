/**
 * Forged, odd and damaged side files against the CLI, each kind tried `--tries` times on a fresh copy of a real store
 * (300 memories, the graph's threshold lowered to 100 chunks so that `<store>.hnsw` is in use). Each try runs
 * `doctor`, `search`, `doctor --repair` and `search` again, every one in a fresh process with a time limit, and
 * counts how each ended:
 *
 *   crash     a signal, or an exit code other than 0, 1 or 2 (134/139 from native code)
 *   hang      still running at the time limit (killed)
 *   internal  an answer with code INTERNAL (a fault the code did not expect)
 *   error     exit 1 or 2 with an answer naming the fault (what doctor should do on a damaged store)
 *   ok        exit 0
 *
 * and prints one row per kind: fault | tries | doctor | search | doctor --repair | search after. Target: no crash,
 * no hang, no internal. `forget --purge` is tried too: its rows say whether the forgotten vector is still anywhere in
 * the saved file afterwards (its 8-bit row as the graph stored it before the purge: the file holds no float32 vector).
 *
 *   node dist/bench/hostile-sidefiles.js [--tries 3] [--seed 1] [--timeout 30] [--json]
 *
 * CASCADE_TEST_CLI measures another build (the code before a fix).
 */
import { spawnSync, execFileSync } from "node:child_process";
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, truncateSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Database from "better-sqlite3";
import { damageVector } from "../test/fixtures/damage-vector.js";
import { forgeGraphFile, graphLayout, writeGraphRecord, type GraphLayout } from "../test/fixtures/graph-forgery.js";
import { numberFlag } from "./args.js";

const CLI = process.env.CASCADE_TEST_CLI ?? new URL("../src/surfaces/cli/main.js", import.meta.url).pathname;
const ENV = { ...process.env, CASCADE_APPROXIMATE_ABOVE: "100" };
const arg = (name: string, fallback: number) => numberFlag(name, fallback);
const TRIES = arg("--tries", 3);
const TIMEOUT_MS = arg("--timeout", 30) * 1000;
let seed = arg("--seed", 1);
const next = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
const QUERY = "harbor lantern meadow";

type Outcome = "crash" | "hang" | "internal" | "error" | "ok";
/** Runs with --json: the error's code is only printed there (a human-readable failure is one line without it). */
function run(args: string[]): Outcome {
  const r = spawnSync(process.execPath, [CLI, ...args, "--json"], { env: ENV, encoding: "utf8", timeout: TIMEOUT_MS, killSignal: "SIGKILL" });
  if (r.error && (r.error as NodeJS.ErrnoException).code === "ETIMEDOUT") return "hang";
  if (r.status === null || r.status > 2) return "crash";
  if (/"code":\s*"INTERNAL"/.test(r.stdout)) return "internal";
  return r.status === 0 ? "ok" : "error";
}

/** One field usearch trusts, forged; try i takes the (i mod 13)th. */
const FIELDS: ((d: Buffer, l: GraphLayout) => void)[] = [
  (d) => d.writeUInt32LE(d.readUInt32LE(0) + 1000, 0),
  (d) => d.writeUInt32LE(4096, 4),
  (d, l) => d.writeBigUInt64LE(1n << 40n, l.head + 33),
  (d, l) => (d[l.head + 13] = 0x7f),
  (d, l) => d.writeBigUInt64LE(BigInt(l.nodes * 50), l.graph),
  (d, l) => d.writeBigUInt64LE(4000n, l.graph + 8),
  (d, l) => d.writeBigUInt64LE(30n, l.graph + 24),
  (d, l) => d.writeBigUInt64LE(BigInt(l.nodes + 7), l.graph + 32),
  (d, l) => d.writeInt16LE(-3, l.levels + 2 * 5),
  (d, l) => d.writeInt16LE(9, l.nodeAt[7] + 8),
  (d, l) => d.writeUInt32LE(0xffff, l.nodeAt[3] + 10),
  (d, l) => d.writeUInt32LE(0x7fff_fff0, l.nodeAt[11] + 14),
  (d, l) => d.writeBigUInt64LE(d.readBigUInt64LE(l.nodeAt[1]), l.nodeAt[2]),
];

const dir = mkdtempSync(join(tmpdir(), "cascade-hostile-sidefiles-"));
const words = "pool config deploy cache latency ledger retry queue timeout shard replica index schema vacuum budget harbor lantern meadow orchard quarry".split(" ");
const note = (i: number) => JSON.stringify({ text: `note ${i} codeword${i}: ${Array.from({ length: 6 }, () => words[Math.floor(next() * words.length)]).join(" ")}` });
/** A store of `count` notes with its graph saved. */
function store(name: string, count: number): string {
  const db = join(dir, `${name}.db`);
  writeFileSync(join(dir, `${name}.jsonl`), Array.from({ length: count }, (_, i) => note(i)).join("\n"));
  spawnSync(process.execPath, [CLI, "import", join(dir, `${name}.jsonl`), "--db", db], { env: ENV });
  spawnSync(process.execPath, [CLI, "search", "harbor", "--db", db], { env: ENV });
  if (!existsSync(`${db}.hnsw`)) throw new Error(`${name}: the graph was not saved`);
  return db;
}

interface Fault {
  name: string;
  /** Damages a fresh copy `db` (its graph file copied beside it); try `i`. */
  make: (db: string, i: number) => void;
}

try {
  const source = store("source", 300);
  const other = store("other", 250);
  const faults: Fault[] = [
    { name: "graph bytes altered (1–8 random), checksum matching", make: (db) => forgeGraphFile(`${db}.hnsw`, (d, l) => { for (let n = 1 + Math.floor(next() * 8); n > 0; n--) d[Math.floor(next() * l.graphBytes)] ^= 1 + Math.floor(next() * 255); }) },
    { name: "one graph field forged (13 kinds in turn), checksum matching", make: (db, i) => forgeGraphFile(`${db}.hnsw`, FIELDS[i % FIELDS.length]) },
    { name: "graph truncated to half", make: (db) => truncateSync(`${db}.hnsw`, Math.floor(readFileSync(`${db}.hnsw`).length / 2)) },
    { name: "graph emptied", make: (db) => truncateSync(`${db}.hnsw`, 0) },
    { name: "another store's graph", make: (db) => copyFileSync(`${other}.hnsw`, `${db}.hnsw`) },
    {
      name: "sparse 20 GB file, record naming it whole",
      make: (db) => {
        const data = readFileSync(`${db}.hnsw`);
        const l = graphLayout(data);
        const record = JSON.parse(data.subarray(l.graphBytes, l.graphBytes + l.recordLength).toString("utf8"));
        record.bytes = 20 * 2 ** 30;
        writeGraphRecord(`${db}.hnsw`, Buffer.alloc(0), record, record.bytes);
      },
    },
    { name: "a directory at the graph's path", make: (db) => (rmSync(`${db}.hnsw`), mkdirSync(`${db}.hnsw`)) },
    { name: "a FIFO at the graph's path", make: (db) => (rmSync(`${db}.hnsw`), execFileSync("mkfifo", [`${db}.hnsw`])) },
    { name: "a symbolic link to a FIFO", make: (db) => (rmSync(`${db}.hnsw`), execFileSync("mkfifo", [`${db}.fifo`]), symlinkSync(`${db}.fifo`, `${db}.hnsw`)) },
    { name: "a symbolic link to /dev/zero", make: (db) => (rmSync(`${db}.hnsw`), symlinkSync("/dev/zero", `${db}.hnsw`)) },
    { name: "an earlier layout's side file (.hnsw.meta) a directory", make: (db) => mkdirSync(`${db}.hnsw.meta`) },
    { name: "the set-aside name a directory, graph forged", make: (db, i) => (mkdirSync(`${db}.hnsw.invalid-structure`), forgeGraphFile(`${db}.hnsw`, FIELDS[i % FIELDS.length])) },
    { name: "a chunk's vector NULL (damaged page)", make: (db) => damageVector(db, "NULL") },
    { name: "a chunk's vector 3 bytes (damaged page)", make: (db) => damageVector(db, "x'010203'") },
  ];

  const OPS: [string, (db: string) => string[]][] = [
    ["doctor", (db) => ["doctor", "--db", db]],
    ["search", (db) => ["search", QUERY, "--db", db]],
    ["doctor --repair", (db) => ["doctor", "--repair", "--db", db]],
    ["search after", (db) => ["search", QUERY, "--db", db]],
  ];
  const rows: { fault: string; tries: number; outcomes: Record<string, Partial<Record<Outcome, number>>> }[] = [];
  let copies = 0;
  const fresh = () => {
    const db = join(dir, `try${copies++}.db`);
    for (const suffix of ["", "-wal", ".hnsw"]) if (existsSync(source + suffix)) copyFileSync(source + suffix, db + suffix);
    return db;
  };
  for (const fault of faults) {
    const outcomes: Record<string, Partial<Record<Outcome, number>>> = {};
    for (let i = 0; i < TRIES; i++) {
      const db = fresh();
      fault.make(db, i);
      for (const [op, args] of OPS) {
        const o = run(args(db));
        (outcomes[op] ??= {})[o] = (outcomes[op][o] ?? 0) + 1;
      }
    }
    rows.push({ fault: fault.name, tries: TRIES, outcomes });
    process.stderr.write(`${fault.name}: done\n`);
  }

  // forget --purge: is the forgotten memory's vector (its 8-bit row in the graph) still in the saved file?
  const purges: [string, (db: string) => void][] = [
    ["`forget --purge`, then the file searched for the forgotten vector's bytes", () => {}],
    ["the same with `<store>.hnsw.meta` a directory", (db) => mkdirSync(`${db}.hnsw.meta`)],
  ];
  const purgeRows: [string, Record<string, number>][] = [];
  for (const [name, make] of purges) {
    const purge: Record<string, number> = {};
    purgeRows.push([name, purge]);
    for (let i = 0; i < TRIES; i++) {
      const db = fresh();
      make(db);
      const s = new Database(db, { readonly: true });
      const victim = s.prepare("SELECT id FROM memories WHERE text LIKE ?").pluck().get(`note ${40 + i} %`) as string;
      const chunk = s.prepare("SELECT c.id FROM chunks c JOIN memories m ON m.rowid = c.memory_rowid WHERE m.id = ?").pluck().get(victim) as number;
      s.close();
      const data = readFileSync(`${db}.hnsw`);
      const l = graphLayout(data);
      const width = data.readUInt32LE(4);
      const slot = l.nodeAt.findIndex((at) => data.readBigUInt64LE(at) === BigInt(chunk));
      const row = Buffer.from(data.subarray(8 + slot * width, 8 + (slot + 1) * width));
      const o = run(["forget", victim, "--purge", "--db", db]);
      const after = existsSync(`${db}.hnsw`) ? readFileSync(`${db}.hnsw`) : Buffer.alloc(0);
      const kept = after.indexOf(row) >= 0;
      const verdict = o !== "ok" ? o : kept ? "vector kept" : "vector gone";
      purge[verdict] = (purge[verdict] ?? 0) + 1;
    }
  }

  const cell = (c: Partial<Record<Outcome, number>> = {}) => Object.entries(c).map(([o, n]) => `${n} ${o}`).join(", ");
  if (process.argv.includes("--json")) console.log(JSON.stringify({ rows, purge: Object.fromEntries(purgeRows) }, null, 2));
  else {
    console.log(`| fault | tries | ${OPS.map(([op]) => op).join(" | ")} | forget --purge |`);
    console.log(`|---|---|${OPS.map(() => "---").join("|")}|---|`);
    for (const r of rows) console.log(`| ${r.fault} | ${r.tries} | ${OPS.map(([op]) => cell(r.outcomes[op])).join(" | ")} | |`);
    for (const [name, purge] of purgeRows) console.log(`| ${name} | ${TRIES} | | | | | ${cell(purge as Partial<Record<Outcome, number>>)} |`);
    const all = [...rows.flatMap((r) => Object.values(r.outcomes)), ...purgeRows.map(([, p]) => p as Partial<Record<Outcome, number>>)];
    const total = (o: Outcome) => all.reduce((n, c) => n + (c[o] ?? 0), 0);
    console.log(`\n${total("crash")} crashes, ${total("hang")} hangs, ${total("internal")} INTERNAL answers in ${all.reduce((n, c) => n + Object.values(c).reduce((a, b) => a + b, 0), 0)} runs`);
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
