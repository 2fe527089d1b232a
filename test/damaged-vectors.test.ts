/**
 * A chunk whose stored vector a damaged page turned into NULL (or a blob of the wrong size). Before, search answered
 * INTERNAL "Cannot convert undefined or null to object" from the vector matrix, still after `doctor --repair`, and
 * doctor's "vector sizes" counted 0 (length() of NULL is NULL, which `<>` never counts). Now search answers
 * STORE_ERROR naming the chunk and what repair can (and cannot) do, and doctor counts it.
 * NOT NULL is taken off the column first (writable_schema) so that the test can write the NULL a damaged page leaves.
 */
import assert from "node:assert/strict";
import { copyFileSync } from "node:fs";
import { join } from "node:path";
import { before, test } from "node:test";
import { openMemory, parseInstant } from "../src/index.js";
import { damageVector } from "./fixtures/damage-vector.js";
import { cli, cliHere, tempDir } from "./helpers.js";

const NOW = "2026-06-03T10:00:00Z";
let pristine: string;

before(async () => {
  pristine = join(tempDir(), "pristine.db");
  const engine = await openMemory({ path: pristine, now: parseInstant("now", NOW) });
  await engine.rememberMany(Array.from({ length: 20 }, (_, i) => ({ text: `Note ${i}: the indexer work moved on by step ${i}`, at: "2026-05-02T09:00:00Z" })));
  await engine.close();
});

/** A copy of the store whose first chunk's vector is `value` (SQL). */
function damaged(value: string): string {
  const path = join(tempDir(), "memory.db");
  copyFileSync(pristine, path);
  damageVector(path, value);
  return path;
}

for (const [what, value, says] of [
  ["NULL", "NULL", /chunk \d+ has no vector/],
  ["a blob of 3 bytes", "X'000102'", /chunk \d+ has 3 bytes where 400 belong/],
  ["a text", "'abc'", /chunk \d+ has not a vector/],
] as const) {
  test(`a chunk's vector damaged to ${what}: search answers STORE_ERROR saying what and what repair can do; doctor counts it`, async () => {
    const db = damaged(value);
    // one CLI process a damage (the first search, the second doctor, the third --repair), the others in this process
    // (helpers cliHere: the same output and exit code)
    const proc = (first: string) => (what === first ? cli : cliHere);
    const r = await proc("NULL")(["search", "indexer work", "--db", db, "--now", NOW, "--json"]);
    assert.equal(r.status, 1, r.stderr);
    assert.equal(r.json?.error?.code, "STORE_ERROR", r.stdout);
    assert.match(r.json.error.message, /the store is damaged: /);
    assert.match(r.json.error.message, says);
    assert.match(r.json.error.message, /no repair can rebuild a vector: forget the memories they belong to and add them again/);
    const doctor = await proc("a blob of 3 bytes")(["doctor", "--db", db, "--now", NOW]);
    assert.equal(doctor.status, 1);
    assert.match(doctor.stdout, /FAILED +vector sizes: 1 vectors are not 100-d/);
    const repaired = await proc("a text")(["doctor", "--repair", "--db", db, "--now", NOW]);
    assert.match(repaired.stdout, /FAILED +vector sizes: 1 vectors/);
    const after = await cliHere(["search", "indexer work", "--db", db, "--now", NOW, "--json"]);
    assert.equal(after.json?.error?.code, "STORE_ERROR", "still STORE_ERROR after the repair, never INTERNAL");
  });
}
