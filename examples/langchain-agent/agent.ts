/**
 * A LangChain.js agent that answers from Cascade: the retriever is its search tool (each document says whether
 * it is current or superseded, and which channels found it), and the conversation is kept as turns of a session.
 * The model here is scripted so the example runs offline; with a real one (e.g. `new ChatOpenAI(...)` from
 * @langchain/openai) the rest stays the same.
 *
 *   node dist/examples/langchain-agent/agent.js [--db FILE] [--now ISO]
 */
import { parseArgs } from "node:util";
import { AIMessage, HumanMessage, ToolMessage } from "@langchain/core/messages";
import { tool } from "@langchain/core/tools";
import { z } from "zod";
import { openMemory, parseInstant } from "cascade-memory";
import { CascadeChatMessageHistory, CascadeRetriever } from "cascade-memory/langchain";
import { ScriptedChatModel, runAgent } from "./tool-loop.js";

const { values } = parseArgs({ options: { db: { type: "string", default: ":memory:" }, now: { type: "string" } } });
const memory = await openMemory({ path: values.db, ...(values.now && { now: parseInstant("now", values.now) }) });

const first = await memory.remember({ text: "Atlas stores its data in MySQL 8.", topic: "atlas.storage", at: "2026-02-03T10:00:00Z" });
await memory.remember({ text: "Atlas moved its data from MySQL to PostgreSQL 16 for row-level security.", topic: "atlas.storage", at: "2026-05-04T10:00:00Z", supersedes: [first.id] });
await memory.remember({ text: "Atlas deploys every Tuesday after the design review.", topic: "atlas.releases", at: "2026-04-14T10:00:00Z" });
console.log("Memory holds 3 notes about the Atlas project.");

// The retriever as the agent's tool: one line per document, its status first, so the model can tell them apart.
const retriever = new CascadeRetriever({ engine: memory, search: { k: 3 } });
const searchMemory = tool(
  async ({ query }) =>
    (await retriever.invoke(query))
      .map((d) => `[${d.metadata.status}] ${d.metadata.at.slice(0, 10)} ${d.pageContent} (found by ${d.metadata.sources_hit.join(", ")})`)
      .join("\n"),
  { name: "search_memory", description: "Search the team's memory; superseded notes are marked.", schema: z.object({ query: z.string() }) },
);

// Stand-in model: searches with the question, then answers with the first current note it was shown.
const model = new ScriptedChatModel((messages) => {
  const found = messages.findLast((m) => ToolMessage.isInstance(m));
  if (!found) return new AIMessage({ content: "", tool_calls: [{ id: "search-1", name: "search_memory", args: { query: messages[0].text }, type: "tool_call" }] });
  const current = found.text.split("\n").find((line) => line.startsWith("[current]"));
  return new AIMessage(current ? `From memory: ${current.replace(/^\[current\] \S+ /, "").replace(/ \(found by .*\)$/, "")}` : "I have no current note on that.");
});

const question = new HumanMessage("Which database does Atlas use?");
const messages = await runAgent(model, [searchMemory], [question]);
console.log(`\nUser: ${question.text}`);
for (const m of messages.slice(1)) {
  if (ToolMessage.isInstance(m)) console.log(`search_memory found:\n${m.text.replace(/^/gm, "  ")}`);
  else if (m.text) console.log(`Assistant: ${m.text}`);
}

// The conversation itself, kept as turns of one session: searchable later, read back in order.
const history = new CascadeChatMessageHistory({ engine: memory, session: "atlas-chat" });
await history.addMessages([question, messages.at(-1)!]);
console.log(`\nThe conversation is stored as ${(await history.getMessages()).length} turns of session atlas-chat.`);
await memory.close();
