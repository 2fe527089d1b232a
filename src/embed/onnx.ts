/**
 * @module embed/onnx
 * A local sentence-embedding model: a folder in Hugging Face's layout (`tokenizer.json`, `tokenizer_config.json`,
 * `onnx/model.onnx` or `model.onnx`, and for sentence-transformers models `1_Pooling/config.json`), run in process
 * by ONNX Runtime. Nothing is downloaded: the folder is what the user gave. The two packages it needs
 * (onnxruntime-node, @huggingface/tokenizers) are optional dependencies, loaded only when this embedder is chosen,
 * so a store that never uses it never pays for them.
 *
 * What happens to a batch of texts: tokenize (the model's own tokenizer, special tokens included), cut to
 * `maxTokens` keeping the special tokens at both ends, pad to the longest, run the model feeding only the inputs
 * it declares (BERT exports take token_type_ids, others do not), then either take its pooled `sentence_embedding`
 * output or pool `last_hidden_state` over the real (unpadded) tokens by the folder's pooling mode, and scale to
 * unit length, which is what the store's cosine search expects.
 */
import { createHash } from "node:crypto";
import { existsSync, readFileSync, statSync } from "node:fs";
import { join, resolve } from "node:path";
import { CascadeError, invalidInput } from "../errors.js";
import type { Embedder } from "../ports/embedder.js";
import { normalizeInPlace } from "../vectors/math.js";

export type OnnxPooling = "mean" | "cls" | "max";

export interface OnnxEmbedderOptions {
  /** The model folder. */
  path: string;
  /** The model file inside the folder; by default `onnx/model.onnx`, else `model.onnx`. */
  file?: string;
  /** By default the folder's `1_Pooling/config.json`, else mean pooling. */
  pooling?: OnnxPooling;
  /** Longest input in tokens; by default the tokenizer's `model_max_length`, at most 512. */
  maxTokens?: number;
  /** Texts per model run. */
  batchSize?: number;
  /** Threads ONNX Runtime may use inside one run. */
  threads?: number;
}

export const defaultOnnxOptions = Object.freeze({
  /** Sentence-embedding models are trained on inputs of at most 256–512 tokens; chunks are ~150 words anyway. */
  maxTokens: 512,
  /** Padding grows with the longest text of a batch; 32 keeps that waste small and a run's memory modest. */
  batchSize: 32,
  /** One run per call on a small machine; a server with cores to spare can raise it. */
  threads: 1,
});

/** What the model runs on: the small part of onnxruntime-node's and the tokenizer's APIs used here. */
interface OrtTensor {
  readonly data: unknown;
  readonly dims: readonly number[];
}
interface OrtSession {
  readonly inputNames: readonly string[];
  readonly outputNames: readonly string[];
  run(feeds: Record<string, OrtTensor>): Promise<Record<string, OrtTensor>>;
}
interface Tokenizer {
  encode(text: string, options?: { add_special_tokens?: boolean }): { ids: number[] };
}

/** Reads a JSON file of the model folder; a missing optional file is null. */
function readJson(path: string, required: boolean): Record<string, unknown> | null {
  if (!existsSync(path)) {
    if (required) throw invalidInput("embedder.path", `the model folder has no ${path}`);
    return null;
  }
  try {
    return JSON.parse(readFileSync(path, "utf8")) as Record<string, unknown>;
  } catch (err) {
    throw invalidInput("embedder.path", `${path} is not valid JSON (${(err as Error).message})`);
  }
}

/** The pooling a sentence-transformers folder asks for in 1_Pooling/config.json. */
function poolingOf(folder: string): OnnxPooling | null {
  const config = readJson(join(folder, "1_Pooling", "config.json"), false);
  if (!config) return null;
  if (config.pooling_mode_cls_token === true) return "cls";
  if (config.pooling_mode_max_tokens === true) return "max";
  if (config.pooling_mode_mean_tokens === true) return "mean";
  throw invalidInput("embedder.pooling", `${join(folder, "1_Pooling", "config.json")} asks for a pooling this embedder does not do (mean, cls and max are supported)`);
}

