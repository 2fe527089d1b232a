/**
 * An embedder given as configuration reaches every surface: `cascade --config c.json import` and `search` use a
 * loopback OpenAI-compatible server, the store keeps the embedder's spec (never a key), and `stats`, `serve` and
 * `mcp` then open the store with it without any flag or config.
 */
import "./fixtures/embed-key-from-env.js";
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { createHash } from "node:crypto";
import { writeFileSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { after, before, test } from "node:test";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { cliHere, tempDir } from "./helpers.js";

const CLI = new URL("../src/surfaces/cli/main.js", import.meta.url).pathname;
const DIMS = 64;
let requests = 0;
const keys = new Set<string>();

/** A bag-of-words vector per text (a word adds 1 at a hashed dimension): texts sharing words are near. */
function vector(text: string): number[] {
  const v = new Array(DIMS).fill(0);
  for (const w of text.toLowerCase().match(/[a-z]+/g) ?? []) v[createHash("md5").update(w).digest()[0] % DIMS] += 1;
  return v;
}

const server = createServer((req, res) => {
  let raw = "";
  req.on("data", (c) => (raw += c));
  req.on("end", () => {
    requests++;
    keys.add(String(req.headers.authorization));
    const body = JSON.parse(raw) as { input: string[]; model: string };
    res.writeHead(200, { "content-type": "application/json" });
    res.end(JSON.stringify({ data: body.input.map((t, index) => ({ index, embedding: vector(t) })) }));
  });
});
let baseURL = "";
before(async () => {
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  baseURL = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
});
after(() => new Promise<void>((r) => server.close(() => r())));

// the key and the empty embedder variables are set for this process by its first import (fixtures/embed-key-from-env)
const env = { ...process.env };
/**
 * import, search and stats through the CLI in this process (helpers cliHere: the same parsing, engine calls and
 * output); serve and mcp below are processes, opening the store with no flag or config.
 */
const cascade = async (args: string[]) => {
  const r = await cliHere([...args, "--json"]);
  assert.equal(r.status, 0, r.stderr);
  return r.json;
};

test("engine.embedder in a config file reaches import, search, stats, serve and mcp; the store remembers it", async () => {
  const dir = tempDir();
  const db = join(dir, "m.db");
  const config = join(dir, "c.json");
  writeFileSync(config, JSON.stringify({ engine: { embedder: { provider: "openai-compatible", baseURL, model: "tiny", dimensions: DIMS } } }));
  // thirty unrelated notes, so that the dense channel's relevance floor has a store to stand out from
  const W = ["apple", "river", "mountain", "piano", "garden", "rocket", "castle", "violin", "forest", "harbor", "desert", "planet", "window", "ladder", "candle", "bridge", "island", "meadow", "tunnel", "lantern"];
  const filler = Array.from({ length: 30 }, (_, i) => ({ text: `${W[i % 20]} ${W[(i * 7 + 3) % 20]} ${W[(i * 11 + 5) % 20]} near the ${W[(i * 13 + 1) % 20]}`, at: `2026-01-${String(1 + (i % 28)).padStart(2, "0")}T00:00:00Z` }));
  const notes = ["The billing service moved to DynamoDB", "Lunch with Maria about sourdough", "The deploy pipeline is green"].map((text, i) => ({ text, at: `2026-02-0${i + 1}T00:00:00Z` }));
  const lines = [...filler, ...notes].map((m) => JSON.stringify(m));
  writeFileSync(join(dir, "in.jsonl"), lines.join("\n"));

  const imported = await cascade(["--db", db, "--config", config, "import", join(dir, "in.jsonl")]);
  assert.equal(imported.imported, 33);
  const before = requests;
  const found = await cascade(["--db", db, "--config", config, "search", "billing DynamoDB"]);
  assert.ok(requests > before, "the query was embedded by the configured server");
  assert.match(found.hits[0].text, /DynamoDB/);
  assert.ok(found.hits[0].sources_hit.includes("dense"), "the configured embedder's vectors found it");

  // no config, no flag: the store reopens with its own embedder
  const stats = await cascade(["--db", db, "stats"]);
  assert.equal(stats.embedder, `openai-compatible:tiny:${DIMS}`);
  const again = await cascade(["--db", db, "search", "sourdough lunch"]);
  assert.match(again.hits[0].text, /sourdough/);
  assert.ok(again.hits[0].sources_hit.includes("dense"));
  assert.ok([...keys].every((k) => k === "Bearer sk-from-env"), "the key comes from the environment");

  // serve, with no config
  const child = spawn(process.execPath, [CLI, "--db", db, "serve", "--port", "0"], { env, stdio: ["ignore", "pipe", "pipe"] });
  try {
    const port = await new Promise<number>((resolve, reject) => {
      let out = "";
      const onData = (d: Buffer) => {
        out += d;
        const m = /127\.0\.0\.1:(\d+)/.exec(out);
        if (m) resolve(Number(m[1]));
      };
      child.stdout.on("data", onData);
      child.stderr.on("data", onData);
      child.on("exit", (code) => reject(new Error(`serve exited ${code}: ${out}`)));
    });
    const res = await fetch(`http://127.0.0.1:${port}/v1/search`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ query: "deploy pipeline" }) });
    assert.equal(res.status, 200);
    assert.match(((await res.json()) as any).hits[0].text, /pipeline/);
  } finally {
    child.kill("SIGTERM");
  }

  // mcp, with no config
  const client = new Client({ name: "t", version: "1" });
  await client.connect(new StdioClientTransport({ command: process.execPath, args: [CLI, "--db", db, "mcp"], env: env as Record<string, string>, stderr: "pipe" }));
  const r = (await client.callTool({ name: "memory_search", arguments: { query: "billing DynamoDB" } })) as any;
  assert.match(r.content[0].text, /DynamoDB/);
  assert.doesNotMatch(r.content[0].text, /error/);
  await client.close();
});

test("a bad embedder spec is one clear line naming the field, exit code 2", async () => {
  const dir = tempDir();
  const config = join(dir, "c.json");
  writeFileSync(config, JSON.stringify({ engine: { embedder: { provider: "openai-compatible", baseURL: "not a url", model: "m", dimensions: 4 } } }));
  const r = await cliHere(["--db", join(dir, "m.db"), "--config", config, "stats"]);
  assert.equal(r.status, 2);
  assert.match(r.stderr, /embedder\.baseURL/);
});
