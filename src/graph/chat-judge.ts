/**
 * @module graph/chat-judge
 * A revision judge backed by any OpenAI-compatible chat model (`/chat/completions`). The model answers in
 * JSON; anything else is a PROVIDER_ERROR, never a guessed edge.
 */
import { z } from "zod";
import type { JudgedMemory, RevisionJudge, Verdict } from "../ports/judge.js";
import { chatCompletion, parseModelJson, resolveChatOptions, type ChatOptions, type ResolvedChatOptions } from "../providers/chat.js";

export type ChatJudgeOptions = ChatOptions;

const SYSTEM = `You maintain an agent's long-term memory. Decide whether the NEWER memory replaces the OLDER one:
it reverses, corrects or updates the same fact or decision about the same subject. A memory that only adds
information, repeats, or talks about another subject does not replace it.
Answer with JSON only: {"supersedes": true|false, "confidence": number between 0 and 1, "reason": "one short sentence"}.`;

const answerSchema = z.object({ supersedes: z.boolean(), confidence: z.number().min(0).max(1), reason: z.string().max(500) });

export class ChatJudge implements RevisionJudge {
  readonly id: string;
  readonly provenance = "llm" as const;
  private readonly opts: ResolvedChatOptions;

  constructor(options: ChatJudgeOptions) {
    this.opts = resolveChatOptions(options);
    this.id = `chat-judge:${this.opts.model}`;
  }

  async judge(older: JudgedMemory, newer: JudgedMemory): Promise<Verdict> {
    const { content, url } = await chatCompletion(
      this.opts,
      SYSTEM,
      `OLDER (${older.at}): ${older.text}\n\nNEWER (${newer.at}): ${newer.text}`,
      "json",
    );
    const answer = parseModelJson(content, url, answerSchema, "lacks supersedes/confidence/reason");
    return { confidence: answer.supersedes ? answer.confidence : 0, reason: answer.reason };
  }
}
