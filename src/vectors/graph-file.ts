/**
 * @module vectors/graph-file
 * Reading a saved graph file (vectors/hnsw.ts) without trusting it. usearch loads a file unchecked: a count, a level
 * or a neighbour slot out of range makes its native loader or a later search read or write outside its buffers and
 * abort Node (`free(): corrupted unsorted chunks`, SIGSEGV). A checksum only proves the bytes are the ones its record
 * names, and the record sits in the same file: whoever alters the bytes can write a matching one. So before usearch
 * sees a file, this reads the whole of it in one pass (hashing as it goes) and checks every field usearch will
 * trust against the file's length and against each other, as usearch 2.x lays them out (index_dense.hpp
 * `save_to_stream`, index.hpp `save_to_stream`):
 *
 *   u32 rows | u32 bytes per vector | rows × bytes per vector (the 8-bit vectors)
 *   64-byte head: "usearch" | u16 major, minor, patch | u8 metric, scalar, key, slot kinds
 *                 | u64 present | u64 deleted | u64 dimensions | u8 multi | zeros
 *   graph header: u64 nodes | u64 connectivity | u64 base connectivity | u64 max level | u64 entry slot
 *   i16 level per node
 *   per node: u64 key | i16 level | per level 0..level: u32 count | (base or connectivity) × u32 neighbour slot
 *
 * then Cascade's record: `record (JSON) | record length (u32 LE) | "CSCDHNSW"`.
 *
 * Nothing here opens a path that is not a regular file: a directory or a FIFO at the graph's path is reported
 * (a FIFO opened for reading would wait for a writer forever).
 */
import { createHash } from "node:crypto";
import { closeSync, constants, existsSync, fstatSync, lstatSync, openSync, readSync, renameSync, rmSync, writeSync, type Stats } from "node:fs";

export const MAGIC = Buffer.from("CSCDHNSW");
export const TAIL = 4 + MAGIC.length;

/** The record a graph file ends with. */
export interface SavedRecord {
  format: 3;
  dimensions: number;
  metric: "cos-centred";
  quantization: "i8";
  connectivity: number;
  expansionAdd: number;
  center: number[];
  /** The graph's bytes (the file's length up to the record), their sha256 (hex), and the vectors they hold. */
  bytes: number;
  sha256: string;
  count: number;
  /** The largest key it ever held: where to look for keys the table has lost since (absent in older files). */
  maxKey?: number;
}

/** Why a file at the graph's path cannot be used; `kind` names the file it is set aside as. */
export interface Rejection {
  kind: "not-a-file" | "truncated" | "record" | "checksum" | "structure";
  why: string;
}

/** What usearch writes for the one kind of index Cascade builds (cosine, 8-bit, 64-bit keys, 32-bit slots). */
const USEARCH = {
  magic: Buffer.from("usearch"),
  major: 2,
  metricCos: "c".charCodeAt(0),
  scalarI8: 23,
  keyU64: 14,
  slotU32: 15,
  head: 64,
  graphHeader: 40,
  /** usearch marks a removed vector's slot with the largest key. */
  freeKey: 0xffff_ffff_ffff_ffffn,
  /** Levels a graph of 2^32 nodes could reach at connectivity 2 are ~32; anything above is not a real graph. */
  maxLevel: 64,
} as const;

/**
 * The most vector slots a graph saved for a table of `chunks` chunks may have: its chunks, the slots removals freed,
 * and the few a catch-up adds (one far from the table is rebuilt anyway: a catch-up stops at a quarter changed).
 * Generous, so a real file is never refused; bounded, so that a forged file's counts (a sparse file of many
 * gigabytes with a record naming it whole) cannot make the check read for minutes before finding it wrong.
 */
export const slotsAtMost = (chunks: number): number => 4 * chunks + 100_000;

/** What a path holds, read with lstat (never opened): a regular file, nothing, or why it is not usable. */
export function graphPathKind(path: string): "file" | "absent" | Rejection {
  let stats: Stats;
  try {
    stats = lstatSync(path);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ENOENT") return "absent";
    return { kind: "not-a-file", why: `cannot be looked at (${(err as Error).message})` };
  }
  if (stats.isFile()) return "file";
  return { kind: "not-a-file", why: `${describeNonFile(stats)} where a graph file belongs` };
}

function describeNonFile(stats: Stats): string {
  if (stats.isDirectory()) return "a directory";
  if (stats.isFIFO()) return "a named pipe (FIFO)";
  if (stats.isSymbolicLink()) return "a symbolic link";
  if (stats.isSocket()) return "a socket";
  if (stats.isCharacterDevice() || stats.isBlockDevice()) return "a device";
  return "not a regular file";
}

