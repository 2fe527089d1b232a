import assert from "node:assert/strict";
import { join } from "node:path";
import { test } from "node:test";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { tempDir } from "./helpers.js";

const CLI = new URL("../src/surfaces/cli/main.js", import.meta.url).pathname;

async function connect(db: string, namespace?: string): Promise<Client> {
  const args = [CLI, "mcp", "--db", db, "--now", "2026-06-20T09:00:00Z", ...(namespace ? ["--namespace", namespace] : [])];
  const client = new Client({ name: "cascade-test", version: "1.0.0" });
  await client.connect(new StdioClientTransport({ command: process.execPath, args, stderr: "pipe" }));
  return client;
}

const textOf = (r: any): string => r.content.map((c: any) => c.text).join("\n");

test("the SDK's own client starts cascade mcp, lists the tools, adds a memory and finds it", async () => {
  const db = join(tempDir(), "mcp.db");
  const client = await connect(db);
  const { tools } = await client.listTools();
  assert.deepEqual(tools.map((t) => t.name).sort(), ["memory_add", "memory_forget", "memory_history", "memory_pyramid", "memory_search", "memory_supersede", "memory_topics"]);
  const search = tools.find((t) => t.name === "memory_search")!;
  assert.ok((search.inputSchema.properties as any).query);
  assert.deepEqual(search.inputSchema.required, ["query"]);

  const added = textOf(await client.callTool({ name: "memory_add", arguments: { text: "The user prefers answers in French.", topic: "user.preferences", at: "2026-01-10" } }));
  const id = /\[(m_[0-9A-Z]+)\]/.exec(added)![1];
  const later = textOf(await client.callTool({ name: "memory_add", arguments: { text: "The user now wants answers in English.", topic: "user.preferences", at: "2026-05-10", supersedes: [id] } }));
  const newer = /\[(m_[0-9A-Z]+)\]/.exec(later)![1];

  const found = textOf(await client.callTool({ name: "memory_search", arguments: { query: "which language does the user want answers in?" } }));
  assert.match(found, new RegExp(`^1\\. \\[${newer}\\] \\(current, replaces ${id};`));
  assert.match(found, new RegExp(`\\[${id}\\] \\(SUPERSEDED by ${newer} — do not act on it`));
  assert.match(found, /found by (bm25|dense|colbert) #\d/);

  const history = textOf(await client.callTool({ name: "memory_history", arguments: { id } }));
  assert.match(history, new RegExp(`- \\[${id}\\] superseded`));
  assert.match(textOf(await client.callTool({ name: "memory_topics", arguments: {} })), /user\.preferences {2}\(2 here, 2 in all\)/);
  assert.match(textOf(await client.callTool({ name: "memory_pyramid", arguments: { level: "month" } })), /No summaries yet\.\n\(\d+ windows changed/);

  const bad = await client.callTool({ name: "memory_history", arguments: { id: "m_missing" } });
  assert.equal(bad.isError, true);
  assert.match(textOf(bad), /error NOT_FOUND: no memory with id "m_missing"/);
  await client.close();
});

test("an MCP server in one namespace never sees another's memories", async () => {
  const db = join(tempDir(), "mcp-ns.db");
  const alice = await connect(db, "alice");
  const bob = await connect(db, "bob");
  await alice.callTool({ name: "memory_add", arguments: { text: "Alice's locker code is 4512." } });
  await bob.callTool({ name: "memory_add", arguments: { text: "Bob's locker code is 9931." } });
  assert.doesNotMatch(textOf(await alice.callTool({ name: "memory_search", arguments: { query: "locker code" } })), /9931/);
  assert.doesNotMatch(textOf(await bob.callTool({ name: "memory_search", arguments: { query: "locker code" } })), /4512/);
  await alice.close();
  await bob.close();
});
