/**
 * cascade-memory/ai-sdk: the memory tools in a whole `generateText` tool loop, driven by the AI SDK's own mock
 * model (MockLanguageModelV3): it calls memory_search, reads the hit from the tool result, calls memory_add with
 * supersedes, then answers. The scenario and its checks are in agent-scenario.ts.
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import { generateText, stepCountIs } from "ai";
import { MockLanguageModelV3 } from "ai/test";
import { cascadeTools } from "../src/adapters/ai-sdk.js";
import { QUESTION, SCOPE, SEARCH_ARGS, assertRemembered, rememberArgs, seededEngine } from "./agent-scenario.js";

// the model interface's own types, through the mock (@ai-sdk/provider is ai's dependency, not ours)
type LanguageModelV3CallOptions = Parameters<MockLanguageModelV3["doGenerate"]>[0];
type LanguageModelV3GenerateResult = Awaited<ReturnType<MockLanguageModelV3["doGenerate"]>>;

const usage = { inputTokens: { total: 1, noCache: 1, cacheRead: 0, cacheWrite: 0 }, outputTokens: { total: 1, text: 1, reasoning: 0 } };

function call(id: string, toolName: string, input: unknown): LanguageModelV3GenerateResult {
  return { content: [{ type: "tool-call", toolCallId: id, toolName, input: JSON.stringify(input) }], finishReason: { unified: "tool-calls", raw: "tool_calls" }, usage, warnings: [] };
}

/** The output of the latest tool result in the prompt, as the AI SDK hands it back to the model. */
function lastToolOutput(options: LanguageModelV3CallOptions): unknown {
  const parts = options.prompt.filter((m) => m.role === "tool").flatMap((m) => m.content);
  const out = (parts.at(-1) as { output: { type: string; value: unknown } }).output;
  assert.equal(out.type, "json");
  return out.value;
}

test("AI SDK: generateText with cascadeTools searches, then stores the new preference as superseding the old", async () => {
  const s = await seededEngine();
  const model = new MockLanguageModelV3({
    doGenerate: async (options) => {
      const step = options.prompt.filter((m) => m.role === "tool").length;
      if (step === 0) return call("c1", "memory_search", SEARCH_ARGS);
      if (step === 1) return call("c2", "memory_add", rememberArgs(lastToolOutput(options)));
      return { content: [{ type: "text", text: "Noted: KLM from now on." }], finishReason: { unified: "stop", raw: "stop" }, usage, warnings: [] };
    },
  });
  const tools = cascadeTools(s.engine, { scope: SCOPE });
  assert.deepEqual(Object.keys(tools), ["memory_search", "memory_add", "memory_forget", "memory_history"]);

  const result = await generateText({ model, tools, prompt: QUESTION, stopWhen: stepCountIs(5) });
  assert.equal(result.text, "Noted: KLM from now on.");
  const [searched, added] = result.steps.flatMap((st) => st.toolResults).map((r) => r.output);
  await assertRemembered(s, searched, added);
  // the model was offered the tools with the SDK's own descriptions and the recall option's bounds
  const offered = model.doGenerateCalls[0].tools!.find((t) => t.name === "memory_search") as { inputSchema: { properties: Record<string, { maximum?: number }> } };
  assert.equal(offered.inputSchema.properties.k.maximum, 1000);
  await s.engine.close();
});