/**
 * A sequential reader over the first `limit` bytes of a file, hashing every byte it reads: fields are taken in order,
 * each checked to lie inside `limit` before it is read.
 */
class Reader {
  private buffer = Buffer.allocUnsafe(1 << 20);
  private start = 0; // file offset of buffer[0]
  private filled = 0;
  private at = 0; // file offset of the next field
  readonly hash = createHash("sha256");

  constructor(private readonly fd: number, readonly limit: number) {}

  get offset(): number {
    return this.at;
  }

  get left(): number {
    return this.limit - this.at;
  }

  /** Makes `n` bytes from the current offset available in the buffer; false when they pass the limit. */
  private need(n: number): boolean {
    if (n > this.left) return false;
    if (this.at + n <= this.start + this.filled) return true;
    const keep = this.buffer.subarray(this.at - this.start, this.filled);
    if (n > this.buffer.length) {
      const bigger = Buffer.allocUnsafe(n);
      keep.copy(bigger);
      this.buffer = bigger;
    } else keep.copy(this.buffer);
    this.filled = keep.length;
    this.start = this.at;
    while (this.filled < n) {
      const want = Math.min(this.buffer.length - this.filled, this.limit - (this.start + this.filled));
      const got = readSync(this.fd, this.buffer, this.filled, want, this.start + this.filled);
      if (got === 0) return false;
      this.hash.update(this.buffer.subarray(this.filled, this.filled + got));
      this.filled += got;
    }
    return true;
  }

  /** The next `n` bytes (a view valid until the next call), or null when they pass the limit. */
  take(n: number): Buffer | null {
    if (!this.need(n)) return null;
    const view = this.buffer.subarray(this.at - this.start, this.at - this.start + n);
    this.at += n;
    return view;
  }

  /** Skips `n` bytes (still hashed); false when they pass the limit. */
  skip(n: number): boolean {
    if (n > this.left) return false;
    while (n > 0) {
      const step = Math.min(n, this.buffer.length);
      if (!this.take(step)) return false;
      n -= step;
    }
    return true;
  }

  /** Hashes whatever is left up to the limit. */
  finish(): string {
    this.skip(this.left);
    return this.hash.digest("hex");
  }
}

/** A u64 as a number when it is a safe integer, else Infinity (every count checked against a bound is then refused). */
function u64(view: Buffer, at: number): number {
  const v = view.readBigUInt64LE(at);
  return v <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(v) : Infinity;
}

