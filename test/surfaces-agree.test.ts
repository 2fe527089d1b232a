/**
 * The same input, the same answer on every surface: the SDK, the CLI, HTTP and MCP give one verdict and one
 * message for it (a mistake is a throw, exit 2, a 400 and a tool error).
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { CascadeError, type Engine } from "../src/index.js";
import type { RunningServer } from "../src/surfaces/http/serve.js";
import { cli, cliHere, tempDir } from "./helpers.js";
import { openEverySurface, type EverySurface } from "./every-surface.js";

const NOW = "2026-06-20T09:00:00Z";
const CLI = new URL("../src/surfaces/cli/main.js", import.meta.url).pathname;

describe("one verdict for one input on every surface", () => {
  const db = join(tempDir(), "agree.db");
  let engine: Engine;
  let server: RunningServer;
  let mcp: Client;
  let surfaces: EverySurface | undefined;

  before(async () => {
    surfaces = await openEverySurface(db, NOW);
    ({ engine, server, mcp } = surfaces);
  });
  after(async () => {
    await surfaces?.close();
  });

  const http = async (method: string, path: string, body?: unknown) => {
    const res = await fetch(server.url + path, { method, headers: { "content-type": "application/json" }, body: body === undefined ? undefined : JSON.stringify(body) });
    return { status: res.status, json: (await res.json()) as any };
  };

  for (const query of ["", "   "]) {
    test(`an empty query (${JSON.stringify(query)}) is a mistake: throw, exit 2, 400, tool error — one message`, async () => {
      const message = "query: must not be empty: say what to search for";
      await assert.rejects(engine.recall(query), (e: unknown) => e instanceof CascadeError && e.code === "INVALID_INPUT" && e.message === message);
      // the first a CLI process, the second the CLI in this process (helpers cliHere: the same output and exit code)
      const r = await (query === "" ? cli : cliHere)(["search", query, "--db", db]);
      assert.equal(r.status, 2);
      assert.equal(r.stderr, `cascade: ${message}\n`);
      const h = await http("POST", "/v1/search", { query });
      assert.equal(h.status, 400);
      assert.deepEqual(h.json, { error: { code: "INVALID_INPUT", message, field: "query" } });
      const m = (await mcp.callTool({ name: "memory_search", arguments: { query } })) as any;
      assert.equal(m.isError, true);
      assert.equal(m.content[0].text, `error INVALID_INPUT: ${message}`);
    });
  }
});
