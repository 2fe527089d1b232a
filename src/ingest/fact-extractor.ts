/**
 * @module ingest/fact-extractor
 * Optional fact extraction (Mem0's `add(messages)`): given chat messages, an OpenAI-compatible chat model states
 * the atomic facts worth remembering, each naming the messages it came from. The answer is checked (shape,
 * source indexes in range, bounded sizes); anything else is a PROVIDER_ERROR, never a guessed fact. Off unless
 * configured (`engine.facts.chat`).
 */
import { z } from "zod";
import { CascadeError } from "../errors.js";
import { chatCompletion, parseModelJson, resolveChatOptions, type ChatOptions, type ResolvedChatOptions } from "../providers/chat.js";
import { withSpeaker } from "../text/speaker.js";

export interface ExtractedFact {
  /** One self-contained statement, in the third person ("Maria is allergic to peanuts"). */
  text: string;
  /** Indexes of the messages it was taken from. */
  sources: number[];
}

export interface FactExtractor {
  readonly id: string;
  extract(messages: { speaker: string | null; text: string }[]): Promise<ExtractedFact[]>;
}

const SYSTEM = `You read a conversation and list the facts worth remembering about the people in it and what they
decided: preferences, plans, decisions, events, names, places, numbers, dates. Each fact is one short, self-contained
sentence in the third person that names who it is about, and lists the numbers of the messages it comes from.
No greetings, questions or small talk; nothing the messages do not say. Answer with JSON only:
{"facts": [{"text": "...", "sources": [0, 2]}]}.`;

const answerSchema = z.object({
  facts: z.array(z.object({ text: z.string().min(1).max(2000), sources: z.array(z.number().int().min(0)).min(1).max(100) })).max(200),
});

export class ChatFactExtractor implements FactExtractor {
  readonly id: string;
  private readonly opts: ResolvedChatOptions;

  constructor(options: ChatOptions) {
    this.opts = resolveChatOptions(options);
    this.id = `chat-facts:${this.opts.model}`;
  }

  async extract(messages: { speaker: string | null; text: string }[]): Promise<ExtractedFact[]> {
    const transcript = messages.map((m, i) => `[${i}] ${withSpeaker(m.speaker, m.text)}`).join("\n");
    const { content, url } = await chatCompletion(this.opts, SYSTEM, transcript, "json");
    const answer = parseModelJson(content, url, answerSchema, "has no facts list of {text, sources}");
    const facts = answer.facts.map((f) => ({ text: f.text.trim(), sources: [...new Set(f.sources)] }));
    const outOfRange = facts.find((f) => f.sources.some((s) => s >= messages.length));
    if (outOfRange) throw new CascadeError("PROVIDER_ERROR", `${url}: a fact names message ${Math.max(...outOfRange.sources)}, but there are ${messages.length}`);
    return facts.filter((f) => f.text.length > 0);
  }
}