/** Checks usearch's part of the file (see the module note); a string says what is wrong. */
function checkStructure(r: Reader, record: SavedRecord, limits: GraphLimits): string | null {
  const { connectivity } = limits;
  const dims = r.take(8);
  if (!dims) return "too short for its vector table";
  const rows = dims.readUInt32LE(0);
  const width = dims.readUInt32LE(4);
  if (rows > slotsAtMost(limits.chunks)) return `${rows} vector slots where the table holds ${limits.chunks} chunks`;
  if (width !== record.dimensions) return `${width} bytes per vector where ${record.dimensions} dimensions at 8 bits take ${record.dimensions}`;
  if (rows * width > r.left) return `${rows} vectors of ${width} bytes do not fit in the file`;
  r.skip(rows * width);

  const head = r.take(USEARCH.head);
  if (!head) return "too short for usearch's header";
  if (!head.subarray(0, 7).equals(USEARCH.magic)) return "usearch's header is missing";
  if (head.readUInt16LE(7) !== USEARCH.major) return `made by usearch ${head.readUInt16LE(7)}.x`;
  const kinds = [head[13], head[14], head[15], head[16]];
  if (kinds.join() !== [USEARCH.metricCos, USEARCH.scalarI8, USEARCH.keyU64, USEARCH.slotU32].join()) return `its metric, scalar, key or slot kinds (${kinds.join(", ")}) are not the ones Cascade builds`;
  const present = u64(head, 17);
  const deleted = u64(head, 25);
  if (u64(head, 33) !== record.dimensions) return `its header says ${u64(head, 33)} dimensions where ${record.dimensions} were saved`;
  if (head[41] !== 0) return "its header says several vectors per key";
  if (present + deleted !== rows) return `its header counts ${present} + ${deleted} vectors for ${rows} stored`;
  if (present !== record.count) return `its header counts ${present} vectors where ${record.count} were saved`;

  const graph = r.take(USEARCH.graphHeader);
  if (!graph) return "too short for the graph's header";
  const nodes = u64(graph, 0);
  const m = u64(graph, 8);
  const base = u64(graph, 16);
  const maxLevel = u64(graph, 24);
  const entry = u64(graph, 32);
  if (nodes !== rows) return `${nodes} graph nodes for ${rows} vectors`;
  if (m !== connectivity || base !== 2 * connectivity) return `connectivity ${m}/${base} where ${connectivity}/${2 * connectivity} was built`;
  if (nodes > 0 && (maxLevel > USEARCH.maxLevel || entry >= nodes)) return `its entry point (slot ${entry}, level ${maxLevel}) is out of range`;
  if (nodes * 2 > r.left) return `${nodes} node levels do not fit in the file`;

  const levels = new Int16Array(nodes);
  const levelBytes = r.take(nodes * 2)!;
  let highest = -1;
  let expected = 0;
  for (let i = 0; i < nodes; i++) {
    const level = levelBytes.readInt16LE(i * 2);
    if (level < 0 || level > maxLevel) return `node ${i} has level ${level}, outside 0..${maxLevel}`;
    levels[i] = level;
    if (level > highest) highest = level;
    expected += 10 + 4 + base * 4 + level * (4 + m * 4);
  }
  if (nodes > 0 && (highest !== maxLevel || levels[entry] !== maxLevel)) return `its top level ${maxLevel} is not the entry node's or any node's`;
  if (expected !== r.left) return `its nodes take ${expected} bytes where ${r.left} are left in the file`;

  const keys = new Float64Array(present);
  let held = 0;
  for (let i = 0; i < nodes; i++) {
    const node = r.take(10 + 4 + base * 4 + levels[i] * (4 + m * 4))!;
    const key = node.readBigUInt64LE(0);
    if (node.readInt16LE(8) !== levels[i]) return `node ${i} says level ${node.readInt16LE(8)} where the level table says ${levels[i]}`;
    if (key !== USEARCH.freeKey) {
      if (key > BigInt(Number.MAX_SAFE_INTEGER) || (record.maxKey !== undefined && Number(key) > record.maxKey)) return `node ${i} has key ${key}, above the largest saved`;
      if (held === present) return `more keyed nodes than the ${present} its header counts`;
      keys[held++] = Number(key);
    }
    let at = 10;
    for (let level = 0; level <= levels[i]; level++) {
      const room = level === 0 ? base : m;
      const count = node.readUInt32LE(at);
      if (count > room) return `node ${i} lists ${count} neighbours at level ${level} where ${room} fit`;
      for (let j = 0; j < count; j++) if (node.readUInt32LE(at + 4 + j * 4) >= nodes) return `node ${i} names a neighbour outside the graph`;
      at += 4 + room * 4;
    }
  }
  if (held !== present) return `${held} keyed nodes where its header counts ${present}`;
  keys.sort();
  for (let i = 1; i < keys.length; i++) if (keys[i] === keys[i - 1]) return `key ${keys[i]} is held twice`;
  return null;
}

/**
 * Zeroes, in a graph file usearch just wrote (no record yet), the vectors of the slots its removals freed. usearch
 * marks a removed vector's slot free but keeps its bytes and saves them: without this, a forgotten memory's vector
 * stayed in the saved graph after `forget --purge`. The file is one usearch wrote, so its layout is trusted here.
 * Returns how many rows were zeroed.
 */
export function scrubFreedVectors(fd: number, bytes: number): number {
  const r = new Reader(fd, bytes);
  const dims = r.take(8)!;
  const rows = dims.readUInt32LE(0);
  const width = dims.readUInt32LE(4);
  r.skip(rows * width);
  r.skip(USEARCH.head);
  const graph = r.take(USEARCH.graphHeader)!;
  const nodes = u64(graph, 0);
  const m = u64(graph, 8);
  const base = u64(graph, 16);
  const levels = new Int16Array(nodes);
  const levelBytes = r.take(nodes * 2);
  for (let i = 0; i < nodes && levelBytes; i++) levels[i] = levelBytes.readInt16LE(i * 2);
  const zeros = Buffer.alloc(width);
  let scrubbed = 0;
  for (let i = 0; i < nodes; i++) {
    const node = r.take(10 + 4 + base * 4 + levels[i] * (4 + m * 4));
    if (!node) break;
    if (node.readBigUInt64LE(0) !== USEARCH.freeKey || i >= rows) continue;
    writeSync(fd, zeros, 0, width, 8 + i * width);
    scrubbed++;
  }
  return scrubbed;
}

