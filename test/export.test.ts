/**
 * `cascade export` → `cascade import` on SQLite: the second store answers every question as the first did,
 * record by record (text, both times, scopes, metadata, tags, topics, refs, corrections, every edge with its times,
 * retracted ones too, and so each memory's status and history); a second import changes nothing.
 */
import assert from "node:assert/strict";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { MemorySpace, openMemory, parseInstant, type Engine } from "../src/index.js";
import { startHttpServer } from "../src/surfaces/http/serve.js";
import { cli, cliHere, tempDir } from "./helpers.js";

const NOW = "2026-06-20T09:00:00Z";

async function seed(engine: Engine): Promise<string[]> {
  const r = await engine.rememberMany(
    [
      { text: "Config lives in YAML files.", kind: "decision", topic: "ops.config", at: "2026-02-05T10:30:00Z", user: "alice", agent: "planner", tags: ["config"], metadata: { ref: "d1", project: "atlas" } },
      { text: "Config goes back to environment variables.", kind: "decision", topic: "ops.config", at: "2026-05-06T15:00:00Z", user: "alice", title: "Reversal", description: "the YAML move is undone" },
      { text: "Lena: the pool size is 50.", speaker: "Lena", role: "user", session: "s1", at: "2026-03-01T09:00:00Z", user: "bob" },
      { text: "Pool size goes to 20.", at: "2026-06-01T09:00:00Z", user: "bob", expires: "2026-06-10T00:00:00Z" },
    ],
    { detect: false },
  );
  const ids = r.ids as string[];
  await engine.supersede(ids[1], ids[0], { reason: "env vars win" });
  await engine.retract((await engine.supersede(ids[3], ids[1], { reason: "wrong pair" })).id);
  await engine.link(ids[3], ids[2], { type: "refines" });
  await engine.update(ids[2], { text: "Lena: the pool size is 40.", tags: ["pool"] });
  await engine.update(ids[2], { text: "Lena: the pool size is 45." });
  return ids;
}

/** Everything a reader can ask of a store about these memories. */
async function snapshot(engine: Engine, ids: string[]) {
  const out = [];
  for (const id of ids) out.push({ memory: await engine.show(id), history: await engine.history(id) });
  const list = await engine.list({ includeExpired: true, limit: 100 });
  const topics = await engine.topics();
  return { out, list: list.memories.filter((m) => m.kind !== "summary"), topics };
}

test("export → import gives an equal store, record by record; importing it again changes nothing", async () => {
  const dir = tempDir();
  const a = join(dir, "a.db");
  const b = join(dir, "b.db");
  const original = await openMemory({ path: a, now: parseInstant("now", NOW) });
  const ids = await seed(original);
  const before = await snapshot(original, ids);
  await original.close();

  const exported = cli(["export", "--db", a, "--now", NOW]);
  assert.equal(exported.status, 0, exported.stderr);
  const lines = exported.stdout.trim().split("\n").map((l) => JSON.parse(l));
  assert.equal(lines.length, 4, "summaries are left out");
  assert.ok(lines.every((l) => !Object.values(l).includes(null)), "no nulls: empty fields are left out");
  const file = join(dir, "export.jsonl");
  writeFileSync(file, exported.stdout);

  // a later `now`: restored records keep their own times, not the importer's clock
  const imported = cli(["import", file, "--db", b, "--now", "2026-12-01T00:00:00Z", "--json"]);
  assert.equal(imported.status, 0, imported.stderr);
  assert.deepEqual(imported.json, { imported: 4, skipped: 0, failed: [], warnings: [] });
  const copy = await openMemory({ path: b, now: parseInstant("now", NOW) });
  const after = await snapshot(copy, ids);
  await copy.close();
  for (const [i, id] of ids.entries()) {
    assert.deepEqual(after.out[i].memory, before.out[i].memory, `memory ${id}`);
    assert.deepEqual(after.out[i].history, before.out[i].history, `history of ${id}`);
  }
  assert.deepEqual(after.list, before.list, "status and neighbours of every memory");
  assert.deepEqual(after.topics, before.topics);
  assert.equal(before.out[1].history.edges.filter((e) => e.retracted_at !== null).length, 1, "the retracted edge came along");
  assert.equal(before.out[2].history.revisions.length, 2, "both corrections came along");

  const again = await cliHere(["import", file, "--db", b, "--json"]);
  assert.equal(again.status, 0, again.stderr);
  assert.deepEqual(again.json, { imported: 0, skipped: 4, failed: [], warnings: [] });
  assert.equal((await cliHere(["export", "--db", b, "--now", NOW])).stdout, readFileSync(file, "utf8"), "the copy exports the same file");
});

test("export --filter, --since and --until choose the memories", async () => {
  const a = join(tempDir(), "a.db");
  const engine = await openMemory({ path: a, now: parseInstant("now", NOW) });
  await seed(engine);
  await engine.close();
  // the CLI in this process (helpers cliHere: the same output and exit code); the first test's export is a process
  const texts = async (args: string[]) => (await cliHere(["export", "--db", a, "--now", NOW, ...args])).stdout.trim().split("\n").map((l) => JSON.parse(l).text);
  assert.deepEqual(await texts(["--filter", "user=bob"]), ["Lena: the pool size is 45.", "Pool size goes to 20."]);
  assert.deepEqual(await texts(["--since", "2026-05-01", "--until", "2026-06-01"]), ["Config goes back to environment variables."]);
});

test("GET /v1/export streams the same lines as cascade export; a bad option is a 400", async () => {
  const a = join(tempDir(), "a.db");
  const engine = await openMemory({ path: a, now: parseInstant("now", NOW) });
  await seed(engine);
  await engine.close();
  const server = await startHttpServer(new MemorySpace(a, { now: parseInstant("now", NOW) }), { host: "127.0.0.1", port: 0 });
  try {
    const res = await fetch(`${server.url}/v1/export`);
    assert.equal(res.status, 200);
    assert.equal(res.headers.get("content-type"), "application/x-ndjson; charset=utf-8");
    assert.equal(await res.text(), (await cliHere(["export", "--db", a, "--now", NOW])).stdout);
    const bob = await (await fetch(`${server.url}/v1/export?filter=user=bob&since=2026-05-01`)).text();
    assert.deepEqual(bob.trim().split("\n").map((l) => JSON.parse(l).text), ["Pool size goes to 20."]);
    const bad = await fetch(`${server.url}/v1/export?since=yesterday-ish`);
    assert.equal(bad.status, 400);
    assert.match(((await bad.json()) as any).error.message, /^since: /);
  } finally {
    await server.close();
  }
});
