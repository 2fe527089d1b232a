/**
 * `cascade import --format mem0`: Mem0's get_all JSON (test/fixtures/mem0-get-all.json, in the shape of its
 * API's answer) mapped as docs/GUIDE.md documents: memory → text, user_id → user, agent_id → agent, created_at → at,
 * metadata kept, id → metadata.ref "mem0:<id>", updated_at → metadata.mem0_updated_at.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { test } from "node:test";
import { openMemory, parseInstant } from "../src/index.js";
import { cli, cliHere, tempDir } from "./helpers.js";

const FIXTURE = fileURLToPath(new URL("../../test/fixtures/mem0-get-all.json", import.meta.url));
const NOW = "2026-06-20T09:00:00Z";

test("a Mem0 export imports with the documented mapping; a bad item is reported by position; a second import skips", async () => {
  const db = join(tempDir(), "mem0.db");
  const r = cli(["import", FIXTURE, "--format", "mem0", "--db", db, "--now", NOW, "--json"]);
  assert.equal(r.status, 1, "one item failed");
  assert.equal(r.json.imported, 3);
  assert.deepEqual(r.json.failed, [{ line: 4, error: "memory: required, a string" }]);

  // what the import stored, read in this process (search and show --json print the SDK's hits and memory as they
  // are; the import is what is tested): three CLI processes fewer
  const engine = await openMemory({ path: db, create: false, now: parseInstant("now", NOW) });
  try {
    const found = (await engine.recall("vegetarian", { filter: { user: "alex" } })).hits[0];
    const m = await engine.show(found.id);
    assert.equal(m.text, "Prefers vegetarian food and window seats");
    assert.equal(m.user, "alex");
    assert.equal(m.agent, "travel-agent");
    assert.equal(m.at, "2024-07-25T16:00:00Z");
    assert.deepEqual(m.metadata, { source: "chat", confidence: "high", ref: "mem0:0a5c8d0b-2f7e-4a39-9c4e-7f3d2b1c6e11", mem0_updated_at: "2024-07-27T09:00:00-07:00" });
    const trip = (await engine.recall("Japan trip")).hits[0];
    assert.equal(trip.ref, "mem0:892db2ae-06d9-49e5-8b3e-585ef9b85b8e");
    assert.equal(trip.at, "2024-07-26T17:29:36.631Z", "microseconds rounded to the millisecond, in UTC");
  } finally {
    await engine.close();
  }

  const again = await cliHere(["import", FIXTURE, "--format", "mem0", "--db", db, "--now", NOW, "--json"]);
  assert.equal(again.json.imported, 0);
  assert.equal(again.json.skipped, 3);
});
