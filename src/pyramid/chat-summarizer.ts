/**
 * @module pyramid/chat-summarizer
 * An abstractive summariser backed by any OpenAI-compatible chat model. The model gets the window's sentences
 * with their dates and speakers and writes one paragraph; the paragraph names every input sentence's source,
 * since an abstract cannot say which sentence it took from where. Over-long answers are cut at the bound.
 */
import { CascadeError } from "../errors.js";
import type { SummarySentence } from "../model/pyramid.js";
import type { SummaryRequest, Summarizer } from "../ports/summarizer.js";
import { chatCompletion, resolveChatOptions, type ChatOptions, type ResolvedChatOptions } from "../providers/chat.js";

const SYSTEM = `You summarise an agent's memories for one period of time. Write one plain paragraph that keeps
names, decisions, numbers and dates. When something was changed or reversed during the period, state only the
final version, and say that it changed. Do not invent anything. Answer with the paragraph only.`;

export class ChatSummarizer implements Summarizer {
  readonly id: string;
  private readonly opts: ResolvedChatOptions;

  constructor(options: ChatOptions) {
    this.opts = resolveChatOptions(options);
    this.id = `chat-summarizer:${this.opts.model}`;
  }

  async summarize({ title, sentences, limits }: SummaryRequest): Promise<SummarySentence[]> {
    if (sentences.length === 0) return [];
    const lines = sentences.map((s) => `[${s.at}]${s.speaker ? ` ${s.speaker}:` : ""} ${s.text}`);
    const { content, url } = await chatCompletion(
      this.opts,
      SYSTEM,
      `Period: ${title}. At most ${limits.maxChars} characters.\n\n${lines.join("\n")}`,
      "text",
    );
    const text = content.trim().replace(/\s+/g, " ");
    if (text.length === 0) throw new CascadeError("PROVIDER_ERROR", `${url}: the model answered with an empty summary`);
    return [
      {
        text: text.length > limits.maxChars ? `${text.slice(0, limits.maxChars - 1).replace(/\s+\S*$/, "")}…` : text,
        speaker: null,
        at: sentences.map((s) => s.at).sort().at(-1)!,
        sources: [...new Set(sentences.flatMap((s) => s.sources))],
      },
    ];
  }
}
