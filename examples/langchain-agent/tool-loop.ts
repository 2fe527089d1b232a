/**
 * The two pieces of a LangChain.js agent this example needs without a model server: a tool-calling loop (the
 * `langchain` package's createAgent does the same with more options), and a scripted chat model that stands in
 * for a real one offline, built on LangChain's BaseChatModel (its FakeListChatModel replies only with text).
 */
import { BaseChatModel } from "@langchain/core/language_models/chat_models";
import type { AIMessage, BaseMessage, ToolMessage } from "@langchain/core/messages";
import type { ChatResult } from "@langchain/core/outputs";
import type { StructuredToolInterface } from "@langchain/core/tools";

/** Answers each call with what `script` returns for the conversation so far, tool calls included. */
export class ScriptedChatModel extends BaseChatModel {
  constructor(private readonly script: (messages: BaseMessage[]) => AIMessage) {
    super({});
  }
  _llmType(): string {
    return "scripted";
  }
  override bindTools(_tools: unknown[]): this {
    return this;
  }
  async _generate(messages: BaseMessage[]): Promise<ChatResult> {
    const message = this.script(messages);
    return { generations: [{ message, text: message.text }] };
  }
}

/** Calls the model, runs the tools it asks for, and repeats until it answers without one (or `maxTurns`). */
export async function runAgent(model: BaseChatModel, tools: StructuredToolInterface[], messages: BaseMessage[], maxTurns = 5): Promise<BaseMessage[]> {
  const bound = model.bindTools!(tools);
  const byName = new Map(tools.map((t) => [t.name, t]));
  for (let turn = 0; turn < maxTurns; turn++) {
    const reply = (await bound.invoke(messages)) as AIMessage;
    messages.push(reply);
    if (!reply.tool_calls?.length) break;
    for (const call of reply.tool_calls) messages.push((await byName.get(call.name)!.invoke(call)) as ToolMessage);
  }
  return messages;
}
