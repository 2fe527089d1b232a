/**
 * `forget --purge` leaves no vector of the forgotten memory in the saved vector graph (`<store>.hnsw`). Before, the
 * file was byte-identical after the purge: the purging process never touched it, and usearch keeps a removed
 * vector's bytes in its freed slot and saves them. Now the purge brings the graph to the table and saves it again,
 * zeroing freed slots (and deletes files set aside beside it). The threshold is lowered to 100 chunks
 * (CASCADE_APPROXIMATE_ABOVE) so the store stays small.
 */
import "./fixtures/approximate-above-100.js";
import assert from "node:assert/strict";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import Database from "better-sqlite3";
import { cli, cliHere, rememberHere, tempDir } from "./helpers.js";

const ENV = { CASCADE_APPROXIMATE_ABOVE: "100" };
const WORDS = "pool config deploy cache latency ledger retry queue timeout shard replica index schema vacuum budget harbor lantern meadow orchard quarry".split(" ");

/** The 8-bit vector rows of a graph file by key (usearch 2.x layout; see src/vectors/graph-file.ts). */
function rowsByKey(file: string): { byKey: Map<bigint, Buffer>; rows: Buffer[] } {
  const data = readFileSync(file);
  const rows = data.readUInt32LE(0);
  const width = data.readUInt32LE(4);
  const graph = 8 + rows * width + 64;
  const nodes = Number(data.readBigUInt64LE(graph));
  const m = Number(data.readBigUInt64LE(graph + 8));
  const base = Number(data.readBigUInt64LE(graph + 16));
  const levels = graph + 40;
  const byKey = new Map<bigint, Buffer>();
  const all: Buffer[] = [];
  let at = levels + 2 * nodes;
  for (let i = 0; i < nodes; i++) {
    const row = data.subarray(8 + i * width, 8 + (i + 1) * width);
    all.push(row);
    byKey.set(data.readBigUInt64LE(at), row);
    at += 14 + base * 4 + data.readInt16LE(levels + 2 * i) * (4 + m * 4);
  }
  return { byKey, rows: all };
}

test("forget --purge leaves no vector of the forgotten memory in the saved graph", async () => {
  const dir = tempDir();
  let s = 3;
  const next = () => (s = (s * 1103515245 + 12345) % 2147483648) / 2147483648;
  const db = join(dir, "memory.db");
  // written in this process; the graph built and saved by a search, a CLI process
  await rememberHere(db, Array.from({ length: 300 }, (_, i) => ({ text: `note ${i} codeword3x${i}: ${Array.from({ length: 6 }, () => WORDS[Math.floor(next() * WORDS.length)]).join(" ")}`, at: "2026-05-01T10:00:00Z" })));
  assert.equal((await cliHere(["search", "harbor lantern", "--db", db], { env: ENV })).status, 0);
  assert.ok(existsSync(`${db}.hnsw`));

  const reader = new Database(db, { readonly: true });
  const victim = reader.prepare("SELECT id FROM memories WHERE text LIKE 'note 42 %'").pluck().get() as string;
  const chunks = reader.prepare("SELECT c.id FROM chunks c JOIN memories m ON m.rowid = c.memory_rowid WHERE m.id = ?").pluck().all(victim) as number[];
  reader.close();
  const before = rowsByKey(`${db}.hnsw`);
  const vectors = chunks.map((c) => before.byKey.get(BigInt(c))!);
  assert.ok(vectors.length > 0 && vectors.every(Boolean), "the victim's vectors are in the saved graph");
  writeFileSync(`${db}.hnsw.invalid-checksum`, readFileSync(`${db}.hnsw`)); // a copy set aside earlier holds them too

  // the purging process loads the graph and removes the victim's keys: usearch frees their slots, keeping the bytes
  const r = cli(["forget", victim, "--purge", "--db", db], { env: ENV });
  assert.equal(r.status, 0, r.stderr);

  assert.ok(existsSync(`${db}.hnsw`), "the graph is rewritten, not just dropped");
  const after = rowsByKey(`${db}.hnsw`);
  for (const c of chunks) assert.ok(!after.byKey.has(BigInt(c)), `chunk ${c} is not a key of the graph`);
  const zero = Buffer.alloc(vectors[0].length);
  for (const v of vectors) assert.ok(!after.rows.some((row) => row.equals(v) && !row.equals(zero)), "no row of the saved graph holds the forgotten vector");
  assert.ok(!existsSync(`${db}.hnsw.invalid-checksum`), "the set-aside copy is deleted");
  const doctor = await cliHere(["doctor", "--db", db], { env: ENV });
  assert.match(doctor.stdout, /ok +approximate vector index: \d+ vectors, in step with the table/, doctor.stdout);
});
