/**
 * @module entities/chat-extractor
 * An optional entity extractor backed by any OpenAI-compatible chat model. The model answers in JSON; an
 * answer of any other shape is a PROVIDER_ERROR, never a guessed entity. Names are normalised exactly as the
 * offline extractor's are, so aliases merge the same way whichever extractor wrote them.
 */
import { withSpeaker } from "../text/speaker.js";
import { z } from "zod";
import type { ExtractedEntity } from "../model/entity.js";
import { chatCompletion, parseModelJson, resolveChatOptions, type ChatOptions, type ResolvedChatOptions } from "../providers/chat.js";
import { isRoleLabel, normalizeEntity, type EntityExtractor } from "./extract.js";

const SYSTEM = `You extract the named entities a short memory mentions: people, organisations, products, places, and
technical identifiers (service names, error codes, versions). Not pronouns, dates, amounts or common nouns.
Answer with JSON only: {"entities": [{"name": "as written", "kind": "person" | "name" | "identifier"}]}.`;

const answerSchema = z.object({
  entities: z.array(z.object({ name: z.string().min(1).max(200), kind: z.enum(["person", "name", "identifier"]) })).max(100),
});

export class ChatEntityExtractor implements EntityExtractor {
  readonly id: string;
  private readonly opts: ResolvedChatOptions;

  constructor(options: ChatOptions) {
    this.opts = resolveChatOptions(options);
    this.id = `chat-entities:${this.opts.model}`;
  }

  async extract(text: string, speaker: string | null): Promise<ExtractedEntity[]> {
    const { content, url } = await chatCompletion(this.opts, SYSTEM, withSpeaker(speaker ?? null, text), "json");
    const answer = parseModelJson(content, url, answerSchema, "has no entities list of {name, kind}");
    const out = new Map<string, ExtractedEntity>();
    // a role label ("user", "assistant") says which side spoke, not who (entities/extract.ts)
    if (speaker && !isRoleLabel(normalizeEntity(speaker))) out.set(normalizeEntity(speaker), { name: speaker, key: normalizeEntity(speaker), kind: "person" });
    for (const e of answer.entities) {
      const key = normalizeEntity(e.name);
      if (key.length >= 2 && !isRoleLabel(key) && !out.has(key)) out.set(key, { name: e.name.trim(), key, kind: e.kind });
    }
    return [...out.values()];
  }
}
