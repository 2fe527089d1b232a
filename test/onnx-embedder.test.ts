/**
 * The local ONNX embedder on a model this test writes (test/fixtures/tiny-onnx-model.ts): the real tokenizer,
 * the real ONNX Runtime, and pooling and normalisation checked against vectors computed here from the model's
 * own table. Then end to end: the SDK and the CLI (through $CASCADE_EMBED_ONNX) store and search with it, and
 * the store reopens with it without being told.
 */
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { mkdirSync, renameSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { promisify } from "node:util";
import { test } from "node:test";
import { CascadeError, openMemory } from "../src/index.js";
import { OnnxEmbedder } from "../src/embed/onnx.js";
import { tempDir } from "./helpers.js";
import { VOCAB, tokenVector, writeTinyModel } from "./fixtures/tiny-onnx-model.js";

const CLI = new URL("../src/surfaces/cli/main.js", import.meta.url).pathname;
const run = promisify(execFile);

/** The unit vector of the mean (or max) of these tokens' table rows: what the embedder should return. */
function expected(tokens: string[], mode: "mean" | "max" = "mean"): number[] {
  const rows = tokens.map((t) => tokenVector(VOCAB.indexOf(t)));
  const v = rows[0].map((_, d) => (mode === "max" ? Math.max(...rows.map((r) => r[d])) : rows.reduce((s, r) => s + r[d], 0) / rows.length));
  const norm = Math.hypot(...v);
  return v.map((x) => x / norm);
}

function assertNear(actual: Float32Array, wanted: number[], what: string): void {
  assert.equal(actual.length, wanted.length, what);
  actual.forEach((x, i) => assert.ok(Math.abs(x - wanted[i]) < 1e-5, `${what}: dimension ${i} is ${x}, expected ${wanted[i]}`));
}

function model(options: Parameters<typeof writeTinyModel>[1] = {}): string {
  const dir = join(tempDir(), "model");
  mkdirSync(dir);
  writeTinyModel(dir, options);
  return dir;
}

test("mean pooling over the real tokens, [CLS] and [SEP] included; padding in a batch changes nothing", async () => {
  const e = await OnnxEmbedder.load({ path: model({ pooling: "mean" }) });
  assert.equal(e.dimensions, 8);
  assert.match(e.id, /^onnx:[0-9a-f]{16}:mean$/);
  const [long, short] = await e.embed(["The DOCTOR gave me pills for my headache", "pills"]);
  assertNear(long, expected(["[CLS]", "the", "doctor", "gave", "me", "pills", "for", "my", "headache", "[SEP]"]), "long text");
  assertNear(short, expected(["[CLS]", "pills", "[SEP]"]), "short text padded in the batch");
  const [alone] = await e.embed(["pills"]);
  assertNear(alone, Array.from(short), "the same text alone");
  // an unknown word is the tokenizer's [UNK], as in the model it came with
  const [unknown] = await e.embed(["zzzq"]);
  assertNear(unknown, expected(["[CLS]", "[UNK]", "[SEP]"]), "unknown word");
});

test("the folder's pooling is used (cls, max); a model's own sentence_embedding output wins over it", async () => {
  const cls = await OnnxEmbedder.load({ path: model({ pooling: "cls" }) });
  assertNear((await cls.embed(["sourdough flour"]))[0], expected(["[CLS]"]), "cls");
  const max = await OnnxEmbedder.load({ path: model({ pooling: "max" }) });
  assertNear((await max.embed(["sourdough flour"]))[0], expected(["[CLS]", "sourdough", "flour", "[SEP]"], "max"), "max");
  assert.notEqual(cls.id, max.id, "the pooling is part of the vector space's name");
  const pooled = await OnnxEmbedder.load({ path: model({ pooling: "cls", sentenceEmbedding: true }) });
  assertNear((await pooled.embed(["sourdough flour"]))[0], expected(["[CLS]", "sourdough", "flour", "[SEP]"]), "sentence_embedding output");
});

test("long inputs are cut to maxTokens, keeping [CLS] and [SEP]; batches larger than batchSize come back in order", async () => {
  const e = await OnnxEmbedder.load({ path: model(), maxTokens: 4, batchSize: 2 });
  assertNear((await e.embed(["the doctor gave me pills"]))[0], expected(["[CLS]", "the", "doctor", "[SEP]"]), "truncated");
  const texts = ["kafka", "flour", "doctor", "queue", "rye"];
  const vectors = await e.embed(texts);
  texts.forEach((t, i) => assertNear(vectors[i], expected(["[CLS]", t, "[SEP]"]), t));
});

test("the model file may sit at the folder's top level; a bad folder is one clear INVALID_INPUT naming the field", async () => {
  const top = model({ file: "model.onnx" });
  assert.equal((await OnnxEmbedder.load({ path: top })).dimensions, 8);
  const refused = async (p: Promise<unknown>, field: string, message: RegExp) => {
    await assert.rejects(p, (err: unknown) => err instanceof CascadeError && err.code === "INVALID_INPUT" && err.field === field && message.test(err.message));
  };
  await refused(OnnxEmbedder.load({ path: join(tempDir(), "nowhere") }), "embedder.path", /is not a folder/);
  const noTokenizer = model();
  renameSync(join(noTokenizer, "tokenizer.json"), join(noTokenizer, "tokenizer.json.bak"));
  await refused(OnnxEmbedder.load({ path: noTokenizer }), "embedder.path", /tokenizer\.json/);
  const broken = model();
  writeFileSync(join(broken, "onnx", "model.onnx"), "not a model");
  await refused(OnnxEmbedder.load({ path: broken }), "embedder.path", /could not be loaded by ONNX Runtime/);
  await refused(OnnxEmbedder.load({ path: model(), file: "other.onnx" }), "embedder.file", /no model file/);
  // through the SDK, the spec is checked like any configuration
  await assert.rejects(openMemory({ path: ":memory:", embedder: { provider: "onnx", path: top, pooling: "median" } as never }), (err: unknown) => err instanceof CascadeError && err.code === "INVALID_INPUT");
});

const NOTES = [
  { text: "The physician prescribed medication for the migraine", at: "2025-02-02T09:00:00Z" },
  { text: "Sourdough starter needs feeding with rye flour", at: "2026-06-30T09:00:00Z" },
  { text: "Kafka consumer lag on the broker queue", at: "2026-03-01T09:00:00Z" },
];

test("the SDK stores and searches with the model; the store reopens with it without being told", async () => {
  const dir = model({ pooling: "mean" });
  const path = join(tempDir(), "m.db");
  const memory = await openMemory({ path, embedder: { provider: "onnx", path: dir } });
  for (const n of NOTES) await memory.remember(n);
  const found = await memory.recall("doctor gave me pills for my headache", { channels: ["dense"], now: "2026-07-01T00:00:00Z" });
  assert.match(found.hits[0].text, /physician/, "the paraphrase shares no word with the note: only the model's vectors find it");
  await memory.close();
  const again = await openMemory({ path });
  assert.match((await again.stats()).embedder, /^onnx:[0-9a-f]{16}:mean$/);
  const bread = await again.recall("bread", { channels: ["dense"], now: "2026-07-01T00:00:00Z" });
  assert.match(bread.hits[0].text, /Sourdough/);
  await again.close();
});

test("the CLI takes the model from $CASCADE_EMBED_ONNX", async () => {
  const dir = model();
  const db = join(tempDir(), "c.db");
  const env = { ...process.env, CASCADE_EMBED_ONNX: dir, CASCADE_EMBED_URL: "", CASCADE_EMBED_MODEL: "", CASCADE_EMBED_DIMENSIONS: "" };
  for (const n of NOTES) await run(process.execPath, [CLI, "--db", db, "add", n.text, "--at", n.at, "--json"], { env });
  const { stdout } = await run(process.execPath, [CLI, "--db", db, "search", "broker queue", "--channels", "dense", "--json"], { env });
  const result = JSON.parse(stdout) as { hits: { text: string }[] };
  assert.match(result.hits[0].text, /Kafka/);
});
