/**
 * Forgetting leaves no copy behind. A marker sits in a memory's text, title, tags and metadata, in a session
 * (so the next turn indexes it as context) and in a day with a built pyramid (so the summaries quote it).
 * `forget` must rebuild those summaries before returning; `forget --purge` must leave no byte of the marker in
 * the database file, its write-ahead log or any index, through the SDK, the CLI, HTTP and MCP.
 */
import assert from "node:assert/strict";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { MemorySpace, openMemory, parseInstant, type Engine } from "../src/index.js";
import { startHttpServer } from "../src/surfaces/http/serve.js";
import { cli, tempDir } from "./helpers.js";

const MARKER = "Qzorvexil";
const NOW = "2026-06-20T09:00:00Z";
const CLI = new URL("../src/surfaces/cli/main.js", import.meta.url).pathname;

/** Copies of the marker in the store's files: whole, lowercased (FTS5 terms) or as the tail a prefix-compressed FTS5 term keeps. */
function copies(db: string, word = MARKER): number {
  let n = 0;
  for (const file of [db, `${db}-wal`]) {
    if (!existsSync(file)) continue;
    const bytes = readFileSync(file).toString("latin1").toLowerCase();
    n += bytes.split(word.toLowerCase().slice(3)).length - 1; // the tail is inside every whole copy too
  }
  return n;
}

/** A day of turns in one session, the marker in the middle one, and a built pyramid. Returns the marked id. */
async function seed(engine: Engine): Promise<string> {
  await engine.remember({ text: "We met to plan the ledger migration.", speaker: "Ana", session: "s1", at: "2026-06-10T09:00:00Z" });
  const marked = await engine.remember({
    text: `The secret project is called ${MARKER} and ships in July.`,
    title: `${MARKER} plan`,
    tags: [MARKER.toLowerCase(), "secret"],
    metadata: { codename: MARKER },
    speaker: "Ben",
    session: "s1",
    at: "2026-06-10T09:05:00Z",
  });
  await engine.remember({ text: "Then we agreed to review the budget on Friday.", speaker: "Ana", session: "s1", at: "2026-06-10T09:10:00Z" });
  await engine.buildPyramid();
  return marked.id;
}

test("forget rebuilds the summaries that quoted the memory before it returns", async () => {
  const db = join(tempDir(), "forget.db");
  const engine = await openMemory({ path: db, now: parseInstant("now", NOW) });
  const id = await seed(engine);
  const day = await engine.show("p_day_2026-06-10");
  assert.match(day.text, new RegExp(MARKER), "precondition: the day summary quotes the marker");
  const r = await engine.forget(id);
  assert.equal(r.summaries_rebuilt, 3);
  for (const n of (await engine.pyramid()).nodes) assert.doesNotMatch(n.text + JSON.stringify(await engine.show(n.id)), new RegExp(MARKER, "i"), n.id);
  const hits = await engine.recall(MARKER, { k: 20 });
  assert.ok(hits.hits.every((h) => !new RegExp(MARKER, "i").test(h.text + (h.title ?? ""))), "no hit carries the marker");
  assert.ok(copies(db) > 0, "without --purge the bytes may remain (this is what the grep finds)");
  await engine.close();
});

test("forget --purge through the SDK and the CLI: 0 copies in the file and the WAL", async () => {
  const db = join(tempDir(), "purge-sdk.db");
  const engine = await openMemory({ path: db, now: parseInstant("now", NOW) });
  const id = await seed(engine);
  const r = await engine.forget(id, { purge: true });
  assert.equal(r.purged?.checkpointed, true);
  assert.equal(copies(db), 0);
  assert.equal((await engine.doctor()).ok, true, "the store is whole after the purge");
  assert.equal((await engine.recall("ledger migration")).hits.length > 0, true);
  await engine.close();

  const db2 = join(tempDir(), "purge-cli.db");
  const e2 = await openMemory({ path: db2, now: parseInstant("now", NOW) });
  const id2 = await seed(e2);
  await e2.close();
  assert.ok(copies(db2) > 0);
  const out = cli(["--db", db2, "forget", id2, "--purge", "--json"]);
  assert.equal(out.status, 0, out.stderr);
  assert.equal(out.json.purged.checkpointed, true);
  assert.equal(copies(db2), 0);
});

test("DELETE ?purge=true on a running server and MCP memory_forget purge: 0 copies", async () => {
  const db = join(tempDir(), "purge-http.db");
  const space = new MemorySpace(db, { now: parseInstant("now", NOW) });
  const server = await startHttpServer(space, { host: "127.0.0.1", port: 0 });
  try {
    const id = await seed(await space.engine());
    assert.ok(copies(db) > 0);
    const res = await fetch(`${server.url}/v1/memories/${id}?purge=true`, { method: "DELETE" });
    assert.equal(res.status, 200);
    assert.equal(((await res.json()) as any).purged.checkpointed, true);
    assert.equal(copies(db), 0, "the server's own connection checkpointed and truncated its log");
  } finally {
    await server.close();
  }

  const db2 = join(tempDir(), "purge-mcp.db");
  const e = await openMemory({ path: db2, now: parseInstant("now", NOW) });
  const id2 = await seed(e);
  await e.close();
  const client = new Client({ name: "purge-test", version: "1.0.0" });
  await client.connect(new StdioClientTransport({ command: process.execPath, args: [CLI, "mcp", "--db", db2], stderr: "pipe" }));
  const r = (await client.callTool({ name: "memory_forget", arguments: { id: id2, purge: true } })) as any;
  assert.notEqual(r.isError, true, JSON.stringify(r));
  await client.close();
  assert.equal(copies(db2), 0);
});

test("an alias keeps no forgotten name: every memory naming Melanie purged, the one saying Mel names the entity", async () => {
  const db = join(tempDir(), "purge-alias.db");
  const engine = await openMemory({ path: db, now: parseInstant("now", NOW) });
  const said = [
    await engine.remember({ text: "I went camping with the kids at the lake.", speaker: "Melanie", at: "2026-06-10T09:05:00Z" }),
    await engine.remember({ text: "Melanie loves pottery.", speaker: "Caroline", at: "2026-06-10T09:06:00Z" }),
  ];
  await engine.remember({ text: "Hey Mel, how was the camping?", speaker: "Caroline", at: "2026-06-10T09:07:00Z" });
  assert.deepEqual((await engine.entities()).entities.map((e) => `${e.name}:${e.memories}`), ["Melanie:3", "Caroline:2"], "Mel merged into Melanie");
  for (const m of said) await engine.forget(m.id, { purge: true });
  assert.deepEqual((await engine.entities()).entities.map((e) => `${e.name}:${e.memories}`), ["Caroline:1", "Mel:1"]);
  assert.equal(copies(db, "Melanie"), 0, "before: 4 copies (the entity's name, its key and the key in two indexes)");
  await engine.close();
});
