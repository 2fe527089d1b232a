/**
 * cascade-memory/openai-agents: the memory tools in a whole Agents SDK run, driven by a scripted Model (the SDK's
 * own Model interface, as its tests do): it calls memory_search, reads the hit from the function call's result,
 * calls memory_add with supersedes, then answers. The scenario and its checks are in agent-scenario.ts.
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import { Agent, Runner, Usage, type AgentInputItem, type Model, type ModelRequest, type ModelResponse } from "@openai/agents";
import { cascadeTools } from "../src/adapters/openai-agents.js";
import { QUESTION, SCOPE, SEARCH_ARGS, assertRemembered, rememberArgs, seededEngine } from "./agent-scenario.js";

const call = (callId: string, name: string, args: unknown): ModelResponse => ({
  usage: new Usage(),
  output: [{ type: "function_call", callId, name, arguments: JSON.stringify(args), status: "completed" }],
});

/** A function call's result as the runner hands it back to the model. */
function resultOf(input: AgentInputItem[], callId: string): unknown {
  const item = input.find((i) => i.type === "function_call_result" && i.callId === callId) as { output: { type: string; text: string } };
  assert.equal(item.output.type, "text");
  return JSON.parse(item.output.text);
}

class ScriptedModel implements Model {
  readonly requests: ModelRequest[] = [];
  async getResponse(request: ModelRequest): Promise<ModelResponse> {
    this.requests.push(request);
    const input = request.input as AgentInputItem[];
    const results = input.filter((i) => i.type === "function_call_result").length;
    // in strict mode a model sends every field, null for those it leaves out
    if (results === 0) return call("c1", "memory_search", { ...SEARCH_ARGS, k: null, since: null, until: null, under: null, kinds: null, as_of: null, current_only: null });
    if (results === 1) return call("c2", "memory_add", rememberArgs(resultOf(input, "c1")));
    return { usage: new Usage(), output: [{ type: "message", role: "assistant", status: "completed", content: [{ type: "output_text", text: "Noted: KLM from now on." }] }] };
  }
  getStreamedResponse(): AsyncIterable<never> {
    throw new Error("not used: the run is not streamed");
  }
}

test("OpenAI Agents: an Agent with cascadeTools searches, then stores the new preference as superseding the old", async () => {
  const s = await seededEngine();
  const model = new ScriptedModel();
  const tools = cascadeTools(s.engine, { scope: SCOPE });
  assert.deepEqual(tools.map((t) => t.name), ["memory_search", "memory_add", "memory_forget", "memory_history"]);
  const agent = new Agent({ name: "assistant", instructions: "Remember what the user tells you.", model, tools });

  const result = await new Runner({ tracingDisabled: true }).run(agent, QUESTION);
  assert.equal(result.finalOutput, "Noted: KLM from now on.");
  const input = model.requests.at(-1)!.input as AgentInputItem[];
  await assertRemembered(s, resultOf(input, "c1"), resultOf(input, "c2"));
  // the model was offered the tools with the recall option's bounds
  const offered = model.requests[0].tools.find((t) => t.name === "memory_search") as { parameters: { properties: Record<string, unknown> } };
  assert.ok("as_of" in offered.parameters.properties);
  await s.engine.close();
});
