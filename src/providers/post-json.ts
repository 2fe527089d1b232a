/**
 * @module providers/post-json
 * One JSON POST to an OpenAI-compatible server, with a timeout and retries for the failures worth retrying
 * (no answer, network errors, 429, 5xx). Every failure becomes a PROVIDER_ERROR naming the server.
 */
import { CascadeError } from "../errors.js";

export interface PostOptions {
  apiKey?: string;
  timeoutMs: number;
  /** Extra attempts after a timeout, a network error, 429 or 5xx. */
  retries: number;
  retryDelayMs: number;
}

class Retryable extends Error {}

export async function postJson(url: string, body: unknown, opts: PostOptions): Promise<unknown> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await postOnce(url, body, opts);
    } catch (err) {
      if (!(err instanceof Retryable) || attempt >= opts.retries) {
        throw new CascadeError("PROVIDER_ERROR", `${url}: ${(err as Error).message}`, { cause: err });
      }
      await new Promise((r) => setTimeout(r, opts.retryDelayMs * 2 ** attempt));
    }
  }
}

async function postOnce(url: string, body: unknown, opts: PostOptions): Promise<unknown> {
  let res: Response;
  try {
    res = await fetch(url, {
      method: "POST",
      headers: { "content-type": "application/json", ...(opts.apiKey ? { authorization: `Bearer ${opts.apiKey}` } : {}) },
      body: JSON.stringify(body),
      signal: AbortSignal.timeout(opts.timeoutMs),
    });
  } catch (err) {
    const e = err as Error;
    throw new Retryable(e.name === "TimeoutError" ? `no answer within ${opts.timeoutMs} ms` : e.message);
  }
  if (!res.ok) {
    // the provider's own words (an error body) say more than the status; kept short and on one line
    const text = (await res.text().catch(() => "")).slice(0, 200).replace(/\s+/g, " ").trim();
    const message = `HTTP ${res.status}${text ? `: ${text}` : ""}`;
    throw res.status === 429 || res.status >= 500 ? new Retryable(message) : new Error(message);
  }
  try {
    return await res.json();
  } catch {
    throw new Error("the response is not JSON");
  }
}

/** The API key from the environment: Cascade's own variable first, then OpenAI's. */
export function apiKeyFromEnv(): string {
  return process.env.CASCADE_EMBED_API_KEY ?? process.env.OPENAI_API_KEY ?? "";
}
