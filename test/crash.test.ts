/**
 * The crash harness: a writer process (batches with revision detection, pyramid builds) is SIGKILLed at a
 * seeded random moment, CASCADE_CRASH_RUNS times (default 20) on the same store. After every kill the store
 * must pass SQLite's integrity check and `doctor` (every index agrees with the tables), and hold every memory
 * the writer had acknowledged.
 */
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { join } from "node:path";
import { test } from "node:test";
import { openMemory, SqliteStore } from "../src/index.js";
import { tempDir } from "./helpers.js";

const WRITER = new URL("./procs/writer.js", import.meta.url).pathname;
const RUNS = Number(process.env.CASCADE_CRASH_RUNS ?? 20);

function rng(seed: number): () => number {
  let s = seed >>> 0 || 1;
  return () => ((s = (Math.imul(s, 1664525) + 1013904223) >>> 0) / 2 ** 32);
}

/** Starts a writer, kills it `delayMs` after its first acknowledgement, and returns what it acknowledged. */
function writeUntilKilled(db: string, seed: number, delayMs: number): Promise<string[]> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [WRITER, "crash", db, String(seed)], { stdio: ["ignore", "pipe", "pipe"] });
    const acked: string[] = [];
    let buffer = "";
    let stderr = "";
    let timer: NodeJS.Timeout | null = null;
    child.stdout.on("data", (d) => {
      buffer += d;
      const lines = buffer.split("\n");
      buffer = lines.pop()!;
      for (const l of lines) if (l.startsWith("ack ")) acked.push(l.slice(4));
      timer ??= setTimeout(() => child.kill("SIGKILL"), delayMs);
    });
    child.stderr.on("data", (d) => (stderr += d));
    child.on("exit", (_code, signal) => {
      if (timer) clearTimeout(timer);
      if (signal !== "SIGKILL") reject(new Error(`the writer stopped on its own: ${stderr}`));
      else resolve(acked);
    });
  });
}

/** One lane: RUNS/LANES kills on its own store, checking after each. Lanes run side by side to halve the time. */
async function lane(db: string, lane: number, runs: number): Promise<number> {
  await (await openMemory({ path: db })).close();
  const r = rng(20261203 + lane);
  const acknowledged = new Set<string>();
  for (let run = 0; run < runs; run++) {
    const delay = 20 + Math.floor(r() * 400);
    for (const id of await writeUntilKilled(db, 1000 * lane + run, delay)) acknowledged.add(id);

    const engine = await openMemory({ path: db });
    try {
      const doctor = await engine.doctor();
      assert.ok(doctor.ok, `lane ${lane} run ${run} (kill after ${delay} ms): ${JSON.stringify(doctor.checks.filter((c) => !c.ok))}`);
    } finally {
      await engine.close();
    }
    const store = new SqliteStore(db);
    const present = new Set(await store.memoryIdsInOrder());
    await store.close();
    const missing = [...acknowledged].filter((id) => !present.has(id));
    assert.deepEqual(missing.slice(0, 5), [], `lane ${lane} run ${run}: ${missing.length} acknowledged memories missing`);
  }
  return acknowledged.size;
}

const LANES = 2;

test(`${RUNS} SIGKILLs at seeded random points: integrity, doctor, every acknowledged memory present`, { timeout: RUNS * 10_000 }, async () => {
  const dir = tempDir();
  const sizes = await Promise.all(Array.from({ length: LANES }, (_, i) => lane(join(dir, `crash${i}.db`), i + 1, Math.ceil(RUNS / LANES))));
  const total = sizes.reduce((a, b) => a + b, 0);
  assert.ok(sizes.every((n) => n > RUNS / LANES), "the writers got far enough to matter");
  process.stderr.write(`# crash: ${RUNS} kills, ${total} acknowledged memories checked, 0 lost, doctor ok every time\n`);
});
