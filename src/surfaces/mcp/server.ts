/**
 * @module surfaces/mcp/server
 * `cascade mcp`: the memory as Model Context Protocol tools over stdio, for Claude Desktop, Claude Code, Cursor
 * or any MCP client. Tool results are text a model can read: each hit with its status (current or superseded)
 * and the channels that found it. Errors come back as tool errors with the engine's code.
 */
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { boundedLines } from "./bounded-lines.js";
import { utf8Lines } from "./utf8-lines.js";
import { z } from "zod";
import { registerGraphTools } from "./graph-tools.js";
import { MCP_TOOLS } from "./tools.js";
import { registerStrictTool } from "./strict-tool.js";
import { answerInvalidParams } from "./invalid-params.js";
import { CascadeError, CHILD_NOUN, countOf, STALE_SUMMARY_NOTE, respelled, storeFailure, sentenceLine, wireName, recallOptionsFromWire, recallWireShape, whereSchema, type Engine, type HistoryJson, type SearchResult } from "../../index.js";

type ToolResult = { content: { type: "text"; text: string }[]; isError?: boolean };

const text = (t: string): ToolResult => ({ content: [{ type: "text", text: t }] });

async function guarded(fn: () => Promise<string>): Promise<ToolResult> {
  try {
    return text(await fn());
  } catch (thrown) {
    // the field named as the tools spell it (as_of, not the SDK's asOf)
    const err = respelled(storeFailure(thrown) ?? thrown, wireName);
    const code = err instanceof CascadeError ? err.code : "INTERNAL";
    return { ...text(`error ${code}: ${err instanceof Error ? err.message : String(err)}`), isError: true };
  }
}

export function renderHits(r: SearchResult): string {
  const note = r.time_note ? `Note on time: ${r.time_note}\n\n` : "";
  if (r.hits.length === 0) return `${note}No memory matches "${r.query}".`;
  const context = r.context.length
    ? "\n\nContext — summaries of the periods of the top results (a sentence marked [superseded by …] was replaced later: do not act on it):\n" +
      r.context.map((c) => `- [${c.id}] ${c.level} summary of ${c.window.start} to ${c.window.end}${c.stale ? ` (${STALE_SUMMARY_NOTE})` : ""}:\n${c.text}`).join("\n")
    : "";
  return note + r.hits
    .map((h, i) => {
      const status =
        h.status === "superseded"
          ? `SUPERSEDED by ${h.superseded_by.join(", ")} — do not act on it`
          : `current${h.supersedes.length ? `, replaces ${h.supersedes.join(", ")}` : ""}${partly(h.revised)}`;
      const disputed = h.contradicts?.length ? `; CONTRADICTED by ${h.contradicts.join(", ")}` : "";
      const found = h.sources_hit.length ? h.sources_hit.map((c) => `${c} #${h.ranks[c]}`).join(", ") : "brought in as the current version";
      const when = h.window ? `${h.level} summary of ${h.window.start} to ${h.window.end}` : h.at;
      const where = [when, h.topic && `topic ${h.topic}`, h.speaker && `speaker ${h.speaker}`, h.user && `user ${h.user}`, h.agent && `agent ${h.agent}`].filter(Boolean).join("; ");
      // a summary whose window was written to since it was computed says so (Hit.stale): a model reading it
      // might otherwise take it for all that window holds
      const stale = h.stale ? `; ${STALE_SUMMARY_NOTE}` : "";
      return `${i + 1}. [${h.id}] (${status}${disputed}; ${where}${stale}; found by ${found}; score ${h.score.toFixed(4)})\n${h.title ? `${h.title}: ` : ""}${h.text}`;
    })
    .join("\n\n") + context;
}

/** A partly current memory: which of its statements were replaced, and by what (the rest still stands). */
const partly = (revised: { statement: string; by: string }[]) =>
  revised.length ? `; PARTLY REVISED: ${revised.map((r) => `"${r.statement}" was replaced by ${r.by}`).join("; ")} — the rest still stands` : "";

function renderHistory(h: HistoryJson): string {
  const chain = h.chain.map((c) => `- [${c.id}] ${c.status}, valid ${c.valid_from} → ${c.valid_to ?? "now"}: ${c.text}`).join("\n");
  const edges = h.edges.map((e) => `- ${e.from} ${e.type} ${e.to} from ${e.valid_from} (${e.provenance}${e.retracted_at ? `, retracted ${e.retracted_at}` : ""})${e.reason ? `: ${e.reason}` : ""}`).join("\n");
  const revisions = h.revisions.map((r) => `- before the correction of ${r.recorded_at}: ${r.text}`).join("\n");
  return `Chain of ${h.id}, oldest first:\n${chain}\n\nEdges:\n${edges || "- none"}${revisions ? `\n\nCorrections (what it said before):\n${revisions}` : ""}`;
}

