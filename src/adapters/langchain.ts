/**
 * @module adapters/langchain
 * `cascade-memory/langchain`, for LangChain.js (`@langchain/core`, an optional peer dependency: only this file
 * imports it):
 *  - CascadeRetriever: a search as a retriever; each Document carries the hit's ids, time, status, staleness, channels and
 *    ranks as metadata, so a chain can leave out (or flag) what was superseded;
 *  - CascadeChatMessageHistory: a conversation's messages stored as turns (kind `turn`, one session), read back
 *    in order, and searchable like any memory;
 *  - cascadeTools: the memory tools (adapters/tools.ts) as LangChain tools, for a model's bindTools.
 */
import { BaseListChatMessageHistory } from "@langchain/core/chat_history";
import { Document } from "@langchain/core/documents";
import { AIMessage, ChatMessage, HumanMessage, SystemMessage, type BaseMessage } from "@langchain/core/messages";
import { BaseRetriever, type BaseRetrieverInput } from "@langchain/core/retrievers";
import { tool } from "@langchain/core/tools";
import { CascadeError, defaultListLimits, STALE_SUMMARY_NOTE, type Engine, type Hit, type ListOptions, type MemoryInput, type RecallOptions } from "../index.js";
import { memoryToolList, type MemoryScope, type MemoryTool, type MemoryToolOptions } from "./tools.js";

export type { MemoryScope, MemoryToolOptions } from "./tools.js";

/** A hit's facts as a Document's metadata (the wire's names, as the search JSON spells them). */
export function hitMetadata(h: Hit) {
  return {
    id: h.id,
    kind: h.kind,
    level: h.level,
    window: h.window,
    title: h.title,
    topic: h.topic,
    at: h.at,
    speaker: h.speaker,
    ref: h.ref,
    status: h.status,
    superseded_by: h.superseded_by,
    supersedes: h.supersedes,
    sources_hit: h.sources_hit,
    ranks: h.ranks,
    rrf: h.rrf,
    score: h.score,
    /** A summary written before the latest memories of its window (false on everything else): see pageContent. */
    stale: h.stale === true,
  };
}

/**
 * What a chain puts in front of a model: the hit's text, and for a stale summary the note the CLI and MCP print
 * (STALE_SUMMARY_NOTE), since a prompt template rarely shows metadata.
 */
function pageContent(h: Hit): string {
  const text = h.title ? `${h.title}: ${h.text}` : h.text;
  return h.stale ? `${text}\n(${STALE_SUMMARY_NOTE})` : text;
}

export type HitMetadata = ReturnType<typeof hitMetadata>;

export interface CascadeRetrieverInput extends BaseRetrieverInput {
  engine: Engine;
  /** Recall options for every search (k, channels, currentOnly, filter...). */
  search?: RecallOptions;
  /** Only this user's, agent's or session's memories (added to the filter). */
  scope?: MemoryScope;
}

export class CascadeRetriever extends BaseRetriever<HitMetadata> {
  static override lc_name(): string {
    return "CascadeRetriever";
  }
  lc_namespace = ["cascade_memory", "retrievers"];
  private readonly engine: Engine;
  private readonly search: RecallOptions;

  constructor(fields: CascadeRetrieverInput) {
    super(fields);
    this.engine = fields.engine;
    const filter = { ...fields.search?.filter, ...fields.scope };
    this.search = { ...fields.search, ...(Object.keys(filter).length ? { filter } : {}) };
  }

  override async _getRelevantDocuments(query: string): Promise<Document<HitMetadata>[]> {
    const r = await this.engine.recall(query, this.search);
    return r.hits.map((h) => new Document({ id: h.id, pageContent: pageContent(h), metadata: hitMetadata(h) }));
  }
}

export interface CascadeChatHistoryInput {
  engine: Engine;
  /** The conversation: its messages are the memories of this session. */
  session: string;
  user?: string;
  agent?: string;
}

/** Message type → the role a turn is stored with, and back. */
const ROLE_OF: Record<string, string> = { human: "user", ai: "assistant", system: "system" };
const MESSAGE_OF: Record<string, (text: string) => BaseMessage> = {
  user: (t) => new HumanMessage(t),
  assistant: (t) => new AIMessage(t),
  system: (t) => new SystemMessage(t),
};

export class CascadeChatMessageHistory extends BaseListChatMessageHistory {
  lc_namespace = ["cascade_memory", "chat_history"];
  private readonly engine: Engine;
  private readonly scope: { session: string; user?: string; agent?: string };

  constructor(fields: CascadeChatHistoryInput) {
    super(fields);
    this.engine = fields.engine;
    this.scope = { session: fields.session, ...(fields.user !== undefined && { user: fields.user }), ...(fields.agent !== undefined && { agent: fields.agent }) };
  }

  async getMessages(): Promise<BaseMessage[]> {
    const messages: BaseMessage[] = [];
    const page: ListOptions = { filter: this.scope, kinds: ["turn"], order: "asc", limit: defaultListLimits.maxLimit };
    for (let cursor: string | undefined; ; ) {
      const r = await this.engine.list({ ...page, cursor });
      for (const m of r.memories) messages.push(MESSAGE_OF[m.role ?? ""]?.(m.text) ?? new ChatMessage({ content: m.text, role: m.role ?? "unknown" }));
      if (!r.next_cursor) return messages;
      cursor = r.next_cursor;
    }
  }

  async addMessage(message: BaseMessage): Promise<void> {
    await this.addMessages([message]);
  }

  /**
   * Stores the messages as turns in one batch (with a fact extractor configured, the facts they state too). A
   * message with no text (an AI message that only calls tools) is not stored: a memory is something said.
   */
  override async addMessages(messages: BaseMessage[]): Promise<void> {
    const turns: MemoryInput[] = messages
      .filter((m) => m.text.trim() !== "")
      .map((m) => ({ text: m.text, role: ROLE_OF[m.type] ?? (ChatMessage.isInstance(m) ? m.role : m.type), kind: "turn", ...this.scope }));
    if (turns.length === 0) return;
    const r = await this.engine.rememberMessages(turns);
    if (r.failed.length) throw new CascadeError("INVALID_INPUT", r.failed[0].error);
  }

  /** Forgets the whole conversation. */
  override async clear(): Promise<void> {
    await this.engine.forgetWhere({ filter: this.scope });
  }
}

const langchainTool = (t: MemoryTool) => tool(async (input) => JSON.stringify(await t.run(input)), { name: t.name, description: t.description, schema: t.input });

/** memory_search, memory_add, memory_forget and memory_history as LangChain tools (their answers as JSON text). */
export function cascadeTools(engine: Engine, options: MemoryToolOptions = {}) {
  return memoryToolList(engine, options).map(langchainTool);
}
