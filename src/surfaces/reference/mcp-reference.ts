/**
 * @module surfaces/reference/mcp-reference
 * docs/MCP.md from the MCP server itself: a real MCP client lists the tools over an in-memory transport, so the
 * page shows what a client sees (each tool's description, annotations and argument schema), in the order of the
 * one tool list (mcp/tools.ts).
 */
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import type { Tool } from "@modelcontextprotocol/sdk/types.js";
import type { Engine } from "../../index.js";
import { createMcpServer } from "../mcp/server.js";
import { MCP_TOOLS, type McpToolName } from "../mcp/tools.js";
import { anchor, code, fieldsTable, table } from "./markdown.js";

/** Listing tools runs none, so the server needs no store: an engine that is touched would be a bug here. */
const NO_ENGINE = new Proxy({}, {
  get: (_, name) => {
    throw new Error(`the MCP reference lists tools and runs none (engine.${String(name)} was read)`);
  },
}) as Engine;

/** The tools as an MCP client lists them. */
export async function listMcpTools(): Promise<Tool[]> {
  const server = createMcpServer(NO_ENGINE);
  const [serverSide, clientSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  const client = new Client({ name: "cascade-reference", version: "1.0.0" });
  await client.connect(clientSide);
  try {
    return (await client.listTools()).tools;
  } finally {
    await client.close();
    await server.close();
  }
}

function hints(tool: Tool): string {
  const a = tool.annotations ?? {};
  return [a.readOnlyHint ? "read-only" : "writes", a.destructiveHint ? "destructive" : "", a.idempotentHint ? "idempotent" : ""].filter(Boolean).join(", ");
}

function section(tool: Tool): string {
  return [`## ${tool.name}`, `*${hints(tool)}*`, tool.description ?? "", "Arguments:", fieldsTable(tool.inputSchema as Parameters<typeof fieldsTable>[0])].join("\n\n");
}

export async function mcpReference(): Promise<string> {
  const listed = new Map((await listMcpTools()).map((t) => [t.name, t]));
  const tools = (Object.keys(MCP_TOOLS) as McpToolName[]).map((name) => {
    const tool = listed.get(name);
    if (!tool) throw new Error(`the MCP server does not offer ${name}, which the tool list names`);
    return tool;
  });
  return [
    "# MCP reference",
    "Generated from the MCP server's tool list (src/surfaces/mcp) by `npm run docs:reference`; do not edit by hand. " +
      "How to register the server with a client: [README](../README.md#mcp).",
    "`cascade mcp` speaks the Model Context Protocol on stdio (`--db` and `--namespace` choose the memory). Results are " +
      "text for a model: each hit with its id, `current` or `SUPERSEDED by … — do not act on it`, its time and topic, and " +
      "the channels that found it; a summary written before the latest memories of its window (its refresh after a " +
      "write has not ended) says so in its hit and its context line. An argument a tool does not know is refused, and " +
      "an error comes back as a tool " +
      "error naming its code.",
    table(["tool", "does", "hints"], tools.map((t) => [`[${t.name}](#${anchor(t.name)})`, MCP_TOOLS[t.name as McpToolName].summary, hints(t)])),
    ...tools.map(section),
  ].join("\n\n") + "\n";
}
