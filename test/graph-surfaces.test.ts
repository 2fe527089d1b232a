/**
 * link / graph / entities on every surface: the CLI (exit codes, one JSON document), HTTP on a real loopback
 * server (201, 400, 404) and MCP over stdio. Bad input writes nothing.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { MemorySpace, parseInstant } from "../src/index.js";
import { startHttpServer, type RunningServer } from "../src/surfaces/http/serve.js";
import { cli, cliHere, tempDir } from "./helpers.js";

const NOW = "2026-06-20T09:00:00Z";

describe("CLI: link, graph, entities", () => {
  const db = join(tempDir(), "graph-cli.db");
  // the two adds (in the suite's body, which cannot wait) CLI processes, the others in this process (helpers cliHere:
  // the same output and exit code)
  const proc = (...args: string[]) => cli([...args, "--db", db, "--now", NOW, "--json"]);
  const run = (...args: string[]) => cliHere([...args, "--db", db, "--now", NOW, "--json"]);
  const a = proc("add", "Priya owns the payments-api.", "--at", "2026-01-01").json.id as string;
  const b = proc("add", "The payments-api moved to Kubernetes.", "--at", "2026-01-02").json.id as string;

  test("link writes a typed edge; graph shows nodes and edges; entities counts mentions", async () => {
    const e = await run("link", b, a, "--type", "refines", "--reason", "more detail", "--at", "2026-01-03");
    assert.equal(e.status, 0, e.stderr);
    assert.equal(e.json.type, "refines");
    assert.equal(e.json.valid_from, "2026-01-03T00:00:00Z");
    const g = await run("graph", a, "--depth", "2");
    assert.equal(g.status, 0, g.stderr);
    assert.ok(g.json.nodes.some((n: any) => n.id === b));
    assert.ok(g.json.edges.some((x: any) => x.type === "refines" && x.from === b && x.to === a));
    assert.ok(g.json.edges.some((x: any) => x.type === "mentions" && x.from === a));
    const only = await run("graph", a, "--type", "refines");
    assert.deepEqual(only.json.nodes.map((n: any) => n.id).sort(), [a, b].sort());
    const ents = await run("entities", "--query", "payments");
    assert.deepEqual(ents.json.entities.map((x: any) => [x.name, x.memories]), [["payments-api", 2]]);
  });

  test("bad input: exit 2, one line naming the problem, nothing written", async () => {
    const before = (await run("graph", a)).json.edges.length;
    for (const args of [
      ["link", a, "m_nope", "--type", "refines"],
      ["link", a, a, "--type", "refines"],
      ["link", a, b, "--type", "likes"],
      ["link", a, b],
      ["link", a, b, "--type", "supersedes", "--at", "not-a-date"],
    ]) {
      const r = await run(...args);
      assert.equal(r.status, 2, `${args.join(" ")}: ${r.stderr}`);
      assert.equal(r.stderr.trim().split("\n").length, 1);
      assert.ok(r.json?.error?.code, args.join(" "));
    }
    (await run("link", b, a, "--type", "supersedes"));
    const cycle = await run("link", a, b, "--type", "supersedes");
    assert.equal(cycle.status, 2);
    assert.match(cycle.stderr, /cycle/);
    assert.equal((await run("graph", a, "--depth", "1000")).status, 2);
    assert.equal((await run("graph", "m_nope")).status, 2);
    assert.equal((await run("entities", "--top", "0")).status, 2);
    assert.equal((await run("graph", a)).json.edges.length, before + 1, "only the one good supersedes edge was added");
  });
});

describe("HTTP: /v1/links, /v1/graph/{id}, /v1/entities", () => {
  let server: RunningServer;
  const call = async (method: string, path: string, body?: unknown) => {
    const res = await fetch(server.url + path, { method, headers: { "content-type": "application/json" }, body: body === undefined ? undefined : JSON.stringify(body) });
    return { status: res.status, json: (await res.json()) as any };
  };
  before(async () => {
    server = await startHttpServer(new MemorySpace(join(tempDir(), "graph-http.db"), { now: parseInstant("now", NOW) }), { host: "127.0.0.1", port: 0, maxBodyBytes: 64 * 1024, maxBatch: 100 });
  });
  after(() => server.close());

  test("happy paths and refusals", async () => {
    const a = (await call("POST", "/v1/memories", { text: "Lena reviewed the Stripe webhooks.", at: "2026-01-01" })).json.id;
    const b = (await call("POST", "/v1/memories", { text: "Webhooks from Stripe retry for three days.", at: "2026-01-02" })).json.id;
    const link = await call("POST", "/v1/links", { from: b, to: a, type: "contradicts", reason: "disagree" });
    assert.equal(link.status, 201);
    assert.equal(link.json.type, "contradicts");
    const g = await call("GET", `/v1/graph/${a}?depth=2&type=contradicts&type=mentions`);
    assert.equal(g.status, 200);
    assert.ok(g.json.nodes.some((n: any) => n.type === "entity" && n.name === "Stripe"));
    assert.ok(g.json.edges.some((e: any) => e.type === "contradicts"));
    const ents = await call("GET", "/v1/entities?top=5");
    assert.equal(ents.status, 200);
    assert.equal(ents.json.entities[0].name, "Stripe");

    assert.equal((await call("POST", "/v1/links", { from: a, to: "m_nope", type: "refines" })).status, 400);
    assert.equal((await call("POST", "/v1/links", { from: a, to: a, type: "refines" })).status, 400);
    assert.equal((await call("POST", "/v1/links", { from: a, to: b, type: "likes" })).status, 400);
    assert.equal((await call("GET", `/v1/graph/${a}?depth=1000`)).status, 400);
    assert.equal((await call("GET", `/v1/graph/${a}?depth=two`)).status, 400);
    assert.equal((await call("GET", `/v1/graph/${a}?type=likes`)).status, 400);
    assert.equal((await call("GET", "/v1/graph/m_nope")).status, 404);
    assert.equal((await call("GET", `/v1/graph/${a}?depth=1`)).json.edges.filter((e: any) => e.type !== "mentions").length, 1);
  });
});

test("MCP: memory_link and memory_graph", async () => {
  const db = join(tempDir(), "graph-mcp.db");
  const client = new Client({ name: "cascade-test", version: "1.0.0" });
  const CLI = new URL("../src/surfaces/cli/main.js", import.meta.url).pathname;
  await client.connect(new StdioClientTransport({ command: process.execPath, args: [CLI, "mcp", "--db", db, "--now", NOW], stderr: "pipe" }));
  const text = (r: any): string => r.content.map((c: any) => c.text).join("\n");
  const id = (t: string) => /\[(m_[0-9A-Z]+)\]/.exec(t)![1];
  const a = id(text(await client.callTool({ name: "memory_add", arguments: { text: "Gina opened a store in Brooklyn.", at: "2026-01-01" } })));
  const b = id(text(await client.callTool({ name: "memory_add", arguments: { text: "The Brooklyn store sells vintage coats.", at: "2026-01-02" } })));
  assert.match(text(await client.callTool({ name: "memory_link", arguments: { from: b, to: a, type: "refines" } })), new RegExp(`\\[${b}\\] refines \\[${a}\\]`));
  const g = text(await client.callTool({ name: "memory_graph", arguments: { id: a, depth: 2 } }));
  assert.match(g, /entity \[n_[0-9A-Z]+\] Brooklyn/);
  assert.match(g, new RegExp(`${b} refines ${a}`));
  const bad = (await client.callTool({ name: "memory_link", arguments: { from: a, to: a, type: "refines" } })) as any;
  assert.equal(bad.isError, true);
  await client.close();
});
