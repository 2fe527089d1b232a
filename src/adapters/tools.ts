/**
 * @module adapters/tools
 * The four memory tools every framework adapter hands an agent — search, remember, forget, history — defined
 * once: a name, a line for the model, an input schema taken from the SDK's own schemas (the recall options as
 * the wire spells them, the memory input), and what the tool does. An adapter only wraps them in its framework's
 * tool type, so LangChain.js, the AI SDK and the OpenAI Agents SDK offer the same tools with the same arguments.
 *
 * A scope (user, agent, session) given by the application binds the tools: what they write carries it, what they
 * search is filtered by it, and an id outside it is unknown to them. The model never chooses its own scope.
 * Expected misses (an unknown id, a bad date) come back as `{ error: { code, message } }` for the model to read.
 */
import { z } from "zod";
import { CascadeError, memoryInputSchema, notFound, recallOptionsFromWire, recallWireShape, respelled, STALE_SUMMARY_NOTE, wireName, type Engine, type Hit, type SearchResult } from "../index.js";

/** Who the tools act for; every field optional. */
export interface MemoryScope {
  user?: string;
  agent?: string;
  session?: string;
}

export interface MemoryToolOptions {
  /** Binds the tools to one user, agent or session (see the module comment). */
  scope?: MemoryScope;
}

/**
 * A summary written before the latest memories of its window (`stale`), said in the words the CLI and MCP use: a
 * model may otherwise take it for the whole of its window. Absent on everything else, as the search JSON has it.
 */
const staleMark = (s: { stale?: true }) => (s.stale ? { stale: true as const, stale_note: STALE_SUMMARY_NOTE } : {});

/** What the search tool returns for a hit: what an agent acts on (text, time, status), and where it came from. */
function agentHit(h: Hit) {
  return {
    id: h.id,
    text: h.title ? `${h.title}: ${h.text}` : h.text,
    at: h.at,
    topic: h.topic,
    speaker: h.speaker,
    status: h.status,
    superseded_by: h.superseded_by,
    supersedes: h.supersedes,
    ...(h.revised.length ? { replaced_statements: h.revised } : {}),
    ...staleMark(h),
    sources_hit: h.sources_hit,
    score: Number(h.score.toFixed(4)),
  };
}

// No open objects (weights, filter, metadata): OpenAI's strict tool schemas refuse them, and the application's
// scope stands in for a filter. An empty query is refused by the engine, in the words every surface uses.
const searchInput = z
  .object({
    query: z.string().describe("What you want to know, in plain words, e.g. 'which airline does the user prefer'"),
    k: recallWireShape.k,
    since: recallWireShape.since,
    until: recallWireShape.until,
    under: recallWireShape.under,
    kinds: recallWireShape.kinds,
    as_of: recallWireShape.as_of,
    current_only: recallWireShape.current_only,
  })
  .strict();

const m = memoryInputSchema.shape;
const rememberInput = z
  .object({
    text: m.text.describe("The memory itself, self-contained (a decision, a fact about the user, an outcome)"),
    title: m.title.describe("A short title"),
    tags: m.tags.describe("Tags to find it by"),
    topic: m.topic.describe("A topic path such as 'travel.flights'"),
    at: m.at.describe("When it happened (ISO 8601); default now"),
    ttl: m.ttl.describe("Forget it after this long, e.g. 12h, 30d, 2w"),
    supersedes: z.array(z.string().min(1)).max(64).optional().describe("Ids of memories this one replaces (from memory_search)"),
  })
  .strict();

const idInput = (what: string) => z.object({ id: z.string().min(1).describe(`The id of the memory ${what} (from memory_search)`) }).strict();

/** One tool: its name, the model's description, its input schema, and what it does. */
export interface MemoryTool<Input extends z.ZodObject = z.ZodObject> {
  name: string;
  description: string;
  input: Input;
  run: (input: z.output<Input>) => Promise<unknown>;
}

