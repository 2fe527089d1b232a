import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { cli, tempDir } from "./helpers.js";
import { MCP_TOOLS } from "../src/surfaces/mcp/tools.js";

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
  assert.deepEqual(tools.map((t) => t.name).sort(), Object.keys(MCP_TOOLS).sort(), "the server offers exactly the tools of the one list");
  for (const t of tools) assert.deepEqual(t.annotations, MCP_TOOLS[t.name as keyof typeof MCP_TOOLS].annotations, `${t.name} carries its annotations`);
  assert.equal(tools.find((t) => t.name === "memory_forget")!.annotations?.destructiveHint, true);
  assert.equal(tools.find((t) => t.name === "memory_search")!.annotations?.readOnlyHint, true);
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
  assert.match(found, /Context — summaries of the periods of the top results/);
  assert.match(textOf(await client.callTool({ name: "memory_pyramid", arguments: { level: "month" } })), /\[p_month_2026-05\] month 2026-05-01T00:00:00Z to 2026-06-01T00:00:00Z \(1 week\):\nThe user now wants answers in English\./);

  const got = textOf(await client.callTool({ name: "memory_get", arguments: { id } }));
  assert.match(got, new RegExp(`^\\[${id}\\] \\(SUPERSEDED by ${newer} — do not act on it; 2026-01-10T00:00:00Z; kind note; topic user\\.preferences\\)\nThe user prefers answers in French\\.$`));
  const page1 = textOf(await client.callTool({ name: "memory_list", arguments: { limit: 1 } }));
  assert.match(page1, new RegExp(`^- \\[${newer}\\] 2026-05-10T00:00:00Z \\(current; topic user\\.preferences\\): The user now wants answers in English\\.`));
  const cursor = /cursor "([^"]+)"/.exec(page1)![1];
  assert.match(textOf(await client.callTool({ name: "memory_list", arguments: { limit: 1, cursor } })), new RegExp(`\\[${id}\\] .*SUPERSEDED by ${newer}`));
  assert.match(textOf(await client.callTool({ name: "memory_pyramid_build", arguments: {} })), /^Summaries up to date: \d+ days, \d+ weeks, \d+ months recomputed/);
  const maybe = textOf(await client.callTool({ name: "memory_add", arguments: { text: "Change of plan: the user now wants answers in German instead of English.", topic: "user.preferences", at: "2026-06-01" } }));
  assert.match(maybe, new RegExp(`It (supersedes|may revise) \\[${newer}\\]`), "memory_add says what it revised");

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

test("one tool list: docs/MCP.md and `cascade mcp --help` name every tool the server offers", () => {
  const reference = readFileSync(new URL("../../docs/MCP.md", import.meta.url), "utf8");
  const help = cli(["mcp", "--help"]).stdout;
  for (const name of Object.keys(MCP_TOOLS)) {
    assert.ok(reference.includes(`## ${name}\n`), `docs/MCP.md documents ${name}`);
    assert.ok(help.includes(name), `--help names ${name}`);
  }
});

test("a line that is not JSON gets a -32700 reply, JSON that is not JSON-RPC -32600; the server keeps serving", () => {
  const db = join(tempDir(), "mcp-bad.db");
  const init = { jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "t", version: "1" } } };
  const r = cli(["mcp", "--db", db], { input: `{not json\n${JSON.stringify({ hello: 1 })}\n${JSON.stringify(init)}\n` });
  const replies = r.stdout.trim().split("\n").map((l) => JSON.parse(l));
  assert.equal(replies.length, 3, r.stdout);
  assert.deepEqual([replies[0].id, replies[0].error.code], [null, -32700]);
  assert.match(replies[0].error.message, /^Parse error: /);
  assert.deepEqual([replies[1].id, replies[1].error.code], [null, -32600]);
  assert.equal(replies[2].id, 1);
  assert.equal(replies[2].result.serverInfo.name, "cascade");
});

test("an argument a tool does not know is refused (as HTTP refuses an unknown field), nothing done", async () => {
  const db = join(tempDir(), "mcp-strict.db");
  const client = await connect(db);
  const typo = (await client.callTool({ name: "memory_search", arguments: { query: "x", asOf: "2026-01-01" } })) as any;
  assert.equal(typo.isError, true);
  assert.match(textOf(typo), /asOf/);
  const add = (await client.callTool({ name: "memory_add", arguments: { text: "Kept?", tag: "typo" } })) as any;
  assert.equal(add.isError, true);
  assert.match(textOf(add), /tag/);
  const entities = (await client.callTool({ name: "memory_entities", arguments: { top: 5, limit: 3 } })) as any;
  assert.equal(entities.isError, true, "every tool, memory_entities too");
  assert.match(textOf(entities), /limit/);
  assert.match(textOf(await client.callTool({ name: "memory_list", arguments: {} })), /^No memories\.$/);
  await client.close();
});

test("memory_search takes now, the reference for relative time, as the CLI's --now and HTTP's now do", async () => {
  const db = join(tempDir(), "mcp-now.db");
  const client = await connect(db);
  try {
    const march = textOf(await client.callTool({ name: "memory_add", arguments: { text: "Went climbing at the indoor wall with Priya.", at: "2026-03-04T18:00:00Z" } }));
    const june = textOf(await client.callTool({ name: "memory_add", arguments: { text: "Went climbing at the outdoor crag with Tom.", at: "2026-06-10T18:00:00Z" } }));
    const idOf = (text: string) => /\[(m_[0-9A-Z]+)\]/.exec(text)![1];
    const first = (text: string) => /\[(m_[0-9A-Z]+)\]/.exec(text)?.[1];
    const tool = await client.listTools();
    assert.ok((tool.tools.find((t) => t.name === "memory_search")!.inputSchema.properties as any).now, "memory_search lists now");
    const then = textOf(await client.callTool({ name: "memory_search", arguments: { query: "where did I go climbing last week?", now: "2026-03-10T12:00:00Z" } }));
    assert.equal(first(then), idOf(march), then);
    const today = textOf(await client.callTool({ name: "memory_search", arguments: { query: "where did I go climbing last week?" } }));
    assert.equal(first(today), idOf(june), today);
    const bad = await client.callTool({ name: "memory_search", arguments: { query: "climbing", now: "garbage" } });
    assert.equal(bad.isError, true);
    assert.match(textOf(bad), /error INVALID_INPUT: now: "garbage" is not an ISO 8601 date or date-time/);
  } finally {
    await client.close();
  }
});
