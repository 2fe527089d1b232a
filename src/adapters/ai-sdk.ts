/**
 * @module adapters/ai-sdk
 * `cascade-memory/ai-sdk`: the memory tools (adapters/tools.ts) as Vercel AI SDK tools, keyed by the names the
 * model sees, ready for `generateText({ model, tools: cascadeTools(memory), stopWhen: stepCountIs(5) })`.
 * `ai` is an optional peer dependency: only this file imports it.
 */
import { tool, type Tool } from "ai";
import type { Engine } from "../index.js";
import { memoryToolList, type MemoryTool, type MemoryToolOptions } from "./tools.js";

export type { MemoryScope, MemoryToolOptions } from "./tools.js";

const aiTool = (t: MemoryTool): Tool => tool({ description: t.description, inputSchema: t.input, execute: (input) => t.run(input) });

/** memory_search, memory_add, memory_forget and memory_history as a ToolSet. */
export function cascadeTools(engine: Engine, options: MemoryToolOptions = {}): Record<string, Tool> {
  return Object.fromEntries(memoryToolList(engine, options).map((t) => [t.name, aiTool(t)]));
}
