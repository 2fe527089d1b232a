/**
 * A forged vector-graph file never reaches usearch's native loader. Each case alters one field usearch trusts (a count,
 * a size, a level, a neighbour slot) in a copy of a real `<store>.hnsw` and writes a checksum that matches the altered
 * bytes into its record, as someone who knows the layout would: the checksum passes, so only reading the structure
 * protects the process. Before the structure was read, these aborted Node in native code (exit 134 `free():
 * corrupted unsorted chunks` / `malloc(): invalid size`, or SIGSEGV), in search, doctor and `doctor --repair` alike.
 * Now: search answers what exact search answers (exit 0), the file is set aside as `<store>.hnsw.invalid-structure`
 * and a graph rebuilt from the store is saved; doctor names the file and `--repair` sets it aside.
 *
 * A directory or a FIFO at the graph's path: search and doctor answer (a FIFO opened for reading would wait forever;
 * a directory made the save fail with INTERNAL `EISDIR`), and both are set aside.
 */
import "./fixtures/approximate-above-100.js";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { copyFileSync, existsSync, lstatSync, mkdirSync, readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { describe, test } from "node:test";
import { forgeGraphFile, graphLayout, writeGraphRecord, type GraphLayout } from "./fixtures/graph-forgery.js";
import { cli, cliAsync, cliHere, doctorHere, rememberHere, tempDir, topHitHere, type CliResult } from "./helpers.js";

const ENV = { CASCADE_APPROXIMATE_ABOVE: "100" };
const WORDS = "pool config deploy cache latency ledger retry queue timeout shard replica index schema vacuum budget harbor lantern meadow orchard quarry".split(" ");
/** A hang is a failure, not a wait: no CLI call here should take more than a few seconds. */
const TIMEOUT = { env: ENV, timeoutMs: 60_000 };

const dir = tempDir();
const source = join(dir, "source.db");
{
  let s = 5;
  const next = () => (s = (s * 1103515245 + 12345) % 2147483648) / 2147483648;
  const notes = Array.from({ length: 300 }, (_, i) => ({ text: `note ${i} codeword5x${i}: ${Array.from({ length: 6 }, () => WORDS[Math.floor(next() * WORDS.length)]).join(" ")}`, at: "2026-05-01T10:00:00Z" }));
  // written in this process; the graph built and saved by a search (in this process too: CASCADE_APPROXIMATE_ABOVE
  // is set here as in the CLI processes, by the first import)
  await rememberHere(source, notes);
  assert.equal((await cliHere(["search", "harbor lantern", "--db", source])).status, 0);
  assert.ok(existsSync(`${source}.hnsw`), "the graph is built and saved");
}
const QUERY = "harbor lantern meadow";
const topText = (r: CliResult) => (r.json as { hits: { text: string }[] } | undefined)?.hits[0]?.text;
/** What exact search answers (the threshold left at its default: no graph), read in this process: the searches under test are below. */
const exactTop = await topHitHere(source, QUERY);

/** The layout as the forgeries read it, checked against the file once. */
function layout(data: Buffer): GraphLayout {
  const l = graphLayout(data);
  assert.equal(l.end, l.graphBytes, "the test's reading of the layout matches the file");
  return l;
}

/** Alters the graph's bytes and writes a record whose checksum matches them (the length stays the same). */
const forge = (file: string, alter: (d: Buffer, l: GraphLayout) => void) => forgeGraphFile(file, (d) => alter(d, layout(d)));

const forgeries: [string, (d: Buffer, l: GraphLayout) => void][] = [
  ["the vector count", (d) => d.writeUInt32LE(d.readUInt32LE(0) + 1000, 0)],
  ["the bytes per vector", (d) => d.writeUInt32LE(4096, 4)],
  ["the header's dimensions", (d, l) => d.writeBigUInt64LE(1n << 40n, l.head + 33)],
  ["the header's metric kind", (d, l) => (d[l.head + 13] = 0x7f)],
  ["the graph's node count", (d, l) => d.writeBigUInt64LE(BigInt(l.nodes * 50), l.graph)],
  ["the graph's connectivity", (d, l) => d.writeBigUInt64LE(4000n, l.graph + 8)],
  ["the graph's top level", (d, l) => d.writeBigUInt64LE(30n, l.graph + 24)],
  ["the graph's entry slot", (d, l) => d.writeBigUInt64LE(BigInt(l.nodes + 7), l.graph + 32)],
  ["one node's level in the level table", (d, l) => d.writeInt16LE(-3, l.levels + 2 * 5)],
  ["one node's own level", (d, l) => d.writeInt16LE(9, l.nodeAt[7] + 8)],
  ["a neighbour count", (d, l) => d.writeUInt32LE(0xffff, l.nodeAt[3] + 10)],
  ["a neighbour slot", (d, l) => d.writeUInt32LE(0x7fff_fff0, l.nodeAt[11] + 14)],
  ["a key held twice", (d, l) => d.writeBigUInt64LE(d.readBigUInt64LE(l.nodeAt[1]), l.nodeAt[2])],
];

/**
 * Which of a forgery's doctor, search and `doctor --repair` runs as a CLI process: doctor on every third forgery,
 * --repair on the one after it, the search on the one after that; the others run in this process (doctorHere: the
 * lines `cascade doctor` prints; the search through the CLI in this process, helpers cliHere). Each command still
 * meets forged files in a process of its own (here and below: the FIFO, the sparse file), and a native abort in
 * this process ends the file with a failure as it ended the CLI's. A CLI process costs 0.7–1 s of CPU: the runs
 * here that are not processes checked nothing a process adds.
 */
const doctorIn = (i: number, repair: boolean) => (db: string) =>
  i % 3 === (repair ? 1 : 0) ? cliAsync(["doctor", ...(repair ? ["--repair"] : []), "--db", db], TIMEOUT) : doctorHere(db, { repair });
const searchIn = (i: number) => (db: string) => (i % 3 === 2 ? cliAsync : cliHere)(["search", QUERY, "--db", db, "--json"], TIMEOUT);

// each forgery has its own copy of the store: three run at once (their CLI processes are what takes the time)
describe("forged graph files", { concurrency: 3 }, () => {
  for (const [i, [what, alter]] of forgeries.entries()) {
    test(`a graph file with ${what} forged (checksum matching): no crash, set aside, rebuilt`, async () => {
      const db = join(dir, `forged${i}.db`);
      for (const suffix of ["", "-wal", ".hnsw"]) if (existsSync(source + suffix)) copyFileSync(source + suffix, db + suffix);
      forge(`${db}.hnsw`, alter);

      const doctor = await doctorIn(i, false)(db);
      assert.equal(doctor.status, 1, `doctor reports rather than crashing (signal or abort otherwise): ${"stderr" in doctor ? doctor.stderr : ""}`);
      assert.match(doctor.stdout, /FAILED +approximate vector index: the saved graph file is invalid: /);

      const r = await searchIn(i)(db);
      assert.equal(r.status, 0, `search does not crash: ${r.stderr}`);
      assert.ok(exactTop);
      assert.equal(topText(r), exactTop);
      assert.ok(existsSync(`${db}.hnsw.invalid-structure`) || existsSync(`${db}.hnsw.invalid-checksum`), "the forged file is set aside, its reason in its name");
      // the state the search left, read in this process (doctor's own process runs above or below on a third of them)
      const after = await doctorHere(db);
      assert.equal(after.status, 0, after.stdout);
      assert.match(after.stdout, /ok +approximate vector index: \d+ vectors, in step with the table/, "rebuilt and saved by the search");

      forge(`${db}.hnsw`, alter);
      const repair = await doctorIn(i, true)(db);
      assert.ok(repair.status === 0 || repair.status === 1, `doctor --repair does not crash: ${"stderr" in repair ? repair.stderr : ""}`);
      assert.match(repair.stdout, /REPAIRED +approximate vector index: .*set aside as forged\d+\.db\.hnsw\.invalid-/);
      assert.ok(!existsSync(`${db}.hnsw`));
    });
  }
});

test("the unforged file still loads (the structure check passes what usearch writes)", () => {
  const r = cli(["doctor", "--db", source], TIMEOUT);
  assert.equal(r.status, 0, r.stdout);
  assert.match(r.stdout, /ok +approximate vector index: \d+ vectors, in step with the table/);
});

/**
 * The FIFO's three commands are CLI processes: a FIFO opened for reading would wait forever, which only a process
 * (killed at its timeout) turns into a failure rather than a hung file. The directory's doctor and --repair run in
 * this process (helpers cliHere), its search as a process.
 */
const oddPaths: [string, (path: string) => void, RegExp, typeof cliHere][] = [
  ["a directory", (p) => mkdirSync(p), /a directory where a graph file belongs/, cliHere],
  ["a FIFO", (p) => execFileSync("mkfifo", [p]), /a named pipe \(FIFO\) where a graph file belongs/, cliAsync],
];

for (const [what, make, named, doctorRun] of oddPaths) {
  test(`${what} at the graph's path: doctor names it, search answers and sets it aside, never waiting on it`, async () => {
    const db = join(dir, `odd-${what.replace(/\W/g, "")}.db`);
    for (const suffix of ["", "-wal"]) if (existsSync(source + suffix)) copyFileSync(source + suffix, db + suffix);
    make(`${db}.hnsw`);
    const doctor = await doctorRun(["doctor", "--db", db], TIMEOUT);
    assert.equal(doctor.status, 1, `doctor answers: ${doctor.stderr}`);
    assert.match(doctor.stdout, named);

    const r = cli(["search", QUERY, "--db", db, "--json"], TIMEOUT);
    assert.equal(r.status, 0, `search answers: ${r.stderr}`);
    assert.equal(topText(r), exactTop);
    assert.ok(lstatSync(`${db}.hnsw`).isFile(), "the rebuilt graph is saved where the odd path was");
    assert.ok(existsSync(`${db}.hnsw.invalid-not-a-file`), "what was there is set aside");

    rmSync(`${db}.hnsw`);
    make(`${db}.hnsw`);
    const repair = await doctorRun(["doctor", "--repair", "--db", db], TIMEOUT);
    assert.match(repair.stdout, /REPAIRED +approximate vector index: .*set aside as .*\.hnsw\.invalid-not-a-file/, repair.stdout);
    assert.ok(!existsSync(`${db}.hnsw`));
  });
}

/** A sparse file of `bytes` zeros followed by the record of the source's graph, altered to name it whole. */
function sparseGraph(file: string, bytes: number): void {
  const data = readFileSync(`${source}.hnsw`);
  const l = graphLayout(data);
  const record = JSON.parse(data.subarray(l.graphBytes, l.graphBytes + l.recordLength).toString("utf8"));
  record.bytes = bytes;
  writeGraphRecord(file, Buffer.alloc(0), record, bytes);
}

test("a sparse graph file of 64 GB whose record names it whole: doctor, search and --repair answer in seconds", async () => {
  // Its bytes are zeros (no disk used) and its record matches its length, so only the structure can refuse it. Before,
  // the whole file was hashed before the structure's answer was used: 20 GB kept doctor reading for 69 s.
  const db = join(dir, "sparse.db");
  for (const suffix of ["", "-wal"]) if (existsSync(source + suffix)) copyFileSync(source + suffix, db + suffix);
  sparseGraph(`${db}.hnsw`, 64 * 2 ** 30);

  const quick = { env: ENV, timeoutMs: 20_000 };
  const doctor = cli(["doctor", "--db", db], quick);
  assert.equal(doctor.status, 1, `doctor answers in time: ${doctor.stderr}`);
  assert.match(doctor.stdout, /FAILED +approximate vector index: the saved graph file is invalid: its structure is not a graph usearch can load safely/);
  // search and --repair in this process (helpers cliHere); doctor, which read 20 GB for 69 s before, a process with a timeout
  const r = await cliHere(["search", QUERY, "--db", db, "--json"], quick);
  assert.equal(r.status, 0, `search answers: ${r.stderr}`);
  assert.equal(topText(r), exactTop);
  assert.ok(existsSync(`${db}.hnsw.invalid-structure`));
  rmSync(`${db}.hnsw.invalid-structure`);

  sparseGraph(`${db}.hnsw`, 64 * 2 ** 30);
  const repair = await cliHere(["doctor", "--repair", "--db", db], quick);
  assert.match(repair.stdout, /REPAIRED +approximate vector index: .*set aside as sparse\.db\.hnsw\.invalid-structure/, repair.stdout);
  rmSync(`${db}.hnsw.invalid-structure`);
});

test("a directory named like an earlier layout's side file (<store>.hnsw.meta): forget --purge and doctor --repair answer, never INTERNAL", async () => {
  // Before, the save removed `<path>.meta` unconditionally: EISDIR after the graph's rename, so every save "failed",
  // `forget --purge` answered INTERNAL on a store it had purged, and --repair of a stale graph "could not be checked".
  const db = join(dir, "meta-dir.db");
  for (const suffix of ["", "-wal", ".hnsw"]) if (existsSync(source + suffix)) copyFileSync(source + suffix, db + suffix);
  mkdirSync(`${db}.hnsw.meta`);
  // the list and the other store's search in this process (helpers cliHere); forget --purge and --repair, the
  // subject, CLI processes
  const list = (await cliHere(["list", "--db", db, "--json"], TIMEOUT)).json as { memories: { id: string }[] };
  const victim = list.memories[0].id;

  const purge = cli(["forget", victim, "--purge", "--db", db], TIMEOUT);
  assert.equal(purge.status, 0, `forget --purge answers: ${purge.stdout}${purge.stderr}`);
  assert.doesNotMatch(purge.stdout + purge.stderr, /INTERNAL|EISDIR/);
  const doctor = await doctorHere(db);
  assert.match(doctor.stdout, /ok +approximate vector index: \d+ vectors, in step with the table/, doctor.stdout);

  // another store's graph (its keys stand for other vectors): --repair deletes it
  const other = join(dir, "meta-other.db");
  await rememberHere(other, Array.from({ length: 150 }, (_, i) => ({ text: `zebra ${i} quokka wombat ${i * 7} kestrel` })));
  assert.equal((await cliHere(["search", "zebra", "--db", other], { env: ENV })).status, 0);
  copyFileSync(`${other}.hnsw`, `${db}.hnsw`);
  const repair = cli(["doctor", "--repair", "--db", db], TIMEOUT);
  assert.match(repair.stdout, /REPAIRED +approximate vector index: the graph does not describe the table/, repair.stdout);
  assert.ok(lstatSync(`${db}.hnsw.meta`).isDirectory(), "what is not Cascade's is left alone");
});
