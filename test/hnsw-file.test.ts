/**
 * A damaged vector-graph file never crashes the process: the saved graph beside the store
 * (`<store>.hnsw`) truncated, its header or body altered, emptied, or taken from another store; each time a search in
 * a fresh CLI process answers what exact search answers, with exit 0, and `doctor` names the file as invalid
 * (with `--repair`, deleted). Before the file was verified, usearch read it unchecked and Node aborted in native code
 * (exit 134, or SIGSEGV). Two processes saving the graph at once leave one complete file. The threshold is lowered
 * to 100 chunks (CASCADE_APPROXIMATE_ABOVE) so the stores stay small.
 */
import "./fixtures/approximate-above-100.js";
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { copyFileSync, existsSync, readdirSync, readFileSync, rmSync, statSync, truncateSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { cli, cliHere, doctorHere, rememberHere, tempDir, topHitHere, type CliResult } from "./helpers.js";

const ENV = { CASCADE_APPROXIMATE_ABOVE: "100" };
const CLI = new URL("../src/surfaces/cli/main.js", import.meta.url).pathname;
const WORDS = "pool config deploy cache latency ledger retry queue timeout shard replica index schema vacuum budget harbor lantern meadow orchard quarry".split(" ");

/** 300 memories, each with a code word of its own, so a search for one has one right answer. */
function corpus(seed: number): { text: string; at: string }[] {
  let s = seed;
  const next = () => (s = (s * 1103515245 + 12345) % 2147483648) / 2147483648;
  return Array.from({ length: 300 }, (_, i) => {
    const words = Array.from({ length: 6 }, () => WORDS[Math.floor(next() * WORDS.length)]).join(" ");
    return { text: `note ${i} codeword${seed}x${i}: ${words}`, at: "2026-05-01T10:00:00Z" };
  });
}

const dir = tempDir();

/**
 * A store of 300 memories (written in this process) whose graph was built and saved by a search (the CLI in this
 * process, helpers cliHere: CASCADE_APPROXIMATE_ABOVE is set here as in the CLI processes, by the first import).
 */
async function store(name: string, seed: number): Promise<string> {
  const db = join(dir, `${name}.db`);
  await rememberHere(db, corpus(seed));
  assert.equal((await cliHere(["search", "harbor lantern", "--db", db], { env: ENV })).status, 0);
  assert.ok(existsSync(`${db}.hnsw`), "the graph is built and saved");
  return db;
}

const source = await store("source", 7);
const other = await store("other", 11);

/** A copy of the source store (and its graph) to damage. */
function copy(name: string): string {
  const db = join(dir, `${name}.db`);
  for (const suffix of ["", "-wal", ".hnsw"]) if (existsSync(source + suffix)) copyFileSync(source + suffix, db + suffix);
  return db;
}

function flip(file: string, at: (size: number) => number, count = 16): void {
  const data = readFileSync(file);
  const start = at(data.length);
  for (let i = start; i < Math.min(data.length, start + count); i++) data[i] ^= 0xa5;
  writeFileSync(file, data);
}

/** A search through the CLI, in this process unless `spawned` (helpers cliHere: the same output and exit code). */
const search = async (db: string, q: string, spawned = false) => (spawned ? cli : cliHere)(["search", q, "--db", db, "--json"], { env: ENV });
const topText = (r: CliResult) => (r.json as { hits: { text: string }[] } | undefined)?.hits[0]?.text;

const QUERY = "harbor lantern meadow";
/** What exact search answers on the undamaged store (the threshold left at its default: no graph), read in this process: the searches under test are below. */
const exactTop = await topHitHere(source, QUERY);

const damages: [string, (file: string) => void][] = [
  ["truncated to half", (f) => truncateSync(f, Math.floor(statSync(f).size / 2))],
  ["bytes flipped in its header", (f) => flip(f, () => 0)],
  ["bytes flipped in its body", (f) => flip(f, (size) => Math.floor(size / 3), 64)],
  ["emptied", (f) => truncateSync(f, 0)],
  ["taken from another store", (f) => copyFileSync(`${other}.hnsw`, f)],
];

/**
 * A damage's doctor runs as a CLI process on every other damage and its `doctor --repair` on the others; the other
 * one runs the same engine.doctor in this process (doctorHere: the lines `cascade doctor` prints), where a native
 * abort ends this file with a failure as it ended the CLI's. The search after the first damage is a process, the
 * others run the CLI in this process: each damage meets one CLI process, and each command meets damaged files in one.
 */
const doctorIn = (i: number, repair: boolean) => (db: string) =>
  i % 2 === (repair ? 1 : 0) ? cli(["doctor", ...(repair ? ["--repair"] : []), "--db", db], { env: ENV }) : doctorHere(db, { repair });

for (const [i, [what, damage]] of damages.entries()) {
  test(`a graph file ${what}: search answers with exit 0, doctor names it, --repair deletes it`, async () => {
    const db = copy(`damaged${i}`);
    damage(`${db}.hnsw`);
    const doctor = await doctorIn(i, false)(db);
    assert.equal(doctor.status, 1, `doctor reports rather than crashing: ${"stderr" in doctor ? doctor.stderr : doctor.stdout}`);
    assert.match(doctor.stdout, /FAILED +approximate vector index: the (saved graph file is invalid|graph does not describe the table)/);
    const repair = await doctorIn(i, true)(db);
    assert.ok(repair.status === 0 || repair.status === 1, `doctor --repair does not crash: ${"stderr" in repair ? repair.stderr : repair.stdout}`);
    assert.match(repair.stdout, /REPAIRED +approximate vector index/);

    assert.ok(!existsSync(`${db}.hnsw`), "deleted by the repair");
    // damaged again, and searched before any doctor: the search itself must not crash
    copyFileSync(`${source}.hnsw`, `${db}.hnsw`);
    damage(`${db}.hnsw`);
    const r = await search(db, QUERY, i === 0);
    assert.equal(r.status, 0, `search does not crash: ${r.stderr}`);
    assert.ok(exactTop);
    assert.equal(topText(r), exactTop);
    // the state the search left, read in this process (doctor's own process is run above)
    const after = await doctorHere(db);
    assert.equal(after.status, 0, after.stdout);
    assert.match(after.stdout, /ok +approximate vector index: \d+ vectors, in step with the table/, "rebuilt by the search");
  });
}

/** Runs the CLI without waiting, for processes that must overlap. */
function started(args: string[]): Promise<number | null> {
  const child = spawn(process.execPath, [CLI, ...args], { env: { ...process.env, ...ENV }, stdio: "ignore" });
  return new Promise((resolve) => child.on("exit", (code) => resolve(code)));
}

test("two processes building and saving the graph at once leave one complete, loadable file", async () => {
  for (let round = 0; round < 3; round++) {
    const db = copy(`race${round}`);
    // no graph yet: both searches build it and save it at the same moment
    rmSync(`${db}.hnsw`);
    const codes = await Promise.all([started(["search", "harbor", "--db", db]), started(["search", "lantern", "--db", db])]);
    assert.deepEqual(codes, [0, 0]);
    const doctor = await doctorHere(db);
    assert.match(doctor.stdout, /ok +approximate vector index: \d+ vectors, in step with the table/, doctor.stdout);
    assert.deepEqual(readdirSync(dir).filter((f) => f.startsWith(`race${round}.db.hnsw.`)), [], "no temporary file left behind");
  }
});

/** The record a graph file ends with (vectors/hnsw.ts): its vector count and the centre it was built on. */
function record(file: string): { count: number; center: number[] } {
  const data = readFileSync(file);
  const length = data.readUInt32LE(data.length - 12);
  return JSON.parse(data.subarray(data.length - 12 - length, data.length - 12).toString("utf8"));
}

test("a graph file another process fell behind on is caught up by the next search, not rebuilt", async () => {
  const db = copy("behind");
  const saved = record(`${db}.hnsw`);
  // a scoped memory: revision detection searches its scope exactly, so that process never loads (or saves) the graph;
  // the day summary it rewrites also deletes chunks and, SQLite reusing the largest ids, re-adds others under them
  assert.equal(cli(["add", "a lantern by the quarry at dusk", "--user", "bob", "--db", db], { env: ENV }).status, 0);
  assert.equal(record(`${db}.hnsw`).count, saved.count, "precondition: the saved graph is behind the table");
  // the add that falls behind is another process; the doctor and the search that catches up run in this one
  const doctor = await cliHere(["doctor", "--db", db], { env: ENV });
  assert.equal(doctor.status, 0, doctor.stdout);
  assert.match(doctor.stdout, /ok +approximate vector index: \d+ vectors saved, \d+ chunks? behind the table: caught up by the next search/);

  const r = await search(db, "lantern quarry dusk");
  assert.equal(r.status, 0, r.stderr);
  assert.equal(topText(r), "a lantern by the quarry at dusk");
  const now = record(`${db}.hnsw`);
  assert.ok(now.count > saved.count, "saved again with the new chunks");
  assert.deepEqual(now.center, saved.center, "caught up: a rebuild would have centred the vectors anew");
  assert.match((await doctorHere(db)).stdout, /ok +approximate vector index: \d+ vectors, in step with the table/);
});
