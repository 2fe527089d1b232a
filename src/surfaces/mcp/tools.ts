/**
 * @module surfaces/mcp/tools
 * The one list of MCP tools: their names, a line on what each does, and their annotations (read-only,
 * destructive, idempotent), from which the server registers them, `cascade mcp --help` lists them and
 * docs/MCP.md is generated (npm run docs:reference). A tool registered without an entry here fails at start-up.
 */
import type { ToolAnnotations } from "@modelcontextprotocol/sdk/types.js";

const read: ToolAnnotations = { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false };
const add: ToolAnnotations = { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false };
const relate: ToolAnnotations = { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false };
const erase: ToolAnnotations = { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false };

export const MCP_TOOLS = {
  memory_search: { summary: "fused search; each hit says if it is current or superseded", annotations: read },
  memory_add: { summary: "remember something; says what it supersedes or may revise", annotations: add },
  memory_get: { summary: "one memory by id, with its status", annotations: read },
  memory_update: { summary: "correct what a memory says; its history keeps the old text", annotations: relate },
  memory_list: { summary: "memories in time order, a page at a time, with filters", annotations: read },
  memory_supersede: { summary: "record that one memory replaces another", annotations: relate },
  memory_history: { summary: "how a memory changed over time", annotations: read },
  memory_forget: { summary: "forget a memory, or every memory matching a filter", annotations: erase },
  memory_purge: { summary: "erase every remnant of what was forgotten from the store's files", annotations: erase },
  memory_topics: { summary: "the topic tree with counts", annotations: read },
  memory_pyramid: { summary: "day, week and month summaries", annotations: read },
  memory_pyramid_build: { summary: "bring the summaries up to date now", annotations: relate },
  memory_link: { summary: "relate two memories with a typed edge", annotations: relate },
  memory_graph: { summary: "the memories and entities around a memory", annotations: read },
  memory_entities: { summary: "the entities memories mention, optionally one scope's", annotations: read },
  memory_current: { summary: "what is true now in a scope: each standing fact, since when, and what it replaced", annotations: read },
} as const satisfies Record<string, { summary: string; annotations: ToolAnnotations }>;

export type McpToolName = keyof typeof MCP_TOOLS;

/** `name — summary` lines for help texts. */
export function toolListText(): string {
  return Object.entries(MCP_TOOLS)
    .map(([name, t]) => `${name} — ${t.summary}`)
    .join("; ");
}
