/**
 * @module ingest/jsonl
 * JSONL import records: one JSON object a line with `text` and the optional fields of `add`, plus `ref` (the
 * caller's own id, kept in metadata) and `supersedes` (ids, or refs of earlier lines). A line that does not parse is reported with its number and never stops
 * the lines around it.
 */
import { createReadStream, statSync } from "node:fs";
import { CascadeError, invalidInput } from "../errors.js";
import { isPlainObject } from "./metadata.js";

export type JsonlItem = { line: number; input: Record<string, unknown> } | { line: number; error: string };

/** Parses one line; blank lines give null (they are skipped, not errors). */
export function parseJsonlLine(text: string, line: number): JsonlItem | null {
  // a byte-order mark (editors on Windows write one at the start of the file) is not part of the JSON
  if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
  if (text.trim() === "") return null;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    return { line, error: `not valid JSON (${(err as Error).message})` };
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) return { line, error: "each line must be a JSON object" };
  const { ref, ...input } = value as Record<string, unknown>;
  if (ref !== undefined) {
    if (typeof ref !== "string" || ref === "") return { line, error: "ref: must be a non-empty string" };
    // spreading a string would turn "abc" into {"0": "a", ...}; validation names a non-object metadata
    if (input.metadata === undefined || isPlainObject(input.metadata)) input.metadata = { ...input.metadata, ref };
  }
  return { line, input };
}

/** Reads a JSONL file in batches, with the bytes read so far for progress. */
export async function* readJsonlBatches(
  path: string,
  batchSize: number,
): AsyncGenerator<{ items: JsonlItem[]; bytesRead: number }> {
  requireFile(path);
  const stream = createReadStream(path);
  let items: JsonlItem[] = [];
  let lineNo = 0;
  for await (const bytes of byteLines(stream)) {
    lineNo++;
    const text = decodeLine(bytes);
    const item = text === null ? { line: lineNo, error: NOT_UTF8 } : parseJsonlLine(text, lineNo);
    if (item) items.push(item);
    if (items.length >= batchSize) {
      yield { items, bytesRead: stream.bytesRead };
      items = [];
    }
  }
  yield { items, bytesRead: stream.bytesRead };
}

const NOT_UTF8 = "not valid UTF-8 (bytes no text encodes: save the file as UTF-8)";
const utf8 = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });

/** A line's text, or null when its bytes are not UTF-8 (a lenient decoder would store U+FFFD in their place). */
function decodeLine(bytes: Buffer): string | null {
  try {
    return utf8.decode(bytes);
  } catch {
    return null;
  }
}

/** The lines of a byte stream, without their `\n` (or `\r\n`), as bytes: decoded one by one, each checked. */
async function* byteLines(stream: AsyncIterable<Buffer>): AsyncGenerator<Buffer> {
  let rest = Buffer.alloc(0);
  for await (const chunk of stream) {
    const data = rest.length ? Buffer.concat([rest, chunk]) : chunk;
    let start = 0;
    for (let nl = data.indexOf(0x0a); nl >= 0; nl = data.indexOf(0x0a, start)) {
      yield trimCr(data.subarray(start, nl));
      start = nl + 1;
    }
    rest = Buffer.from(data.subarray(start)); // a copy: the chunk is not kept for one partial line
  }
  if (rest.length) yield trimCr(rest);
}

const trimCr = (line: Buffer) => (line.length && line[line.length - 1] === 0x0d ? line.subarray(0, -1) : line);

/** An import names a readable file: a directory or a missing path is the caller's mistake (exit 2). */
export function requireFile(path: string): void {
  let isFile: boolean;
  try {
    isFile = statSync(path).isFile();
  } catch {
    throw invalidInput("file", `cannot read ${path}: no such file`);
  }
  if (!isFile) throw invalidInput("file", `${path} is a directory (or a device), not a file to import`);
}

/**
 * The error an import stops with when the store fails part-way (a lock held past the timeout, a full disk): it
 * says how far it got (`imported`: the memories committed, the batches of the failing call included) and that running
 * it again resumes, so that no one takes a stopped import for a finished one.
 */
export function stoppedImport(err: unknown, imported: number, line: number | undefined, dedupe: boolean): unknown {
  if (!(err instanceof CascadeError) || err.isUsageError) return err;
  const resume = dedupe ? "run the same import again to resume (lines already stored are skipped)" : "lines before it were stored";
  return new CascadeError(err.code, `import stopped near line ${line ?? "?"} after storing ${imported} ${imported === 1 ? "memory" : "memories"}: ${err.message.replace(/; nothing was written: /, ": ")}; ${resume}`, { cause: err });
}
