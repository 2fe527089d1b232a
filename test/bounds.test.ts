/**
 * Inputs whose cost grows faster than their size are bounded at the boundary: topic depth and length, lquery
 * length and stars, list lengths such as `kinds`, metadata nesting, and the prepared-statement cache. Each
 * case once cost the server its memory, its stack or seconds of its only thread.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { CascadeError, MemorySpace } from "../src/index.js";
import { filterCondition } from "../src/backends/sqlite/filter-sql.js";
import { StatementCache } from "../src/backends/sqlite/statement-cache.js";
import { matchesLquery, parseLquery } from "../src/topics/lquery.js";
import { startHttpServer, type RunningServer } from "../src/surfaces/http/serve.js";
import { cli, cliHere, emptyEngine, tempDir } from "./helpers.js";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";

const nested = (depth: number): unknown => {
  let v: unknown = { leaf: true };
  for (let i = 0; i < depth; i++) v = { d: v };
  return v;
};

const isInvalid = (field: string, message: RegExp) => (err: unknown) =>
  err instanceof CascadeError && err.code === "INVALID_INPUT" && err.field === field && message.test(err.message);

describe("through the SDK", () => {
  test("topic paths: at most 16 labels and 500 characters", async () => {
    const { engine } = await emptyEngine();
    await assert.rejects(engine.remember({ text: "x", topic: Array(65_535).fill("a").join(".") }), isInvalid("topic", /at most 500 characters/));
    await assert.rejects(engine.remember({ text: "x", topic: Array(17).fill("a").join(".") }), isInvalid("topic", /at most 16 labels, got 17/));
    await engine.remember({ text: "deep but fine", topic: Array(16).fill("a").join(".") });
    assert.equal((await engine.topics()).topics.length, 16);
    await engine.close();
  });

  test("lquery: bounded length and items, matched without recursion", async () => {
    const { engine } = await emptyEngine();
    await engine.remember({ text: "deep", topic: Array(16).fill("a").join(".") });
    await assert.rejects(engine.recall("deep", { match: Array(600).fill("*").join(".") }), isInvalid("match", /at most 1000 characters|at most 32 items/));
    await assert.rejects(engine.recall("deep", { match: Array(20_000).fill("*").join(".") }), isInvalid("match", /at most 1000 characters/));
    await assert.rejects(engine.recall("deep", { match: Array(33).fill("*").join(".") }), isInvalid("match", /at most 32 items/));
    const hits = await engine.recall("deep", { match: Array(32).fill("*").join(".") });
    assert.equal(hits.hits.length, 1);
    // the matcher itself takes any number of items without recursing
    assert.equal(matchesLquery(Array(50_000).fill({ kind: "any", min: 0, max: Infinity }), "a.b.c"), true);
    assert.equal(matchesLquery(parseLquery("*{2}.c"), "a.b.c"), true);
    await engine.close();
  });

  test("kinds: at most 32, and one SQL text whatever their number", async () => {
    const { engine } = await emptyEngine();
    const kinds = (n: number) => Array.from({ length: n }, (_, i) => `k${i}`);
    await assert.rejects(engine.recall("x", { kinds: kinds(33) }), isInvalid("kinds", /at most 32/));
    await assert.rejects(engine.recall("x", { excludeKinds: kinds(40_000) }), isInvalid("excludeKinds", /at most 32/));
    assert.equal((await engine.recall("x", { kinds: kinds(32) })).hits.length, 0);
    const sql = new Set(Array.from({ length: 32 }, (_, i) => filterCondition({ kinds: kinds(i + 1), excludeKinds: kinds(i + 1) }).sql));
    assert.equal(sql.size, 1, "a statement per distinct length would fill the cache");
    await engine.close();
  });

  test("supersedes: at most 64 memories", async () => {
    const { engine } = await emptyEngine();
    await assert.rejects(engine.remember({ text: "x", supersedes: Array.from({ length: 65 }, (_, i) => `m_${i}`) } as never), isInvalid("supersedes", /at most 64/));
    await engine.close();
  });

  test("metadata: an object, at most 16 levels deep", async () => {
    const { engine } = await emptyEngine();
    await assert.rejects(engine.remember({ text: "x", metadata: nested(4000) as any }), isInvalid("metadata", /nested more than 16 levels/));
    await assert.rejects(engine.remember({ text: "x", metadata: nested(16) as any }), isInvalid("metadata", /nested more than 16 levels/));
    for (const bad of ["abc", [1, 2], null, 42]) {
      await assert.rejects(engine.remember({ text: "x", metadata: bad as any }), isInvalid("metadata", /must be a JSON object/));
    }
    await assert.rejects(engine.remember({ text: "x", metadata: { big: "x".repeat(70_000) } }), isInvalid("metadata", /at most 65536/));
    const ok = await engine.remember({ text: "x", metadata: nested(14) as any });
    assert.deepEqual((await engine.show(ok.id)).metadata, nested(14));
    await engine.close();
  });
});

test("the statement cache holds at most its capacity, dropping the least recently used", () => {
  const cache = new StatementCache<number>(3);
  for (const k of ["a", "b", "c"]) cache.set(k, k.charCodeAt(0));
  cache.get("a"); // a is now the most recently used
  cache.set("d", 100);
  assert.deepEqual([...cache.keys()], ["c", "a", "d"]);
  for (let i = 0; i < 10_000; i++) cache.set(`sql ${i}`, i);
  assert.equal(cache.size, 3);
});

describe("through HTTP: 400, never a 500 or a dead server", () => {
  let server: RunningServer;
  const post = async (path: string, body: unknown) => {
    const res = await fetch(server.url + path, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
    return { status: res.status, json: (await res.json()) as any };
  };
  before(async () => {
    server = await startHttpServer(new MemorySpace(join(tempDir(), "bounds.db")), { host: "127.0.0.1", port: 0 });
  });
  after(() => server.close());

  test("hostile bodies", async () => {
    const cases: [string, unknown][] = [
      ["/v1/memories", { text: "x", topic: Array(65_535).fill("a").join(".") }],
      ["/v1/memories", { text: "x", metadata: nested(4000) }],
      ["/v1/memories", { text: "x", metadata: "abc" }],
      ["/v1/search", { query: "x", match: Array(20_000).fill("*").join(".") }],
      ["/v1/search", { query: "x", kinds: Array.from({ length: 40_000 }, (_, i) => `k${i}`) }],
      ["/v1/topics", { path: Array(1000).fill("deep").join(".") }],
    ];
    for (const [path, body] of cases) {
      const r = await post(path, body);
      assert.equal(r.status, 400, `${path}: ${JSON.stringify(r.json).slice(0, 200)}`);
      assert.equal(r.json.error.code, "INVALID_INPUT");
    }
    const topics = await fetch(`${server.url}/v1/topics`);
    assert.equal(topics.status, 200);
    assert.deepEqual(await topics.json(), { topics: [] }, "nothing hostile was stored");
  });
});

test("through the CLI and MCP: the same refusals, and the tree still lists", async () => {
  const db = join(tempDir(), "cli-mcp.db");
  const deep = Array(65_535).fill("a").join(".");
  const add = cli(["--db", db, "add", "x", "--topic", deep, "--json"]);
  assert.equal(add.status, 2);
  assert.match(add.json.error.message, /^topic: a topic path has at most 500 characters/);
  const search = await cliHere(["--db", db, "search", "x", "--match", Array(600).fill("*").join("."), "--json"]);
  assert.equal(search.status, 2);
  const meta = await cliHere(["--db", db, "add", "x", "--metadata", JSON.stringify(nested(100)), "--json"]);
  assert.equal(meta.status, 2);

  const client = new Client({ name: "bounds-test", version: "1.0.0" });
  const main = new URL("../src/surfaces/cli/main.js", import.meta.url).pathname;
  await client.connect(new StdioClientTransport({ command: process.execPath, args: [main, "mcp", "--db", db], stderr: "pipe" }));
  try {
    const r = (await client.callTool({ name: "memory_add", arguments: { text: "x", topic: deep } })) as any;
    assert.equal(r.isError, true);
    assert.match(r.content[0].text, /^error INVALID_INPUT: topic: a topic path has at most 500 characters/);
    const topics = (await client.callTool({ name: "memory_topics", arguments: {} })) as any;
    assert.equal(topics.content[0].text, "No topics yet.");
  } finally {
    await client.close();
  }
});
