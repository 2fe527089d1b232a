import assert from "node:assert/strict";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { createHash } from "node:crypto";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { CascadeError, OpenAIEmbedder, defaultGloveEmbedder } from "../src/index.js";
import { convertWordVectors, loadGloveTable, readCacheHeader, readWordVectorCache, upgradeLegacyCache } from "../src/embed/glove-cache.js";
import { SifEmbedder } from "../src/embed/sif.js";
import { dot } from "../src/vectors/math.js";
import { tempDir } from "./helpers.js";

describe("GloVe word-vector cache", () => {
  test("converts the wink JSON format into a binary cache and reads it back", () => {
    const dir = tempDir();
    const source = join(dir, "vectors.json");
    const vectors = { the: [1, 0, 0, 0, 1, 0], dog: [0, 2, 0, 0, 2, 1], puppy: [0, 1.9, 0.1, 0, 1.9, 2], ledger: [0, 0, 0, 3, 3, 3] };
    writeFileSync(source, JSON.stringify({ precision: 8, l2NormIndex: 4, wordIndex: 5, size: 4, dimensions: 4, words: Object.keys(vectors), vectors, unkVector: [0, 0, 0, 0] }));
    const lines: string[] = [];
    convertWordVectors(source, join(dir, "cache.bin"), (l) => lines.push(l));
    assert.match(lines[0], /converting word vectors/);
    const { table } = readWordVectorCache(join(dir, "cache.bin"));
    assert.deepEqual(table.words, ["the", "dog", "puppy", "ledger"]);
    const v = (w: string) => table.vectorAt(table.rankOf.get(w)!, new Float32Array(4));
    assert.ok(Math.abs(dot(v("dog"), v("dog")) - 1) < 0.02, "unit length after int8 quantisation");
    assert.ok(dot(v("dog"), v("puppy")) > 0.99);
    assert.ok(Math.abs(dot(v("dog"), v("ledger"))) < 0.01);
  });

  const fixture = (dir: string) => {
    const source = join(dir, "vectors.json");
    const vectors = { the: [1, 0, 0, 0], straße: [0, 2, 0, 1], "naïve": [0, 1.9, 0.1, 0], dog: [3, 0, 0, 3], the2: [0, 0, 1, 0] };
    writeFileSync(source, JSON.stringify({ dimensions: 4, words: Object.keys(vectors), vectors }));
    convertWordVectors(source, join(dir, "cache.bin"), () => {});
    return readWordVectorCache(join(dir, "cache.bin")).table;
  };

  test("looks words up by their UTF-8 bytes: non-ASCII words found, unknown words and lone surrogates not", () => {
    const table = fixture(tempDir());
    assert.deepEqual(["the", "straße", "naïve", "dog", "the2"].map((w) => table.rankOf.get(w)), [0, 1, 2, 3, 4]);
    for (const w of ["", "th", "thee", "strasse", "stra\uD800", "\uFFFD", "DOG"]) assert.equal(table.rankOf.get(w), undefined, w);
    assert.equal(table.count, 5);
  });

  test("a vector read on its own equals the same vector once the whole block is read", () => {
    const table = fixture(tempDir());
    const one = [0, 1, 2, 3, 4].map((r) => [...table.vectorAt(r, new Float32Array(4))]);
    // past the rows read one by one (4,096), the table reads its vector block whole
    for (let i = 0; i < 5000; i++) table.vectorAt(i % 5, new Float32Array(4));
    assert.deepEqual([0, 1, 2, 3, 4].map((r) => [...table.vectorAt(r, new Float32Array(4))]), one);
  });

  test("a version-1 cache is upgraded to the same words, ranks and vectors; a truncated cache is not taken", () => {
    const dir = tempDir();
    const table = fixture(dir);
    // the version-1 layout: u32 header length | header JSON | words joined by "\n" | f32 scales | i8 vectors
    const words = Buffer.from(table.words.join("\n"), "utf8");
    const scales = new Float32Array([0.011, 0.0123, 0.007, 0.009, 0.0101]);
    const codes = new Int8Array([127, 0, -3, 5, 0, 127, 0, 64, 2, 127, 9, 0, 90, 0, 0, 90, 0, 0, -127, 1]);
    const header = Buffer.from(JSON.stringify({ version: 1, dimensions: 4, count: 5, wordsBytes: words.byteLength, source: { size: 1, mtimeMs: 1 } }));
    const len = Buffer.alloc(4);
    len.writeUInt32LE(header.byteLength);
    writeFileSync(join(dir, "v1.bin"), Buffer.concat([len, header, words, Buffer.from(scales.buffer), Buffer.from(codes.buffer)]));
    upgradeLegacyCache(join(dir, "v1.bin"), join(dir, "v2.bin"));
    const upgraded = readWordVectorCache(join(dir, "v2.bin")).table;
    assert.deepEqual(upgraded.words, table.words);
    table.words.forEach((w, r) => {
      assert.equal(upgraded.rankOf.get(w), r);
      const expected = [...codes.subarray(r * 4, r * 4 + 4)].map((c) => c * scales[r]);
      assert.deepEqual([...upgraded.vectorAt(r, new Float32Array(4))], [...new Float32Array(expected)]);
    });
    assert.equal(readCacheHeader(join(dir, "v2.bin"))?.count, 5);
    writeFileSync(join(dir, "cut.bin"), readFileSync(join(dir, "v2.bin")).subarray(0, 100));
    assert.equal(readCacheHeader(join(dir, "cut.bin")), null);
    assert.equal(readCacheHeader(join(dir, "v1.bin")), null);
  });

  test("the default embedder's vectors are bit for bit those of the version-1 cache", async () => {
    const table = loadGloveTable();
    const texts = ["my dog loves the beach", "the puppy plays by the sea", "quarterly ledger reconciliation", "The deploy freeze ends on Friday", "Café naïve résumé über straße", "zzqxv qqqzx", "Alice moved to Berlin in 2019 and works at Siemens as an engineer; she likes hiking, jazz and cooking"];
    const h = createHash("sha256");
    for (const o of [{}, { dropStopWords: false }, { removeCommonComponent: true }]) {
      const e = new SifEmbedder(table, o);
      for (const v of await e.embed(texts)) h.update(Buffer.from(v.buffer));
      for (const w of ["dog", "the", "straße", "naïve", "zzqxv"]) {
        const v = e.termVector(w);
        h.update(v ? Buffer.from(v.buffer) : Buffer.from("null"));
      }
    }
    // the digest of the same embeddings computed from the version-1 cache (words split and put in a Map, the
    // whole file read): the layout changed, the vectors did not
    assert.equal(h.digest("hex"), "7e7e4d02e69aeebb873a555aabbba796b56578d6783278f122758ec63bd99dc7");
  });

  test("the default embedder puts related sentences closer than unrelated ones", async () => {
    const e = defaultGloveEmbedder();
    assert.equal(e.dimensions, 100);
    const [a, b, c] = await e.embed(["my dog loves the beach", "the puppy plays by the sea", "quarterly ledger reconciliation"]);
    assert.ok(dot(a, b) > dot(a, c) + 0.2, `${dot(a, b)} vs ${dot(a, c)}`);
    const [none] = await e.embed(["zzqxv qqqzx"]);
    assert.ok(none.every((x) => x === 0), "no known word: the zero vector");
  });
});