async function importOptional<T>(name: string): Promise<T> {
  try {
    return (await import(name)) as T;
  } catch {
    throw new CascadeError(
      "INVALID_INPUT",
      `embedder: the onnx provider needs the optional packages onnxruntime-node and @huggingface/tokenizers (npm install onnxruntime-node @huggingface/tokenizers); ${name} could not be loaded`,
      { field: "embedder.provider" },
    );
  }
}

/** Cuts an encoding to `max` tokens, keeping the special tokens the tokenizer put before and after the text. */
function truncate(tokenizer: Tokenizer, text: string, ids: number[], max: number): number[] {
  if (ids.length <= max) return ids;
  const content = tokenizer.encode(text, { add_special_tokens: false }).ids;
  const before = Math.max(0, ids.indexOf(content[0]));
  const after = Math.max(0, ids.length - before - content.length);
  const keep = Math.max(1, max - before - after);
  return [...ids.slice(0, before), ...content.slice(0, keep), ...ids.slice(ids.length - after)];
}

/** Pools one text's token vectors (rows of `hidden` from `offset`, `length` real tokens) into one vector. */
function pool(hidden: Float32Array, offset: number, length: number, dims: number, mode: OnnxPooling): Float32Array {
  const out = new Float32Array(dims);
  if (mode === "cls") {
    out.set(hidden.subarray(offset, offset + dims));
    return out;
  }
  if (mode === "max") out.fill(-Infinity);
  for (let t = 0; t < length; t++) {
    const row = offset + t * dims;
    for (let d = 0; d < dims; d++) {
      const v = hidden[row + d];
      if (mode === "max") out[d] = Math.max(out[d], v);
      else out[d] += v;
    }
  }
  if (mode === "mean") for (let d = 0; d < dims; d++) out[d] /= Math.max(1, length);
  return out;
}

export class OnnxEmbedder implements Embedder {
  private constructor(
    readonly id: string,
    readonly dimensions: number,
    private readonly ort: { Tensor: new (type: "int64", data: BigInt64Array, dims: number[]) => OrtTensor },
    private readonly session: OrtSession,
    private readonly tokenizer: Tokenizer,
    private readonly options: Required<Omit<OnnxEmbedderOptions, "file">>,
  ) {}

  /** Loads the tokenizer and the model from the folder, and finds the vector size by embedding one word. */
  static async load(options: OnnxEmbedderOptions): Promise<OnnxEmbedder> {
    const folder = resolve(options.path);
    if (!existsSync(folder) || !statSync(folder).isDirectory()) throw invalidInput("embedder.path", `${folder} is not a folder`);
    const candidates = options.file ? [options.file] : [join("onnx", "model.onnx"), "model.onnx"];
    const file = candidates.map((f) => join(folder, f)).find((f) => existsSync(f));
    if (!file) throw invalidInput(options.file ? "embedder.file" : "embedder.path", `no model file in ${folder} (looked for ${candidates.join(", ")})`);
    const tokenizerJson = readJson(join(folder, "tokenizer.json"), true)!;
    const tokenizerConfig = readJson(join(folder, "tokenizer_config.json"), false) ?? {};
    const pooling = options.pooling ?? poolingOf(folder) ?? "mean";
    const modelMax = typeof tokenizerConfig.model_max_length === "number" ? tokenizerConfig.model_max_length : defaultOnnxOptions.maxTokens;
    const maxTokens = options.maxTokens ?? Math.min(modelMax, defaultOnnxOptions.maxTokens);

    const ort = await importOptional<typeof import("onnxruntime-node")>("onnxruntime-node");
    const { Tokenizer } = await importOptional<typeof import("@huggingface/tokenizers")>("@huggingface/tokenizers");
    let tokenizer: Tokenizer;
    try {
      tokenizer = new Tokenizer(tokenizerJson, tokenizerConfig) as unknown as Tokenizer;
    } catch (err) {
      throw invalidInput("embedder.path", `${join(folder, "tokenizer.json")} could not be read as a tokenizer (${(err as Error).message})`);
    }
    const bytes = readFileSync(file);
    let session: OrtSession;
    try {
      const threads = options.threads ?? defaultOnnxOptions.threads;
      session = await ort.InferenceSession.create(bytes, { intraOpNumThreads: threads, interOpNumThreads: 1 });
    } catch (err) {
      throw invalidInput("embedder.path", `${file} could not be loaded by ONNX Runtime (${(err as Error).message})`);
    }
    if (!session.inputNames.includes("input_ids")) throw invalidInput("embedder.path", `${file} takes no input_ids input (it takes ${session.inputNames.join(", ")})`);
    // the vector space is the model's weights and how they are pooled: moving the folder does not change it
    const id = `onnx:${createHash("sha256").update(bytes).digest("hex").slice(0, 16)}:${pooling}`;
    const resolved = { path: folder, pooling, maxTokens, batchSize: options.batchSize ?? defaultOnnxOptions.batchSize, threads: options.threads ?? defaultOnnxOptions.threads };
    const probe = new OnnxEmbedder(id, 0, ort as never, session, tokenizer, resolved);
    const [vector] = await probe.run(["dimension"]);
    return new OnnxEmbedder(id, vector.length, ort as never, session, tokenizer, resolved);
  }

