/**
 * The README's Quick start works as written: its blocks marked `quickstart cli`, `sdk`, `http`
 * and `mcp` are run as a new user would run them, each in a fresh folder, and the outcome the README states is what
 * comes out. And the README, the package description, `cascade --help` and the docs agree on the channels.
 */
import assert from "node:assert/strict";
import { spawn, spawnSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { CHANNEL_NAMES, CHANNEL_SUMMARIES } from "../src/index.js";
import { cli, cliHere, tempDir } from "./helpers.js";

const root = new URL("../../", import.meta.url);
const read = (path: string): string => readFileSync(new URL(path, root), "utf8");
const README = read("README.md");
const CLI = new URL("../src/surfaces/cli/main.js", import.meta.url).pathname;
const SDK = new URL("../src/index.js", import.meta.url).href;

/** The README's block marked ```LANG quickstart NAME (the commands, or the outcome when LANG is text). */
function block(lang: string, name: string): string {
  const m = new RegExp("^```" + lang + " quickstart " + name + "\\n([\\s\\S]*?)^```$", "m").exec(README);
  assert.ok(m, `README has a \`\`\`${lang} quickstart ${name} block`);
  return m[1];
}

/** A user's shell in a fresh folder, `cascade` being this build's CLI; the default store is ./.cascade/memory.db. */
function shell(script: string, cwd: string) {
  const { CASCADE_DB: _db, ...env } = process.env;
  const r = spawnSync("bash", ["-c", `set -e\ncascade() { "${process.execPath}" "${CLI}" "$@"; }\n${script}`], { cwd, env, encoding: "utf8" });
  assert.equal(r.status, 0, r.stderr);
  return r.stdout;
}

/** The README shows real ids; a run makes others. Each id of `actual` becomes the README's id in the same place. */
function withReadmeIds(actual: string, expected: string): string {
  const ids = (s: string) => [...new Set(s.match(/\bm_[0-9A-Z]{26}\b/g) ?? [])];
  const wanted = ids(expected);
  return ids(actual).reduce((s, id, i) => s.replaceAll(id, wanted[i] ?? id), actual);
}

test("Quick start, command line: the commands run as written and the search prints what the README shows", () => {
  const commands = block("sh", "cli").trim().split("\n");
  const cwd = tempDir();
  shell(commands.slice(0, -1).join("\n"), cwd);
  const expected = block("text", "cli");
  const printed = withReadmeIds(shell(commands.at(-1)!, cwd), expected);
  // the last line (timings) differs from run to run; everything above it is what the README states
  assert.equal(printed.slice(0, expected.length), expected);
  assert.match(printed.slice(expected.length), /^\(\d+(\.\d+)? ms; bm25 /);
});

test("Quick start, TypeScript: the example runs as written and prints what the README shows", () => {
  const cwd = tempDir();
  const file = join(cwd, "quickstart.mjs");
  // the package's name resolves to this build, as it would once installed
  writeFileSync(file, block("ts", "sdk").replace(`from "cascade-memory"`, `from ${JSON.stringify(SDK)}`));
  const r = spawnSync(process.execPath, [file], { cwd, encoding: "utf8" });
  assert.equal(r.status, 0, r.stderr);
  assert.equal(r.stdout, block("text", "sdk"));
});

test("Quick start, HTTP: cascade serve, then the curl lines; the search finds the memory just added", async (t) => {
  if (spawnSync("curl", ["--version"]).status !== 0) return t.skip("no curl on this machine");
  const cwd = tempDir();
  const lines = block("sh", "http").replace(/\\\n\s*/g, "").trim().split("\n");
  assert.match(lines[0], /^cascade serve &/);
  // the README's server, on a free port instead of 7373 (other tests may be using it)
  const server = spawn(process.execPath, [CLI, "serve", "--port", "0"], { cwd, stdio: ["ignore", "ignore", "pipe"] });
  try {
    const address = await new Promise<string>((resolve, reject) => {
      let said = "";
      server.stderr.on("data", (d) => {
        said += d;
        const m = /serving http:\/\/(127\.0\.0\.1:\d+)/.exec(said);
        if (m) resolve(m[1]);
      });
      server.once("exit", () => reject(new Error(`cascade serve stopped: ${said}`)));
    });
    const curls = lines.slice(1).map((l) => l.replaceAll("127.0.0.1:7373", address));
    const added = JSON.parse(shell(curls[0], cwd));
    assert.match(added.id, /^m_/);
    const body = JSON.parse(/-d '([^']*)'/.exec(lines[1])![1]);
    const found = JSON.parse(shell(curls[1], cwd));
    assert.equal(found.hits[0].id, added.id);
    assert.equal(found.hits[0].text, body.text);
    assert.equal(found.hits[0].status, "current");
    assert.ok(README.includes(`"text": "${body.text}"`), "the README states the hit's text");
  } finally {
    server.kill("SIGTERM");
  }
});

test("Quick start, MCP: the client configuration starts a server whose search finds what memory_add stored", async () => {
  const config = JSON.parse(block("json", "mcp")) as { mcpServers: { cascade: { command: string; args: string[] } } };
  const { command, args } = config.mcpServers.cascade;
  assert.equal(command, "cascade");
  const db = join(tempDir(), "memory.db");
  const client = new Client({ name: "readme-test", version: "1.0.0" });
  await client.connect(new StdioClientTransport({ command: process.execPath, args: [CLI, ...args.map((a) => (a.endsWith(".db") ? db : a))], stderr: "pipe" }));
  try {
    await client.callTool({ name: "memory_add", arguments: { text: "Deploys are frozen from December 20 to January 3", at: "2026-12-01" } });
    const r = (await client.callTool({ name: "memory_search", arguments: { query: "when is the deploy freeze?" } })) as { content: { text: string }[] };
    const text = r.content.map((c) => c.text).join("\n");
    // what the README says a result reads like
    assert.match(text, /^1\. \[m_[0-9A-Z]{26}\] \(current; 2026-12-01T00:00:00Z; found by bm25 #1, /);
    assert.ok(README.includes("`1. [m_…] (current; 2026-12-01T00:00:00Z; found by bm25 #1, …)`"));
  } finally {
    await client.close();
  }
});

test("the README, the package description, cascade --help and the docs agree on the seven channels", async () => {
  const rows = [...README.matchAll(/^\| `(\w+)` \| (.+) \|$/gm)].map((m) => [m[1], m[2]]);
  assert.deepEqual(rows, CHANNEL_NAMES.map((c) => [c, CHANNEL_SUMMARIES[c]]), "the README's channel table is the channels' own summaries");
  const pkg = JSON.parse(read("package.json")) as { description: string };
  const list = `seven retrieval channels (${CHANNEL_NAMES.join(", ")})`;
  assert.ok(pkg.description.includes(list), pkg.description);
  assert.ok(cli(["--help"]).stdout.replace(/\s+/g, " ").includes(list));
  assert.ok(read("docs/CLI.md").includes(list));
  const search = (await cliHere(["search", "--help"])).stdout.replace(/\s+/g, " ");
  for (const c of CHANNEL_NAMES) assert.ok(search.includes(`${c}, ${CHANNEL_SUMMARIES[c]}`), `search --help says what ${c} ranks`);
  assert.ok(read("docs/CONFIGURATION.md").includes(`all seven (${CHANNEL_NAMES.join(", ")})`));
  assert.match(README, /^`npm test` builds/m, "the README keeps the test command .ci/run runs");
});
