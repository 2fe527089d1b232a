import assert from "node:assert/strict";
import { join } from "node:path";
import { test } from "node:test";
import { CascadeError, openMemory, parseInstant } from "../src/index.js";
import { cli, cliHere, tempDir } from "./helpers.js";

test("SDK: remember → recall → supersede → recall shows the new status, in one process", async () => {
  // detection would link this pair by itself (a habit's day: Fridays → every Monday, below); here the edge is drawn by hand
  const memory = await openMemory({ path: join(tempDir(), "sdk.db"), now: parseInstant("now", "2026-06-20T09:00:00Z"), detection: { enabled: false } });
  const old = await memory.remember({ text: "Weekly reports go out on Fridays.", at: "2026-01-05" });
  const neu = await memory.remember({ text: "Weekly reports are published every Monday morning.", at: "2026-04-06" });
  let r = await memory.recall("when do weekly reports go out?", { k: 5 });
  assert.equal(r.hits.find((h) => h.id === old.id)!.status, "current");
  const edge = await memory.supersede(neu.id, old.id, { reason: "moved to Mondays" });
  assert.equal(edge.reason, "moved to Mondays");
  r = await memory.recall("when do weekly reports go out?", { k: 5 });
  assert.equal(r.hits[0].id, neu.id);
  assert.deepEqual(r.hits[0].supersedes, [old.id]);
  const stale = r.hits.find((h) => h.id === old.id)!;
  assert.equal(stale.status, "superseded");
  assert.deepEqual(stale.superseded_by, [neu.id]);
  await assert.rejects(memory.recall("x", { k: -1 }), (e: unknown) => e instanceof CascadeError && e.code === "INVALID_INPUT" && e.field === "k");
  await memory.close();
  // with detection on (the default), the later habit's day supersedes the earlier by itself
  const detected = await openMemory({ path: join(tempDir(), "sdk-detect.db"), now: parseInstant("now", "2026-06-20T09:00:00Z") });
  const before = await detected.remember({ text: "Weekly reports go out on Fridays.", at: "2026-01-05" });
  const after = await detected.remember({ text: "Weekly reports are published every Monday morning.", at: "2026-04-06" });
  const hits = (await detected.recall("when do weekly reports go out?", { k: 5 })).hits;
  assert.deepEqual(hits.find((h) => h.id === before.id)?.superseded_by, [after.id]);
  await detected.close();
});

test("CLI --namespace keeps memories apart", async () => {
  const db = join(tempDir(), "ns.db");
  const a = cli(["add", "Project Falcon ships in May.", "--db", db, "--namespace", "team-a", "--json"]).json;
  (await cliHere(["add", "Project Falcon was cancelled.", "--db", db, "--namespace", "team-b", "--json"]));
  const hits = (await cliHere(["search", "Project Falcon", "--db", db, "--namespace", "team-a", "--json"])).json.hits;
  assert.deepEqual(hits.map((h: { id: string }) => h.id), [a.id]);
  // the default namespace was never written: a read of it finds no store (and creates none)
  assert.equal((await cliHere(["search", "Project Falcon", "--db", db, "--json"])).json.error.code, "NOT_FOUND");
  const bad = await cliHere(["search", "x", "--db", db, "--namespace", "a/b"]);
  assert.equal(bad.status, 2);
  assert.match(bad.stderr, /namespace: "a\/b" must be 1–64 letters/);
});
