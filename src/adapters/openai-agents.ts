/**
 * @module adapters/openai-agents
 * `cascade-memory/openai-agents`: the memory tools (adapters/tools.ts) as OpenAI Agents SDK function tools, for
 * `new Agent({ name, instructions, tools: cascadeTools(memory) })`. `@openai/agents` is an optional peer
 * dependency: only this file imports it.
 */
import { tool } from "@openai/agents";
import type { Engine } from "../index.js";
import { memoryToolList, type MemoryTool, type MemoryToolOptions } from "./tools.js";

export type { MemoryScope, MemoryToolOptions } from "./tools.js";

const agentTool = (t: MemoryTool) => tool({ name: t.name, description: t.description, parameters: t.input, execute: (input) => t.run(input) });

/** memory_search, memory_add, memory_forget and memory_history, in that order. */
export function cascadeTools(engine: Engine, options: MemoryToolOptions = {}): ReturnType<typeof agentTool>[] {
  return memoryToolList(engine, options).map(agentTool);
}