/** A CascadeError becomes a value the model reads, its field spelled as the tools spell it; anything else is a bug. */
async function answer<T>(work: () => Promise<T>): Promise<T | { error: { code: string; message: string } }> {
  try {
    return await work();
  } catch (thrown) {
    const err = respelled(thrown, wireName);
    if (err instanceof CascadeError) return { error: { code: err.code, message: err.message } };
    throw thrown;
  }
}

const defined = <T extends object>(o: T): Partial<T> => Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as Partial<T>;

export function memoryTools(engine: Engine, options: MemoryToolOptions = {}) {
  const scope = defined(options.scope ?? {});
  const scoped = Object.keys(scope).length > 0;

  /** Refuses an id outside the scope as if it did not exist: a tool bound to Alice can neither read nor erase Bob's. */
  async function inScope(id: string): Promise<void> {
    if (!scoped) return;
    const found = await engine.show(id);
    if (Object.entries(scope).some(([field, value]) => found[field as keyof MemoryScope] !== value)) throw notFound("memory", id);
  }

  const search: MemoryTool<typeof searchInput> = {
    name: "memory_search",
    description:
      "Search long-term memory. Returns the most relevant memories; each says whether it is current or superseded (never act " +
      "on a superseded one: use the memory in its superseded_by) and which retrieval channels found it. A summary marked stale was " +
      "written before the latest memories of its window: it may be out of date.",
    input: searchInput,
    run: ({ query, ...wire }) =>
      answer(async () => {
        const r: SearchResult = await engine.recall(query, { ...recallOptionsFromWire(wire), ...(scoped ? { filter: scope } : {}) });
        return { hits: r.hits.map(agentHit), context: r.context.map((c) => ({ id: c.id, level: c.level, window: c.window, text: c.text, ...staleMark(c) })), time_note: r.time_note };
      }),
  };

  const remember: MemoryTool<typeof rememberInput> = {
    name: "memory_add",
    description:
      "Store something worth remembering: a decision, a preference or fact about the user, an outcome. If it replaces an earlier " +
      "memory, pass that memory's id in supersedes; otherwise Cascade looks for what it may replace on its own.",
    input: rememberInput,
    run: (input) =>
      answer(async () => {
        const r = await engine.remember({ ...defined(input), ...scope, text: input.text }, { provenance: "api" });
        return {
          id: r.id,
          kind: r.kind,
          at: r.at,
          topic: r.topic,
          supersedes: r.edges.filter((e) => e.type === "supersedes").map((e) => e.to),
          may_revise: r.suggestions.map((s) => ({ id: s.to, confidence: Number(s.confidence.toFixed(2)), reason: s.reason })),
        };
      }),
  };

  const forget: MemoryTool<ReturnType<typeof idInput>> = {
    name: "memory_forget",
    description: "Forget a memory for good (it leaves every index, and the summaries that quoted it are rebuilt). Use when the user asks to delete something.",
    input: idInput("to forget"),
    run: ({ id }) =>
      answer(async () => {
        await inScope(id);
        const r = await engine.forget(id);
        return { id: r.id, forgotten: r.forgotten, summaries_rebuilt: r.summaries_rebuilt };
      }),
  };

  const history: MemoryTool<ReturnType<typeof idInput>> = {
    name: "memory_history",
    description: "How a memory changed over time: every earlier and later version, oldest first, with the edges that say why.",
    input: idInput("whose history you want"),
    run: ({ id }) =>
      answer(async () => {
        await inScope(id);
        return engine.history(id);
      }),
  };

  return { search, remember, forget, history };
}

/** The four tools in a list (search, remember, forget, history), for an adapter to wrap each alike. */
export function memoryToolList(engine: Engine, options: MemoryToolOptions = {}): MemoryTool[] {
  return Object.values(memoryTools(engine, options)) as MemoryTool[];
}