/** Whether the record's fields are of the types Cascade writes (it is JSON anyone could have edited). */
function wellFormed(record: SavedRecord): boolean {
  const whole = (v: unknown) => typeof v === "number" && Number.isSafeInteger(v) && v >= 0;
  return (
    typeof record === "object" &&
    record !== null &&
    whole(record.bytes) &&
    whole(record.count) &&
    whole(record.dimensions) &&
    whole(record.connectivity) &&
    typeof record.sha256 === "string" &&
    Array.isArray(record.center) &&
    record.center.every((c) => typeof c === "number" && Number.isFinite(c)) &&
    (record.maxKey === undefined || whole(record.maxKey))
  );
}

/** What a graph file is checked against: the connectivity the caller builds with, and the table's chunk count. */
export interface GraphLimits {
  connectivity: number;
  chunks: number;
}

/**
 * A name for the file open as `fd` that keeps naming it whatever is renamed over `path` since it was opened (Linux's
 * /proc/self/fd); elsewhere `path` itself.
 */
function nameOfOpen(fd: number, path: string): string {
  const self = `/proc/self/fd/${fd}`;
  return existsSync(self) ? self : path;
}

/**
 * What `load` makes of the graph file at `path` once the whole file verifies (structure and checksum), or why it does
 * not. `load` is given a name for the very file that was checked, still open: usearch opens files by name, and the
 * path itself could name another file by then (one renamed over it between the check and the load). `limits.connectivity`
 * is what the caller builds with: a file built otherwise is refused before its structure is read (the caller compares
 * the record's settings first and rebuilds).
 */
export function readGraphFile<T>(path: string, settingsMatch: (record: SavedRecord) => boolean, limits: GraphLimits, load: (checked: string, record: SavedRecord) => T): T | Rejection | "other settings" | "absent" {
  const kind = graphPathKind(path);
  if (kind !== "file") return kind;
  // O_NONBLOCK: were the path swapped for a FIFO since the lstat above, opening it still would not wait
  const fd = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK | (constants.O_NOFOLLOW ?? 0));
  try {
    const stats = fstatSync(fd);
    if (!stats.isFile()) return { kind: "not-a-file", why: `${describeNonFile(stats)} where a graph file belongs` };
    const size = stats.size;
    if (size < TAIL) return { kind: "truncated", why: `${size} bytes, too short for a graph` };
    const tail = Buffer.alloc(TAIL);
    readSync(fd, tail, 0, TAIL, size - TAIL);
    const length = tail.readUInt32LE(0);
    if (!tail.subarray(4).equals(MAGIC) || length > size - TAIL) return { kind: "truncated", why: "not a complete graph file (truncated, or an earlier layout)" };
    const json = Buffer.alloc(length);
    readSync(fd, json, 0, length, size - TAIL - length);
    let record: SavedRecord;
    try {
      record = JSON.parse(json.toString("utf8")) as SavedRecord;
    } catch {
      return { kind: "record", why: "its record is unreadable" };
    }
    if (!wellFormed(record)) return { kind: "record", why: "its record is not one Cascade writes" };
    if (record.bytes !== size - TAIL - length) return { kind: "truncated", why: `${size - TAIL - length} graph bytes where ${record.bytes} were saved` };
    if (!settingsMatch(record)) return "other settings";
    const reader = new Reader(fd, record.bytes);
    const wrong = checkStructure(reader, record, limits);
    // said before the rest is hashed: a forged file can be far longer than any graph of this store (a sparse file
    // of 20 GB kept doctor and search reading for 69 s), and what is wrong is known already
    if (wrong) return { kind: "structure", why: `its structure is not a graph usearch can load safely: ${wrong}` };
    if (reader.finish() !== record.sha256) return { kind: "checksum", why: "its checksum does not match its bytes" };
    return load(nameOfOpen(fd, path), record);
  } finally {
    closeSync(fd);
  }
}

/**
 * Moves what is at `path` aside as `<path>.invalid-<kind>` (the reason in its name; an earlier file set aside for the
 * same reason is replaced, so a file damaged again and again does not pile up), without opening it. Returns the new
 * name, or null when it could not be moved (then the caller works without a saved graph).
 */
export function setAside(path: string, kind: Rejection["kind"]): string | null {
  let target = `${path}.invalid-${kind}`;
  try {
    if (lstatSync(target, { throwIfNoEntry: false })?.isDirectory()) target = `${target}-${Date.now()}`;
    else rmSync(target, { force: true });
    renameSync(path, target);
    return target;
  } catch {
    return null;
  }
}

/** The suffixes of files set aside beside a graph (purge and a store's removal delete them too). */
export const SET_ASIDE_KINDS: Rejection["kind"][] = ["not-a-file", "truncated", "record", "checksum", "structure"];
