/**
 * @module embed/openai
 * An embedder for any OpenAI-compatible `/embeddings` endpoint: OpenAI itself, Ollama, vLLM, LM Studio,
 * text-embeddings-inference. Every response is checked (shape, count, dimensions, finite numbers) before a
 * vector reaches the store: a provider's mistake becomes a PROVIDER_ERROR, never a corrupt index.
 */
import { z } from "zod";
import { CascadeError } from "../errors.js";
import type { Embedder } from "../ports/embedder.js";
import { apiKeyFromEnv, postJson } from "../providers/post-json.js";
import { normalizeInPlace } from "../vectors/math.js";

export interface OpenAIEmbedderOptions {
  /** e.g. `https://api.openai.com/v1` or `http://127.0.0.1:11434/v1` for Ollama. */
  baseURL: string;
  model: string;
  /** The vector size the model returns; checked on every response. */
  dimensions: number;
  /** Defaults to $CASCADE_EMBED_API_KEY, then $OPENAI_API_KEY; local servers usually need none. */
  apiKey?: string;
  timeoutMs?: number;
  /** Texts per request. */
  batchSize?: number;
  /** Extra attempts after a timeout, a network error, 429 or 5xx. */
  retries?: number;
  retryDelayMs?: number;
}

export const defaultOpenAIEmbedderOptions = Object.freeze({
  timeoutMs: 30_000, // a large batch on a busy server can take seconds; a hung socket should not hang ingest
  batchSize: 64, // the common per-request limit of hosted APIs is far higher; 64 bounds the cost of a retry
  retries: 2,
  retryDelayMs: 500,
});

const responseSchema = z.object({
  data: z.array(z.object({ embedding: z.array(z.number()), index: z.number().int().nonnegative().optional() })),
});

export class OpenAIEmbedder implements Embedder {
  readonly id: string;
  readonly dimensions: number;
  private readonly opts: Required<OpenAIEmbedderOptions>;

  constructor(options: OpenAIEmbedderOptions) {
    if (!Number.isInteger(options.dimensions) || options.dimensions <= 0) {
      throw new CascadeError("INVALID_INPUT", "embedder.dimensions: must be a positive integer", { field: "dimensions" });
    }
    this.opts = { ...defaultOpenAIEmbedderOptions, apiKey: apiKeyFromEnv(), ...options, baseURL: options.baseURL.replace(/\/+$/, "") };
    this.dimensions = options.dimensions;
    this.id = `openai-compatible:${this.opts.model}:${options.dimensions}`;
  }

  async embed(texts: string[]): Promise<Float32Array[]> {
    const out: Float32Array[] = [];
    for (let i = 0; i < texts.length; i += this.opts.batchSize) {
      out.push(...(await this.embedBatch(texts.slice(i, i + this.opts.batchSize))));
    }
    return out;
  }

  private async embedBatch(batch: string[]): Promise<Float32Array[]> {
    const url = `${this.opts.baseURL}/embeddings`;
    const json = await postJson(url, { model: this.opts.model, input: batch }, this.opts);
    const fail = (problem: string) => new CascadeError("PROVIDER_ERROR", `${url}: ${problem}`);
    const parsed = responseSchema.safeParse(json);
    if (!parsed.success) throw fail("the response does not have the shape {data: [{embedding: number[]}]}");
    const data = parsed.data.data;
    if (data.length !== batch.length) throw fail(`asked for ${batch.length} vectors, got ${data.length}`);
    const ordered = data.every((d) => d.index !== undefined) ? [...data].sort((a, b) => a.index! - b.index!) : data;
    return ordered.map((d, i) => {
      if (d.embedding.length !== this.dimensions) throw fail(`vector ${i} has ${d.embedding.length} dimensions, expected ${this.dimensions}`);
      if (!d.embedding.every(Number.isFinite)) throw fail(`vector ${i} holds a non-finite number (NaN or Infinity)`);
      return normalizeInPlace(Float32Array.from(d.embedding));
    });
  }
}
