/**
 * @module surfaces/mcp/graph-tools
 * MCP tools `memory_link`, `memory_graph` and `memory_entities`: typed relations between memories, the
 * neighbourhood of a memory (memories and entities, each edge with its type and whether it is still current), and
 * the entities one scope's memories mention; `memory_current`, what is true now in a scope.
 */
import { MCP_TOOLS } from "./tools.js";
import { registerStrictTool } from "./strict-tool.js";
import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { z } from "zod";
import { EDGE_TYPES, MAX_GRAPH_DEPTH, recallWireShape, type CurrentStateJson, type Engine, type GraphJson } from "../../index.js";

type ToolResult = { content: { type: "text"; text: string }[]; isError?: boolean };

export function renderGraph(g: GraphJson): string {
  const nodes = g.nodes.map((n) =>
    n.type === "entity"
      ? `- entity [${n.id}] ${n.name} (${n.kind}, mentioned by ${n.memories}; ${n.status}; ${n.depth} hops)`
      : `- memory [${n.id}] ${n.at} (${n.status}; ${n.depth} hops): ${n.text}`,
  );
  const edges = g.edges.map((e) => `- ${e.from} ${e.type} ${e.to}${e.current ? "" : " (no longer current)"}`);
  return `Around ${g.id} as of ${g.as_of}${g.truncated ? " (truncated)" : ""}:\n${nodes.join("\n")}\n\nEdges:\n${edges.join("\n") || "- none"}`;
}

/** Each standing fact on a line, with when it became true and the value it replaced, for a model to quote. */
export function renderCurrent(s: CurrentStateJson): string {
  const about = s.about === null ? "" : "entity" in s.about ? ` about ${s.about.entity.name}` : ` about "${s.about.query}"`;
  if (s.facts.length === 0) return `Nothing is recorded as true${about} as of ${s.as_of} in this scope.`;
  const lines = s.facts.map((f) => {
    const replaced = f.replaced.map((r) => `\n  replaced [${r.id}] "${r.text}" (true since ${r.since}${r.reason ? `; ${r.reason}` : ""})`).join("");
    const earlier = (f.history ?? []).filter((h) => !f.replaced.some((r) => r.edge === h.edge)).map((h) => `\n  earlier [${h.id}] "${h.text}" (${h.since} to ${h.until})`).join("");
    return `- [${f.id}] since ${f.since}${f.user ? ` (user ${f.user})` : ""}: ${f.text}${replaced}${earlier}`;
  });
  const attributes = s.attributes.map((a) => `- ${a.holder ?? a.user ?? "their"} ${a.attribute}: ${a.value} (since ${a.since}, [${a.id}]${a.before.length ? `; before: ${a.before.map((b) => b.value).join(", ")}` : ""})`);
  const standing = attributes.length ? `Attributes now:\n${attributes.join("\n")}\n\n` : "";
  return `${standing}True${about} as of ${s.as_of} (newest first${s.truncated ? "; more exist, raise limit" : ""}):\n${lines.join("\n")}`;
}

export function registerGraphTools(server: McpServer, engine: Engine, guarded: (fn: () => Promise<string>) => Promise<ToolResult>): void {
  registerStrictTool(server,
    "memory_link",
    {
      annotations: MCP_TOOLS.memory_link.annotations,
      description:
        "Relate two memories. Types: supersedes (FROM replaces TO), contradicts (both are shown flagged), refines (FROM adds detail to TO; " +
        "search brings the refinement along), derived_from, summarizes, relates_to.",
      inputSchema: {
        from: z.string().describe("Id of the memory the relation starts from"),
        to: z.string().describe("Id of the memory it points to"),
        type: z.enum(EDGE_TYPES).describe("The relation"),
        reason: z.string().optional(),
      },
    },
    (a) =>
      guarded(async () => {
        const e = await engine.link(a.from, a.to, { type: a.type, reason: a.reason, provenance: "api" });
        return `[${e.from}] ${e.type} [${e.to}] from ${e.valid_from} (edge ${e.id}).`;
      }),
  );

  registerStrictTool(server,
    "memory_graph",
    {
      annotations: MCP_TOOLS.memory_graph.annotations,
      description:
        "Show what is connected to a memory: related memories and the entities (people, products, places, identifiers) it mentions, " +
        "and the other memories mentioning them. Use it to follow a thread across conversations.",
      inputSchema: {
        id: z.string().describe("A memory id from memory_search"),
        depth: z.number().int().min(1).max(MAX_GRAPH_DEPTH).optional().describe("Hops to walk (default 1)"),
        as_of: z.string().optional().describe("ISO date: the graph as the world stood then"),
      },
    },
    (a) => guarded(async () => renderGraph(await engine.graph(a.id, { depth: a.depth, asOf: a.as_of }))),
  );

  registerStrictTool(server,
    "memory_entities",
    {
      annotations: MCP_TOOLS.memory_entities.annotations,
      description:
        "List the entities (people, products, places, identifiers) memories mention, most mentioned first. With a filter " +
        '({"user": "alice"}), only those the matching memories mention, counted over them.',
      inputSchema: {
        query: z.string().optional().describe("Only entities whose name or an alias contains this"),
        top: z.number().int().min(1).max(200).optional().describe("How many (default 20)"),
        filter: recallWireShape.filter,
      },
    },
    (a) =>
      guarded(async () => {
        const { entities } = await engine.entities({ query: a.query, top: a.top, filter: a.filter });
        return entities.length ? entities.map((e) => `- [${e.id}] ${e.name} (${e.kind}; mentioned by ${e.memories})`).join("\n") : "No entities.";
      }),
  );

  registerStrictTool(server,
    "memory_current",
    {
      annotations: MCP_TOOLS.memory_current.annotations,
      description:
        "What is true NOW: the current facts of a user or agent (newest first), each with when it became true and the older value it " +
        'replaced. Use it for "where does Maya live now?", "what is X these days?", "what changed?": replaced values are never listed ' +
        "as current. as_of reads the state at another time; about narrows to an entity (a person, place, product) or a subject.",
      inputSchema: {
        filter: recallWireShape.filter,
        about: z.string().optional().describe("An entity's name (\"Berlin\", \"Maya\"), or else a subject search finds (\"home address\")"),
        as_of: z.string().optional().describe("ISO date: the state as the world stood then"),
        known_at: z.string().optional().describe("ISO date: only what Cascade had recorded by then"),
        history: z.boolean().optional().describe("Also every older version behind each fact"),
        limit: z.number().int().optional().describe("At most this many facts (default 50)"),
      },
    },
    (a) => guarded(async () => renderCurrent(await engine.currentState({ filter: a.filter, about: a.about, asOf: a.as_of, knownAt: a.known_at, history: a.history, limit: a.limit }))),
  );
}
