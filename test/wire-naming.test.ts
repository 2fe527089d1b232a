/**
 * One naming rule on the wire: every JSON document a caller reads (CLI --json, HTTP answers and errors, MCP tool
 * schemas and errors) spells its keys in snake_case, and an error names the field as that caller spells it
 * (`as_of` over HTTP and MCP, `--as-of` on the CLI), never by the SDK's name (`asOf`).
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
const CLI = new URL("../src/surfaces/cli/main.js", import.meta.url).pathname;

/** Paths of camelCase keys in a document; what callers stored under `metadata` is their own. */
function camelKeys(doc: unknown, path = "$"): string[] {
  if (Array.isArray(doc)) return doc.flatMap((d, i) => camelKeys(d, `${path}[${i}]`));
  if (typeof doc !== "object" || doc === null) return [];
  return Object.entries(doc).flatMap(([k, v]) => [...(/[a-z][A-Z]/.test(k) ? [`${path}.${k}`] : []), ...(k === "metadata" ? [] : camelKeys(v, `${path}.${k}`))]);
}

/** An error message that opens with an SDK (camelCase) field name. */
const SDK_FIELD = /^[a-z]+[A-Z][A-Za-z]*[.:]/;

describe("snake_case on the wire, fields named as the caller spells them", () => {
  const db = join(tempDir(), "wire.db");
  let server: RunningServer;
  let ids: string[] = [];
  let edge = "";

  const http = async (method: string, path: string, body?: unknown) => {
    const res = await fetch(server.url + path, { method, headers: { "content-type": "application/json" }, body: body === undefined ? undefined : JSON.stringify(body) });
    return { status: res.status, json: (await res.json()) as any };
  };

  before(async () => {
    server = await startHttpServer(new MemorySpace(db, { now: parseInstant("now", NOW) }), { host: "127.0.0.1", port: 0 });
    const batch = await http("POST", "/v1/memories:batch", {
      memories: [
        { text: "Config lives in YAML files.", topic: "ops.config", at: "2026-02-05", user: "alice", metadata: { ref: "d1", camelKey: 1 } },
        { text: "Config goes back to environment variables.", topic: "ops.config", at: "2026-05-06", speaker: "Lena", session: "s1" },
      ],
    });
    ids = batch.json.ids;
    edge = (await http("POST", "/v1/supersede", { new: ids[1], old: ids[0], reason: "env vars" })).json.id;
  });
  after(() => server?.close());

  test("HTTP answers", async () => {
    const answers = [
      await http("POST", "/v1/memories", { text: "Pool size is 20.", at: "2026-06-01" }),
      await http("GET", `/v1/memories/${ids[0]}`),
      await http("PATCH", `/v1/memories/${ids[0]}`, { text: "Config lives in YAML files in the repo." }),
      await http("GET", "/v1/memories?limit=10"),
      await http("GET", `/v1/memories/${ids[0]}/history`),
      await http("POST", "/v1/search", { query: "where does config live?" }),
      await http("GET", "/v1/suggestions"),
      await http("GET", "/v1/topics"),
      await http("GET", "/v1/pyramid"),
      await http("POST", "/v1/pyramid:build", {}),
      await http("GET", `/v1/graph/${ids[0]}`),
      await http("GET", "/v1/entities"),
      await http("GET", "/v1/stats"),
      await http("GET", "/v1/doctor"),
      await http("POST", "/v1/links", { from: ids[1], to: ids[0], type: "relates_to" }),
      await http("POST", `/v1/edges/${edge}/retract`, {}),
      await http("POST", "/v1/memories:forget", { filter: { user: "nobody" }, dry_run: true }),
    ];
    for (const a of answers) assert.ok(a.status < 300, JSON.stringify(a.json));
    assert.deepEqual(answers.flatMap((a) => camelKeys(a.json)), []);
    assert.equal(answers[1].json.recorded_at, "2026-06-20T09:00:00Z", "recorded_at beside superseded_by");
  });

  test("HTTP and MCP errors name the field as the wire spells it", async () => {
    const errors = [
      [await http("POST", "/v1/search", { query: "x", as_of: "last tuesday" }), /^as_of: /],
      [await http("POST", "/v1/search", { query: "x", known_at: "soon" }), /^known_at: /],
      [await http("POST", "/v1/search", { query: "x", rrf_k: -1 }), /^rrf_k: /],
      [await http("GET", "/v1/memories?as_of=last+tuesday"), /^as_of: /],
      [await http("POST", "/v1/memories", { text: "y", supersedes: ["m_nope"] }), /^supersedes: no memory/],
    ] as const;
    for (const [r, message] of errors) {
      assert.ok(r.status >= 400, JSON.stringify(r.json));
      assert.deepEqual(camelKeys(r.json), []);
      assert.match(r.json.error.message, message);
    }
    const mcp = new Client({ name: "cascade-test", version: "1.0.0" });
    await mcp.connect(new StdioClientTransport({ command: process.execPath, args: [CLI, "mcp", "--db", db, "--now", NOW], stderr: "pipe" }));
    try {
      const { tools } = await mcp.listTools();
      assert.deepEqual(tools.flatMap((t) => Object.keys((t.inputSchema as any).properties ?? {}).filter((k) => /[a-z][A-Z]/.test(k)).map((k) => `${t.name}.${k}`)), []);
      const bad = (await mcp.callTool({ name: "memory_search", arguments: { query: "x", as_of: "last tuesday" } })) as any;
      assert.equal(bad.isError, true);
      assert.match(bad.content[0].text, /^error INVALID_INPUT: as_of: /);
    } finally {
      await mcp.close();
    }
  });

  test("CLI --json documents and errors", async () => {
    // the first call a CLI process, the others in this process (helpers cliHere: the same output and exit code)
    const proc = (...args: string[]) => cli([...args, "--db", db, "--now", NOW, "--json"]);
    const run = (...args: string[]) => cliHere([...args, "--db", db, "--now", NOW, "--json"]);
    const docs = [proc("show", ids[0]), (await run("list")), (await run("search", "config")), (await run("history", ids[0])), (await run("update", ids[1], "--title", "Reversal")), (await run("stats")), (await run("topics"))];
    for (const d of docs) assert.equal(d.status, 0, d.stderr);
    assert.deepEqual(docs.flatMap((d) => camelKeys(d.json)), []);
    for (const [args, message] of [
      [["search", "x", "--as-of", "last tuesday"], /^cascade: --as-of: /],
      [["list", "--known-at", "soon"], /^cascade: --known-at: /],
      [["add", "y", "--supersedes", "m_nope"], /^cascade: supersedes: no memory with id "m_nope"/],
    ] as const) {
      const r = await run(...args);
      assert.equal(r.status, 2);
      assert.match(r.stderr, message);
      assert.doesNotMatch(r.json.error.message, SDK_FIELD);
    }
  });
});