  async embed(texts: string[]): Promise<Float32Array[]> {
    const out: Float32Array[] = [];
    for (let i = 0; i < texts.length; i += this.options.batchSize) out.push(...(await this.run(texts.slice(i, i + this.options.batchSize))));
    for (const v of out) {
      if (v.length !== this.dimensions) throw new CascadeError("PROVIDER_ERROR", `onnx embedder: the model returned ${v.length} dimensions, not ${this.dimensions}`);
    }
    return out;
  }

  private async run(texts: string[]): Promise<Float32Array[]> {
    if (texts.length === 0) return [];
    const encoded = texts.map((t) => truncate(this.tokenizer, t, this.tokenizer.encode(t).ids, this.options.maxTokens));
    const width = Math.max(1, ...encoded.map((ids) => ids.length));
    const ids = new BigInt64Array(texts.length * width);
    const mask = new BigInt64Array(texts.length * width);
    encoded.forEach((row, r) => row.forEach((id, c) => {
      ids[r * width + c] = BigInt(id);
      mask[r * width + c] = 1n;
    }));
    const shape = [texts.length, width];
    const feeds: Record<string, OrtTensor> = { input_ids: new this.ort.Tensor("int64", ids, shape) };
    const names = this.session.inputNames;
    if (names.includes("attention_mask")) feeds.attention_mask = new this.ort.Tensor("int64", mask, shape);
    if (names.includes("token_type_ids")) feeds.token_type_ids = new this.ort.Tensor("int64", new BigInt64Array(ids.length), shape);
    let outputs: Record<string, OrtTensor>;
    try {
      outputs = await this.session.run(feeds);
    } catch (err) {
      throw new CascadeError("PROVIDER_ERROR", `onnx embedder: the model failed (${(err as Error).message})`);
    }
    const pooled = outputs.sentence_embedding;
    if (pooled && pooled.dims.length === 2) {
      const [n, dims] = pooled.dims;
      const data = pooled.data as Float32Array;
      return Array.from({ length: n }, (_, r) => normalizeInPlace(Float32Array.from(data.subarray(r * dims, (r + 1) * dims))));
    }
    const hidden = outputs.last_hidden_state ?? Object.values(outputs).find((t) => t.dims.length === 3);
    if (!hidden || hidden.dims.length !== 3 || !(hidden.data instanceof Float32Array)) {
      throw new CascadeError("PROVIDER_ERROR", `onnx embedder: the model has no sentence_embedding or token-vector output (outputs: ${this.session.outputNames.join(", ")})`);
    }
    const dims = hidden.dims[2];
    return encoded.map((row, r) => normalizeInPlace(pool(hidden.data as Float32Array, r * width * dims, row.length, dims, this.options.pooling)));
  }
}
