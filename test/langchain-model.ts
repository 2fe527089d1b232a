/**
 * A scripted LangChain.js chat model for offline agent loops (the tests' and the LangChain example's): it answers
 * each call with what `script` returns for the messages so far, tool calls included, built on LangChain's own
 * BaseChatModel as the framework's fake models are (its FakeListChatModel replies only with text).
 */
import { BaseChatModel } from "@langchain/core/language_models/chat_models";
import type { AIMessage, BaseMessage } from "@langchain/core/messages";
import type { ChatResult } from "@langchain/core/outputs";

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