describe("OpenAI-compatible embedder against a local server", () => {
  type Handler = (req: IncomingMessage, body: any, res: ServerResponse) => void;
  let handler: Handler = () => {};
  let calls = 0;
  let baseURL = "";
  const server = createServer((req, res) => {
    let raw = "";
    req.on("data", (c) => (raw += c));
    req.on("end", () => {
      calls++;
      handler(req, raw ? JSON.parse(raw) : null, res);
    });
  });
  before(async () => {
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    baseURL = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
  });
  after(() => new Promise<void>((r) => server.close(() => r())));

  const reply = (res: ServerResponse, status: number, body: string) => {
    res.writeHead(status, { "content-type": "application/json" });
    res.end(body);
  };
  const vectorsFor = (input: string[], dims: number) => ({
    data: input.map((_, i) => ({ index: i, embedding: Array.from({ length: dims }, (_, j) => (j === i % dims ? 3 : 0)) })),
  });
  const embedder = (opts: Partial<ConstructorParameters<typeof OpenAIEmbedder>[0]> = {}) =>
    new OpenAIEmbedder({ baseURL, model: "test-model", dimensions: 4, apiKey: "sk-test", retries: 1, retryDelayMs: 5, timeoutMs: 10_000, ...opts });
  const failsWith = async (p: Promise<unknown>, message: RegExp) =>
    assert.rejects(p, (err: unknown) => err instanceof CascadeError && err.code === "PROVIDER_ERROR" && message.test(err.message));

  test("sends the model, the key and the texts in batches; normalises the vectors", async () => {
    const seen: any[] = [];
    handler = (req, body, res) => {
      seen.push({ auth: req.headers.authorization, path: req.url, body });
      reply(res, 200, JSON.stringify(vectorsFor(body.input, 4)));
    };
    const out = await embedder({ batchSize: 2 }).embed(["a", "b", "c"]);
    assert.equal(out.length, 3);
    assert.deepEqual([...out[0]], [1, 0, 0, 0]);
    assert.deepEqual([...out[2]], [1, 0, 0, 0]);
    assert.deepEqual(seen.map((s) => s.body.input), [["a", "b"], ["c"]]);
    assert.equal(seen[0].auth, "Bearer sk-test");
    assert.equal(seen[0].path, "/v1/embeddings");
    assert.equal(seen[0].body.model, "test-model");
  });

  test("returns vectors in the order of `index`, whatever order the server uses", async () => {
    handler = (_req, body, res) => {
      const data = vectorsFor(body.input, 4).data.reverse();
      reply(res, 200, JSON.stringify({ data }));
    };
    const out = await embedder().embed(["a", "b"]);
    assert.deepEqual([...out[0]], [1, 0, 0, 0]);
    assert.deepEqual([...out[1]], [0, 1, 0, 0]);
  });

  test("retries a 5xx, then succeeds", async () => {
    calls = 0;
    handler = (_req, body, res) => (calls === 1 ? reply(res, 503, "{}") : reply(res, 200, JSON.stringify(vectorsFor(body.input, 4))));
    assert.equal((await embedder().embed(["a"])).length, 1);
    assert.equal(calls, 2);
  });

  test("gives up after the retries on a persistent 5xx", async () => {
    calls = 0;
    handler = (_req, _body, res) => reply(res, 500, '{"error": {"message": "model is overloaded"}}');
    await failsWith(embedder().embed(["a"]), /HTTP 500: \{"error": \{"message": "model is overloaded"\}\}/);
    assert.equal(calls, 2);
  });

  test("a 4xx is not retried and its message is reported", async () => {
    calls = 0;
    handler = (_req, _body, res) => reply(res, 401, JSON.stringify({ error: { message: "invalid api key" } }));
    await failsWith(embedder().embed(["a"]), /HTTP 401.*invalid api key/);
    assert.equal(calls, 1);
  });

  test("a server that does not answer times out", async () => {
    handler = () => {}; // never replies
    await failsWith(embedder({ timeoutMs: 100, retries: 0 }).embed(["a"]), /no answer within 100 ms/);
  });

  test("wrong dimensions are refused", async () => {
    handler = (_req, body, res) => reply(res, 200, JSON.stringify(vectorsFor(body.input, 3)));
    await failsWith(embedder().embed(["a"]), /3 dimensions, expected 4/);
  });

  test("NaN (not JSON) and non-finite numbers are refused", async () => {
    handler = (_req, _body, res) => reply(res, 200, '{"data":[{"index":0,"embedding":[NaN,1,2,3]}]}');
    await failsWith(embedder().embed(["a"]), /not JSON/);
    handler = (_req, _body, res) => reply(res, 200, '{"data":[{"index":0,"embedding":[1e999,1,2,3]}]}');
    await failsWith(embedder().embed(["a"]), /non-finite|shape/);
  });

  test("a wrong count or shape is refused", async () => {
    handler = (_req, _body, res) => reply(res, 200, JSON.stringify({ data: [] }));
    await failsWith(embedder().embed(["a"]), /asked for 1 vectors, got 0/);
    handler = (_req, _body, res) => reply(res, 200, JSON.stringify({ embeddings: [[1, 2, 3, 4]] }));
    await failsWith(embedder().embed(["a"]), /shape/);
  });
});
