/**
 * `show` says whether a memory is current, what replaced it (or what it replaces) and whose it
 * is, on every surface: the CLI's human output and --json, HTTP GET /v1/memories/{id}, MCP memory_get.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { test } from "node:test";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { MemorySpace, parseInstant } from "../src/index.js";
import { startHttpServer } from "../src/surfaces/http/serve.js";
import { cli, cliHere, tempDir } from "./helpers.js";

const NOW = "2026-06-20T09:00:00Z";
const CLI = new URL("../src/surfaces/cli/main.js", import.meta.url).pathname;

/** Two memories of Alice's, the second superseding the first, added through the CLI in this process (helpers cliHere). */
async function household() {
  const db = join(tempDir(), "show.db");
  const run = (...args: string[]) => cli(["--db", db, "--now", NOW, ...args]);
  const here = (...args: string[]) => cliHere(["--db", db, "--now", NOW, ...args]);
  const old = (await here("add", "Prefers window seats on flights", "--user", "alice", "--agent", "travel", "--at", "2026-05-01", "--json")).json.id as string;
  const now = (await here("add", "Prefers aisle seats on flights", "--user", "alice", "--agent", "travel", "--at", "2026-06-01", "--supersedes", old, "--json")).json.id as string;
  return { db, run, here, old, now };
}

test("cascade show: a superseded memory says so first, with its successor and its scope; --json carries the same", async () => {
  // the first show a CLI process, the others the CLI in this process (helpers cliHere: the same output and exit code)
  const { run, here, old, now } = await household();
  const human = run("show", old).stdout;
  assert.match(human, new RegExp(`^id {10}${old}\nstatus {6}SUPERSEDED by ${now}\n`));
  assert.match(human, /\nuser {8}alice\nagent {7}travel\n/);
  assert.match((await here("show", now)).stdout, new RegExp(`\nstatus {6}current\nsupersedes  ${old}\n`));
  const json = (await here("show", old, "--json")).json;
  assert.deepEqual([json.status, json.superseded_by, json.supersedes, json.user, json.agent], ["superseded", [now], [], "alice", "travel"]);
  const shown = (await here("show", now, "--json")).json;
  assert.deepEqual([shown.status, shown.supersedes], ["current", [old]]);
});

test("cascade show names the namespace it read from", async () => {
  const db = join(tempDir(), "ns.db");
  const id = cli(["--db", db, "--namespace", "work", "add", "Standup moved to 9:30", "--json"]).json.id as string;
  assert.match((await cliHere(["--db", db, "--namespace", "work", "show", id])).stdout, /\nnamespace   work\n/);
});

test("GET /v1/memories/{id} and MCP memory_get carry status, successor and scope", async () => {
  const { db, old, now } = await household();
  const server = await startHttpServer(new MemorySpace(db, { now: parseInstant("now", NOW) }), { host: "127.0.0.1", port: 0 });
  try {
    const got = (await (await fetch(`${server.url}/v1/memories/${old}`)).json()) as Record<string, unknown>;
    assert.deepEqual([got.status, got.superseded_by, got.user, got.agent], ["superseded", [now], "alice", "travel"]);
  } finally {
    await server.close();
  }
  const client = new Client({ name: "cascade-test", version: "1.0.0" });
  await client.connect(new StdioClientTransport({ command: process.execPath, args: [CLI, "mcp", "--db", db, "--now", NOW], stderr: "pipe" }));
  try {
    const text = (await client.callTool({ name: "memory_get", arguments: { id: now } })).content as { text: string }[];
    assert.match(text[0].text, new RegExp(`^\\[${now}\\] \\(current; 2026-06-01T00:00:00Z; kind note; supersedes ${old}; user alice; agent travel\\)\n`));
  } finally {
    await client.close();
  }
});
