/**
 * @module embed/spec
 * Embedders as configuration, so that every surface (CLI, `serve`, `mcp`) can use the same one: a small JSON
 * record in the config file (`engine.embedder`) or the environment names the provider and its model; the store
 * keeps that record (never a key) beside its embedder stamp, so a store opens again with its own embedder
 * without flags. Keys come only from the environment ($CASCADE_EMBED_API_KEY, then $OPENAI_API_KEY).
 */
import { z } from "zod";
import { invalidInput } from "../errors.js";
import type { Embedder, TokenVectors } from "../ports/embedder.js";
import { OnnxEmbedder } from "./onnx.js";
import { OpenAIEmbedder } from "./openai.js";

export const embedderSpecSchema = z.discriminatedUnion("provider", [
  /** The offline default: GloVe 100-d word vectors with SIF weighting. */
  z.object({ provider: z.literal("glove") }).strict(),
  /** Any OpenAI-compatible /embeddings endpoint: OpenAI, Ollama, vLLM, LM Studio, text-embeddings-inference. */
  z
    .object({
      provider: z.literal("openai-compatible"),
      baseURL: z.string().url(),
      model: z.string().min(1),
      dimensions: z.number().int().min(1).max(16_384),
      timeoutMs: z.number().int().min(100).max(600_000).optional(),
      batchSize: z.number().int().min(1).max(2048).optional(),
    })
    .strict(),
  /** A local sentence-embedding model in Hugging Face's folder layout, run by ONNX Runtime (embed/onnx.ts). */
  z
    .object({
      provider: z.literal("onnx"),
      path: z.string().min(1),
      file: z.string().min(1).optional(),
      pooling: z.enum(["mean", "cls", "max"]).optional(),
      maxTokens: z.number().int().min(2).max(8192).optional(),
      batchSize: z.number().int().min(1).max(1024).optional(),
      threads: z.number().int().min(1).max(256).optional(),
    })
    .strict(),
]);

export type EmbedderSpec = z.infer<typeof embedderSpecSchema>;

export { EMBEDDER_SPEC_META } from "./spec-meta.js";

/**
 * The spec named by the environment, if any: $CASCADE_EMBED_ONNX (a model folder), or $CASCADE_EMBED_URL,
 * $CASCADE_EMBED_MODEL and $CASCADE_EMBED_DIMENSIONS together.
 */
export function embedderSpecFromEnv(env: NodeJS.ProcessEnv = process.env): EmbedderSpec | null {
  const { CASCADE_EMBED_URL: baseURL, CASCADE_EMBED_MODEL: model, CASCADE_EMBED_DIMENSIONS: dims, CASCADE_EMBED_ONNX: folder } = env;
  if (folder !== undefined) {
    if (baseURL || model || dims) throw invalidInput("CASCADE_EMBED_ONNX", "set either CASCADE_EMBED_ONNX or the CASCADE_EMBED_URL trio, not both");
    if (!folder.trim()) throw invalidInput("CASCADE_EMBED_ONNX", "must name a model folder");
    return { provider: "onnx", path: folder };
  }
  if (!baseURL && !model && !dims) return null;
  if (!baseURL || !model || !dims) throw invalidInput("CASCADE_EMBED_URL", "set CASCADE_EMBED_URL, CASCADE_EMBED_MODEL and CASCADE_EMBED_DIMENSIONS together");
  const spec = embedderSpecSchema.safeParse({ provider: "openai-compatible", baseURL, model, dimensions: Number(dims) });
  if (!spec.success) throw invalidInput("CASCADE_EMBED_URL", spec.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`).join("; "));
  return spec.data;
}

/** Builds the embedder a spec names; the offline default comes from `glove` (loaded once per process). */
export async function embedderFromSpec(spec: EmbedderSpec, glove: () => Embedder): Promise<Embedder> {
  if (spec.provider === "glove") return glove();
  if (spec.provider === "onnx") {
    const { provider: _provider, ...options } = spec;
    return OnnxEmbedder.load(options);
  }
  const { provider: _provider, ...options } = spec;
  return new OpenAIEmbedder(options);
}

/**
 * Token vectors loaded on first use: late interaction needs the offline word vectors even beside a remote
 * embedder, but a command that never runs that channel (`stats`, `search --channels bm25`) should not pay for
 * loading them.
 */
export function lazyTokens(load: () => TokenVectors, id: string, dimensions: number): TokenVectors {
  let tokens: TokenVectors | undefined;
  return {
    id,
    dimensions,
    termVector: (term) => (tokens ??= load()).termVector(term),
  };
}
