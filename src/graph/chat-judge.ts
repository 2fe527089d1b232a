/**
 * @module graph/chat-judge
 * A revision judge backed by any OpenAI-compatible chat model (`/chat/completions`). It reads the two memories
 * statement by statement, as the offline judge does: the newer one supersedes a fact of the older (and names the
 * older sentence that stated it, so the rest of a long message stays current), refines it (a delay, an added
 * detail), confirms it (never a supersession), or has nothing to do with it. The model answers in JSON; anything
 * else is a PROVIDER_ERROR, never a guessed edge.
 */
import { z } from "zod";
import type { JudgedMemory, RevisionJudge, Verdict } from "../ports/judge.js";
import { chatCompletion, parseModelJson, resolveChatOptions, type ChatOptions, type ResolvedChatOptions } from "../providers/chat.js";
import { sentences, STATEMENT_SENTENCES } from "./statements.js";

export type ChatJudgeOptions = ChatOptions;

const SYSTEM = `You maintain an agent's long-term memory. Compare the NEWER memory with the OLDER one, statement by
statement (a statement is one fact: what someone or something is, has, does, costs, or plans, and when).
- "supersedes": the NEWER memory gives another value for a fact the OLDER states about the same subject (a new
  address, another day or price, a reversed decision, a cancelled plan).
- "refines": it keeps the OLDER fact and adjusts or adds to it (a delay, a venue added to a date).
- "confirms": it states the same value again.
- "unrelated": another subject, another person's fact, a separate new fact, or a question or wish.
Answer with JSON only: {"relation": "supersedes" | "refines" | "confirms" | "unrelated", "confidence": number
between 0 and 1, "reason": "one short sentence", "statement": "the OLDER memory's sentence whose fact changed,
copied exactly, or null when all of the OLDER memory is replaced"}.`;

const answerSchema = z.union([
  z.object({
    relation: z.enum(["supersedes", "refines", "confirms", "unrelated"]),
    confidence: z.number().min(0).max(1),
    reason: z.string().max(500),
    statement: z.string().max(10_000).nullable().optional(),
  }),
  // the first version's answer, which some prompts and proxies still give
  z.object({ supersedes: z.boolean(), confidence: z.number().min(0).max(1), reason: z.string().max(500) }),
]);

/**
 * A quoted statement the older memory does not hold (the model paraphrased or invented it) cannot say which fact
 * changed: on a memory of several statements the verdict then stays below an edge, a suggestion for a person.
 */
const UNPLACED_QUOTE = 0.6;

const normal = (s: string) => s.toLowerCase().replace(/[\s"'“”‘’.,;:!?]+/g, " ").trim();

/** The older memory's own sentence the model quoted, or null when none matches it. */
function quoted(olderSentences: string[], quote: string): string | null {
  const q = normal(quote);
  if (!q) return null;
  return olderSentences.find((s) => normal(s) === q) ?? olderSentences.find((s) => normal(s).includes(q) || q.includes(normal(s))) ?? null;
}

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
    const answer = parseModelJson(content, url, answerSchema, "lacks relation/confidence/reason");
    if ("supersedes" in answer) return { confidence: answer.supersedes ? answer.confidence : 0, reason: answer.reason };
    if (answer.relation === "confirms" || answer.relation === "unrelated") return { confidence: 0, reason: `${answer.relation}: ${answer.reason}` };
    const type = answer.relation;
    // a memory of one or two sentences is one statement, replaced whole (as graph/statements judges it)
    const olderSentences = sentences(older.text);
    if (olderSentences.length <= STATEMENT_SENTENCES || !answer.statement) return { confidence: answer.confidence, reason: answer.reason, type };
    const statement = quoted(olderSentences, answer.statement);
    if (!statement) return { confidence: Math.min(answer.confidence, UNPLACED_QUOTE), reason: `${answer.reason} (the quoted statement is not in the older memory)`, type };
    return { confidence: answer.confidence, reason: answer.reason, type, statement: statement.trim() };
  }
}