const FILTER_DESCRIPTION =
  'Only memories where every condition holds: {"user": "alice"}, {"session": "s1"}, {"tags": "travel"}, {"project": "atlas"} (a metadata field), ' +
  '{"priority": {"gte": 2}}, {"lang": {"in": ["en", "de"]}}; operators eq, ne, in, gt, gte, lt, lte';

export function createMcpServer(engine: Engine): McpServer {
  const server = new McpServer({ name: "cascade", version: "0.1.0" });

  registerStrictTool(server,
    "memory_search",
    {
      annotations: MCP_TOOLS.memory_search.annotations,
      description:
        "Search long-term memory. Returns the most relevant memories, newest decisions first when one replaced another. " +
        "Each result says whether it is current or SUPERSEDED (never act on a superseded one: use the memory that replaced it) " +
        "and which retrieval channels found it.",
      inputSchema: {
        query: z.string().describe("What you want to know, in plain words (e.g. 'what did we decide about the config change')"),
        // the options an agent needs, taken from the one recall schema (bounds and descriptions included)
        k: recallWireShape.k,
        under: recallWireShape.under,
        since: recallWireShape.since,
        until: recallWireShape.until,
        kinds: recallWireShape.kinds,
        now: recallWireShape.now,
        as_of: recallWireShape.as_of,
        known_at: recallWireShape.known_at,
        current_only: recallWireShape.current_only,
        coverage: recallWireShape.coverage,
        agreement: recallWireShape.agreement,
        steps: recallWireShape.steps,
        filter: recallWireShape.filter,
      },
    },
    ({ query, ...options }) => guarded(async () => renderHits(await engine.recall(query, recallOptionsFromWire(options)))),
  );

  registerStrictTool(server,
    "memory_add",
    {
      annotations: MCP_TOOLS.memory_add.annotations,
      description:
        "Store something worth remembering (a decision, a fact about the user, an outcome). If it replaces an earlier memory, " +
        "pass that memory's id in `supersedes`; otherwise Cascade looks for what it may replace on its own.",
      inputSchema: {
        text: z.string().describe("The memory itself, self-contained"),
        title: z.string().optional(),
        tags: z.array(z.string()).optional(),
        topic: z.string().optional().describe("Topic path such as 'projects.payments'"),
        at: z.string().optional().describe("ISO time it happened (default now)"),
        speaker: z.string().optional(),
        role: z.string().optional(),
        session: z.string().optional(),
        user: z.string().optional().describe("The person this memory is about or for (searchable with filter {\"user\": ...})"),
        agent: z.string().optional().describe("The agent writing it (searchable with filter {\"agent\": ...})"),
        metadata: z.record(z.string(), z.unknown()).optional().describe("Any JSON fields to keep with it; searchable with filter"),
        supersedes: z.array(z.string()).optional().describe("Ids of memories this one replaces"),
        ttl: z.string().optional().describe("Forget it after this long, e.g. 12h, 30d, 2w (searches leave it out from then on)"),
      },
    },
    (a) =>
      guarded(async () => {
        const r = await engine.remember(a, { provenance: "api" });
        const lines = [`${r.existing ? "Already stored, nothing new written:" : "Remembered"} [${r.id}] (${r.kind}, ${r.at}${r.topic ? `, topic ${r.topic}` : ""}).`];
        for (const e of r.edges) lines.push(`It supersedes [${e.to}]${e.provenance === "heuristic" || e.provenance === "llm" ? ` (detected, confidence ${e.confidence.toFixed(2)})` : ""}: that memory is now marked superseded.`);
        for (const s of r.suggestions) lines.push(`It may revise [${s.to}] (confidence ${s.confidence.toFixed(2)}: ${s.reason}); if so, call memory_supersede with new=${r.id} old=${s.to}.`);
        // it is stored: a step that failed on it (a full disk after the commit included) is said, not an error
        for (const w of r.warnings ?? []) lines.push(`Warning: stored without ${w.step}: ${w.reason}`);
        return lines.join("\n");
      }),
  );

  registerStrictTool(server,
    "memory_supersede",
    {
      annotations: MCP_TOOLS.memory_supersede.annotations,
      description: "Record that one memory replaces another (a reversed decision, a corrected fact). The old one is then marked superseded.",
      inputSchema: {
        new_id: z.string().describe("Id of the memory that is now true"),
        old_id: z.string().describe("Id of the memory it replaces"),
        reason: z.string().optional(),
      },
    },
    (a) =>
      guarded(async () => {
        const e = await engine.supersede(a.new_id, a.old_id, { reason: a.reason, provenance: "api" });
        return `[${e.from}] now supersedes [${e.to}] from ${e.valid_from} (edge ${e.id}).`;
      }),
  );

  registerStrictTool(server,
    "memory_history",
    {
      annotations: MCP_TOOLS.memory_history.annotations,
      description: "Show how a memory changed over time: every earlier and later version, oldest first, and why.",
      inputSchema: { id: z.string().describe("A memory id from memory_search") },
    },
    (a) => guarded(async () => renderHistory(await engine.history(a.id))),
  );

  registerStrictTool(server,
    "memory_forget",
    {
      annotations: MCP_TOOLS.memory_forget.annotations,
      description:
        "Forget a memory for good, or every memory matching a filter: they leave every index and the summaries that quoted them " +
        "are rebuilt. With purge, every byte of the text is also erased from the store's files (slower). Use when the user asks to " +
        "delete something. With a filter, call first with dry_run true to see what would go.",
      inputSchema: {
        id: z.string().optional().describe("A memory id from memory_search (or give filter/before instead)"),
        filter: whereSchema.optional().describe(FILTER_DESCRIPTION),
        before: z.string().optional().describe("ISO time: every memory that happened before it (with filter: and matching it)"),
        expired: z.boolean().optional().describe("Every memory whose expiry has passed"),
        dry_run: z.boolean().optional().describe("With filter/before: only list what would be forgotten"),
        purge: z.boolean().optional().describe("Also erase the text from the database file, its log and every index"),
      },
    },
    (a) =>
      guarded(async () => {
        if (a.id === undefined) {
          if (a.filter === undefined && a.before === undefined && !a.expired) throw new CascadeError("INVALID_INPUT", "id: give an id, or a filter/before", { field: "id" });
          const r = await engine.forgetWhere({ filter: a.filter, before: a.before, expired: a.expired, dryRun: a.dry_run, purge: a.purge });
          return r.dry_run
            ? `Would forget ${countOf(r.matched, "memory")} (dry run, nothing changed)${r.ids.length ? `: ${r.ids.map((id) => `[${id}]`).join(", ")}` : ""}.`
            : `Forgot ${countOf(r.forgotten, "memory")}${r.summaries_rebuilt ? `; ${countOf(r.summaries_rebuilt, "summary")} rebuilt` : ""}.`;
        }
        const r = await engine.forget(a.id, { purge: a.purge });
        const rebuilt = r.summaries_rebuilt ? `; ${countOf(r.summaries_rebuilt, "summary")} rebuilt` : "";
        if (!r.forgotten) return `[${r.id}] was not in the store (forgotten already); every remnant of what was forgotten was erased${rebuilt}.`;
        return `Forgot [${r.id}]${rebuilt}${r.purged ? "; its text was erased from the store's files" : ""}.`;
      }),
  );

  registerStrictTool(server,
    "memory_purge",
    {
      annotations: MCP_TOOLS.memory_purge.annotations,
      description:
        "Erase every remnant of what was forgotten, without naming a memory: summaries that still quote a forgotten memory are " +
        "rebuilt and the deleted text is erased from the store's files (as memory_forget with purge). Use after a forget that was " +
        "interrupted, or when the user asks that nothing forgotten stays on disk.",
      inputSchema: {},
    },
    () =>
      guarded(async () => {
        const r = await engine.purge();
        return `Purged${r.summaries_rebuilt ? `; ${countOf(r.summaries_rebuilt, "summary")} rebuilt` : ""}${r.turn_summaries_removed ? `; ${countOf(r.turn_summaries_removed, "orphan turn summary")} removed` : ""}${r.checkpointed ? "" : "; another process holds the log open: purge again later"}.`;
      }),
  );

  registerStrictTool(server,
    "memory_topics",
    {
      annotations: MCP_TOOLS.memory_topics.annotations,
      description: "List the topic tree with how many memories sit at each path (count) and below it (total).",
      inputSchema: { under: z.string().optional().describe("Only this path and below, e.g. 'ops'") },
    },
    (a) =>
      guarded(async () => {
        const { topics } = await engine.topics(a.under);
        return topics.length ? topics.map((t) => `${t.path}  (${t.count} here, ${t.total} in all)`).join("\n") : "No topics yet.";
      }),
  );

  registerStrictTool(server,
    "memory_pyramid",
    {
      annotations: MCP_TOOLS.memory_pyramid.annotations,
      description:
        "Summaries of what happened per day, week or month (oldest first). Use it for overviews (\"what happened last week\", " +
        "\"how did X evolve this quarter\"); memory_search also finds these summaries when a question names a time.",
      inputSchema: {
        level: z.enum(["turn", "day", "week", "month"]).optional().describe("Only this level (default: all)"),
        filter: whereSchema.optional().describe(`${FILTER_DESCRIPTION} Naming one user (or agent) gives that user's own summaries.`),
      },
    },
    (a) =>
      guarded(async () => {
        const { nodes, dirty } = await engine.pyramid({ level: a.level, filter: a.filter });
        const stale = dirty ? `\n(${countOf(dirty, "window")} changed since the summaries were built.)` : "";
        return (nodes.length ? nodes.map((n) => `[${n.id}] ${n.level} ${n.start} to ${n.end} (${countOf(n.children, CHILD_NOUN[n.level])}):\n${n.text}`).join("\n\n") : "No summaries yet.") + stale;
      }),
  );

  registerStrictTool(server,
    "memory_get",
    {
      annotations: MCP_TOOLS.memory_get.annotations,
      description: "Read one memory in full by its id (from memory_search or memory_list), with whether it is current or superseded.",
      inputSchema: { id: z.string().describe("A memory id, e.g. m_01J...") },
    },
    (a) =>
      guarded(async () => {
        const m = await engine.show(a.id);
        const status = m.status === "superseded" ? `SUPERSEDED by ${m.superseded_by.join(", ")} — do not act on it` : `current${partly(m.revised)}`;
        const facts = [
          m.at,
          `kind ${m.kind}`,
          m.supersedes.length > 0 && `supersedes ${m.supersedes.join(", ")}`,
          m.topic && `topic ${m.topic}`,
          m.speaker && `speaker ${m.speaker}`,
          m.user && `user ${m.user}`,
          m.agent && `agent ${m.agent}`,
          m.session && `session ${m.session}`,
          typeof m.metadata.ref === "string" && `ref ${m.metadata.ref}`,
        ]
          .filter(Boolean)
          .join("; ");
        // a summary reads as its sentences now: one whose source was superseded since is marked
        const body = m.sentences?.length ? m.sentences.map(sentenceLine).join("\n") : m.text;
        return `[${m.id}] (${status}; ${facts})\n${m.title ? `${m.title}: ` : ""}${body}`;
      }),
  );

  registerStrictTool(server,
    "memory_update",
    {
      annotations: MCP_TOOLS.memory_update.annotations,
      description:
        "Correct a memory that was recorded wrong (a typo, a wrong number, a missing detail): same id, time and links; its history " +
        "keeps what it said before. If the world changed instead (a decision reversed), use memory_add with supersedes.",
      inputSchema: {
        id: z.string().describe("The memory to correct"),
        text: z.string().optional().describe("The corrected text"),
        title: z.string().optional(),
        tags: z.array(z.string()).optional(),
        topic: z.string().optional(),
      },
    },
    ({ id, ...changes }) =>
      guarded(async () => {
        const m = await engine.update(id, changes);
        return `Corrected [${m.id}]; it now reads:\n${m.title ? `${m.title}: ` : ""}${m.text}`;
      }),
  );

  registerStrictTool(server,
    "memory_list",
    {
      annotations: MCP_TOOLS.memory_list.annotations,
      description:
        "List memories in time order (newest first by default), a page at a time, optionally only a topic subtree, a time range or " +
        "those matching a filter. For browsing; to answer a question use memory_search.",
      inputSchema: {
        limit: z.number().int().min(1).max(200).optional().describe("Memories per page (default 20)"),
        cursor: z.string().optional().describe("next_cursor from the previous page"),
        order: z.enum(["asc", "desc"]).optional().describe("desc (newest first, default) or asc"),
        under: recallWireShape.under,
        since: recallWireShape.since,
        until: recallWireShape.until,
        filter: recallWireShape.filter,
      },
    },
    (a) =>
      guarded(async () => {
        const page = await engine.list({ limit: a.limit ?? 20, cursor: a.cursor, order: a.order ?? "desc", under: a.under, since: a.since, until: a.until, filter: a.filter });
        if (page.memories.length === 0) return "No memories.";
        const lines = page.memories.map((m) => {
          const status = m.status === "superseded" ? `SUPERSEDED by ${m.superseded_by.join(", ")}` : "current";
          const text = m.text.length > 300 ? `${m.text.slice(0, 300)}…` : m.text;
          return `- [${m.id}] ${m.at} (${status}${m.topic ? `; topic ${m.topic}` : ""}): ${text}`;
        });
        return lines.join("\n") + (page.next_cursor ? `\n\nMore: call again with cursor "${page.next_cursor}".` : "");
      }),
  );

  registerStrictTool(server,
    "memory_pyramid_build",
    {
      annotations: MCP_TOOLS.memory_pyramid_build.annotations,
      description:
        "Bring the day, week and month summaries up to date now (they are normally kept current on every write; use this after a " +
        "bulk import into an older store, or with full=true after changing the summariser).",
      inputSchema: { full: z.boolean().optional().describe("Recompute every summary, not just the out-of-date ones") },
    },
    (a) =>
      guarded(async () => {
        const r = await engine.buildPyramid({ full: a.full });
        return `Summaries up to date: ${countOf(r.recomputed.day, "day")}, ${countOf(r.recomputed.week, "week")}, ${countOf(r.recomputed.month, "month")} recomputed; ${countOf(r.turns, "turn summary", "turn summaries")} written.`;
      }),
  );

  registerGraphTools(server, engine, guarded);
  const missing = Object.keys(MCP_TOOLS).filter((name) => !(name in (server as unknown as { _registeredTools: Record<string, unknown> })._registeredTools));
  if (missing.length) throw new Error(`MCP tools listed in tools.ts but not registered: ${missing.join(", ")}`);
  answerInvalidParams(server);
  return server;
}

