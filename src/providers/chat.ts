/**
 * @module providers/chat
 * One call to an OpenAI-compatible `/chat/completions` endpoint, shared by the chat judge and the chat
 * summariser. A response without `choices[0].message.content` is a PROVIDER_ERROR.
 */
import { z } from "zod";
import { CascadeError } from "../errors.js";
import { apiKeyFromEnv, postJson } from "./post-json.js";

export interface ChatOptions {
  baseURL: string;
  model: string;
  apiKey?: string;
  timeoutMs?: number;
  retries?: number;
  retryDelayMs?: number;
}

export type ResolvedChatOptions = Required<ChatOptions>;

export function resolveChatOptions(options: ChatOptions): ResolvedChatOptions {
  return { timeoutMs: 30_000, retries: 2, retryDelayMs: 500, apiKey: apiKeyFromEnv(), ...options, baseURL: options.baseURL.replace(/\/+$/, "") };
}

const completionSchema = z.object({ choices: z.array(z.object({ message: z.object({ content: z.string() }) })).min(1) });

/** The model's answer to a system and a user message (temperature 0). */
export async function chatCompletion(
  opts: ResolvedChatOptions,
  system: string,
  user: string,
  format: "json" | "text",
): Promise<{ content: string; url: string }> {
  const url = `${opts.baseURL}/chat/completions`;
  const json = await postJson(
    url,
    {
      model: opts.model,
      temperature: 0,
      ...(format === "json" ? { response_format: { type: "json_object" } } : {}),
      messages: [
        { role: "system", content: system },
        { role: "user", content: user },
      ],
    },
    opts,
  );
  const completion = completionSchema.safeParse(json);
  if (!completion.success) throw new CascadeError("PROVIDER_ERROR", `${url}: the response has no choices[0].message.content`);
  return { content: completion.data.choices[0].message.content, url };
}

/**
 * The model's JSON answer, checked against `schema`: not JSON, or not of that shape, is a PROVIDER_ERROR saying
 * what was missing, never a guessed value. A fenced block around the JSON, which some local models add, is
 * tolerated.
 */
export function parseModelJson<T>(content: string, url: string, schema: z.ZodType<T>, lacking: string): T {
  let answer: unknown;
  try {
    answer = JSON.parse(content.replace(/^\s*```(json)?|```\s*$/g, ""));
  } catch {
    throw new CascadeError("PROVIDER_ERROR", `${url}: the model's answer is not JSON`);
  }
  const parsed = schema.safeParse(answer);
  if (!parsed.success) throw new CascadeError("PROVIDER_ERROR", `${url}: the model's answer ${lacking}`);
  return parsed.data;
}
