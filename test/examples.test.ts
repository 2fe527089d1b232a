/**
 * Every example in examples/ runs as a user would run it (a child process on a temporary store, `--now` fixed)
 * and prints what it found; these tests read that output. The MCP example is a config file: its server is
 * started with the file's own command and arguments, from a folder where the package is installed as npm would.
 */
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { chmodSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { delimiter, join } from "node:path";
import { test } from "node:test";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { tempDir } from "./helpers.js";

const root = new URL("../..", import.meta.url).pathname;
const NOW = "2026-06-20T09:00:00Z";

function runExample(script: string, ...args: string[]): string {
  const db = join(tempDir(), "example.db");
  return execFileSync(process.execPath, [join(root, "dist/examples", script), ...args, "--db", db, "--now", NOW], { cwd: root, encoding: "utf8" });
}

test("examples/personal-assistant answers from what is current and says what the move replaced", () => {
  const out = runExample("personal-assistant/assistant.js");
  assert.match(out, /^Remembered 4 things Sam said; the move replaces where Sam lived\.$/m);
  assert.match(out, /Q: Where does Sam live\?\nA: "We moved to Munich last weekend; I live in Schwabing now\." \(Sam, 2026-05-18\)\n {3}no longer true: "I live in Berlin, in Prenzlauer Berg\." \(2026-03-02\)/);
  assert.match(out, /Q: What is Sam allergic to\?\nA: "I'm allergic to peanuts, so no satay for me\." \(Sam, 2026-03-09\)\n/);
  assert.match(out, /Q: When is Mia's birthday\?\nA: "My sister Mia's birthday is on 14 July\." \(Sam, 2026-04-11\)\n/);
});

test("examples/langchain-agent: the agent's search tool shows the superseded note as such, and it answers from the current one", () => {
  const out = runExample("langchain-agent/agent.js");
  assert.match(out, /User: Which database does Atlas use\?\nsearch_memory found:\n {2}\[current\] 2026-05-04 Atlas moved its data from MySQL to PostgreSQL 16 for row-level security\. \(found by [a-z0-9, ]+\)\n/);
  assert.match(out, /^ {2}\[superseded\] 2026-02-03 Atlas stores its data in MySQL 8\./m);
  assert.match(out, /^Assistant: From memory: Atlas moved its data from MySQL to PostgreSQL 16 for row-level security\.$/m);
  assert.match(out, /^The conversation is stored as 2 turns of session atlas-chat\.$/m);
});

test("examples/mem0-migration imports the export once, reports the bad item, and finds each user's memory", () => {
  const out = runExample("mem0-migration/migrate.js", join(root, "examples/mem0-migration/mem0-export.json"));
  assert.match(out, /^first run: 3 imported, 0 already there\nsecond run: 0 imported, 3 already there\nitem 4 not imported: memory: required, a string$/m);
  assert.match(out, /jo: when should invoices go out\?\n {2}"Wants invoices sent as PDF on the first Monday of each month" \(mem0:8a7e2c10-51bf-4c3e-b0d2-6f49e1a3c5d8, 2025-12-01T10:00:00Z, agent bookkeeper\)/);
  assert.match(out, /kim: what is the user training for\?\n {2}"Is training for the Berlin half marathon in April" \(mem0:c24d9e6b-0f3a-4b71-8e55-1d7a92f0b3e4, 2026-01-20T18:45:00Z\)/);
});

/** A folder where cascade-memory is installed as npm lays it out: the package, and its `cascade` bin. */
function appWithCascadeInstalled(): string {
  const app = tempDir();
  writeFileSync(join(app, "package.json"), JSON.stringify({ name: "desktop", version: "1.0.0", private: true, dependencies: { "cascade-memory": "*" } }));
  mkdirSync(join(app, "node_modules", ".bin"), { recursive: true });
  symlinkSync(root, join(app, "node_modules", "cascade-memory"), "dir");
  const bin = join(app, "node_modules", ".bin", "cascade");
  writeFileSync(bin, `#!/bin/sh\nexec "${process.execPath}" "${join(root, "dist/src/surfaces/cli/main.js")}" "$@"\n`);
  chmodSync(bin, 0o755);
  return app;
}

test("examples/mcp-desktop: the server starts as the config says and its tools remember and find", async () => {
  const config = JSON.parse(readFileSync(join(root, "examples/mcp-desktop/claude_desktop_config.json"), "utf8"));
  const server = config.mcpServers.cascade as { command: string; args: string[] };
  // the one thing a user edits: the store's path
  const db = join(tempDir(), "desktop.db");
  const args = server.args.map((a, i) => (server.args[i - 1] === "--db" ? db : a));
  assert.notDeepEqual(args, server.args, "the config names its store with --db");
  const client = new Client({ name: "desktop-assistant", version: "1.0.0" });
  // `cascade` is on the PATH, as the install the README gives leaves it
  const app = appWithCascadeInstalled();
  const env = { ...(process.env as Record<string, string>), PATH: `${join(app, "node_modules", ".bin")}${delimiter}${process.env.PATH ?? ""}` };
  assert.equal(server.command, "cascade");
  await client.connect(new StdioClientTransport({ command: server.command, args, cwd: app, env, stderr: "pipe" }));
  const text = (r: any): string => r.content.map((c: { text: string }) => c.text).join("\n");
  assert.match(text(await client.callTool({ name: "memory_add", arguments: { text: "The user's dentist appointment is on 3 July at 10:00." } })), /^Remembered \[m_[0-9A-Z]+\]/);
  assert.match(text(await client.callTool({ name: "memory_search", arguments: { query: "when is the dentist appointment?" } })), /^1\. \[m_[0-9A-Z]+\] \(current;.*\nThe user's dentist appointment is on 3 July at 10:00\./);
  await client.close();
});