/**
 * JSON-RPC answers a line it cannot read: -32700 (parse error) for one that is not JSON, -32600 (invalid
 * request) for JSON that is not a JSON-RPC message, each with id null. The SDK's transport only reports them
 * to the server's error handler, which still hears of them.
 */
function answerUnreadableLines(transport: StdioServerTransport): void {
  const reported = transport.onerror;
  transport.onerror = (err) => {
    const error =
      err instanceof SyntaxError
        ? { code: -32700, message: `Parse error: ${err.message}` }
        : err instanceof z.ZodError
          ? { code: -32600, message: "Invalid Request: not a JSON-RPC 2.0 message" }
          : null;
    if (error) void transport.send({ jsonrpc: "2.0", id: null, error } as never);
    reported?.(err);
  };
}

/** One MCP message's bytes at most: under the SDK's 10 MB buffer, above the 1,000,000 characters a memory may hold. */
const MAX_MESSAGE_BYTES = 8 * 1024 * 1024;

/** Serves MCP on stdin/stdout until the client goes away. Logs go to stderr only: stdout is the protocol. */
export async function serveMcpOverStdio(engine: Engine): Promise<void> {
  const server = createMcpServer(engine);
  // a line longer than the SDK's buffer is answered and skipped (the SDK would close the transport on it)
  const tooLong = (bytes: number) => {
    process.stderr.write(`cascade mcp: skipped a message of ${bytes} bytes (at most ${MAX_MESSAGE_BYTES})\n`);
    void transport.send({ jsonrpc: "2.0", id: null, error: { code: -32600, message: `Invalid Request: a message of ${bytes} bytes, more than the ${MAX_MESSAGE_BYTES} allowed` } } as never);
  };
  // a line that is not UTF-8 is refused (-32700: JSON text is UTF-8), as import and the HTTP API refuse it
  const notUtf8 = (id: string | number | null, message: string) => void transport.send({ jsonrpc: "2.0", id, error: { code: -32700, message: `Parse error: ${message}` } } as never);
  const lines = process.stdin.pipe(boundedLines(MAX_MESSAGE_BYTES, tooLong)).pipe(utf8Lines(notUtf8));
  const transport = new StdioServerTransport(lines as unknown as typeof process.stdin);
  await server.connect(transport);
  answerUnreadableLines(transport);
  await new Promise<void>((resolve) => {
    server.server.onclose = () => resolve();
    process.stdin.once("end", () => resolve());
  });
  await server.close();
}
