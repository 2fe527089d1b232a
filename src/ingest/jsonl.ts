/**
 * @module ingest/jsonl
 * JSONL import records: one JSON object a line with `text` and the optional fields of `add`, plus `ref` (the
 * caller's own id, kept in metadata) and `supersedes` (ids, or refs of earlier lines). A line that does not parse is reported with its number and never stops
 * the lines around it.
 */
import { createReadStream } from "node:fs";
import { createInterface } from "node:readline";

export type JsonlItem = { line: number; input: Record<string, unknown> } | { line: number; error: string };

/** Parses one line; blank lines give null (they are skipped, not errors). */
export function parseJsonlLine(text: string, line: number): JsonlItem | null {
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
    input.metadata = { ...(input.metadata as Record<string, unknown> | undefined), ref };
  }
  return { line, input };
}

/** Reads a JSONL file in batches, with the bytes read so far for progress. */
export async function* readJsonlBatches(
  path: string,
  batchSize: number,
): AsyncGenerator<{ items: JsonlItem[]; bytesRead: number }> {
  const stream = createReadStream(path, { encoding: "utf8" });
  const lines = createInterface({ input: stream, crlfDelay: Infinity });
  let items: JsonlItem[] = [];
  let lineNo = 0;
  for await (const text of lines) {
    const item = parseJsonlLine(text, ++lineNo);
    if (item) items.push(item);
    if (items.length >= batchSize) {
      yield { items, bytesRead: stream.bytesRead };
      items = [];
    }
  }
  yield { items, bytesRead: stream.bytesRead };
}
