/**
 * @module eval/readers/files
 * File access shared by the dataset readers: every failure is one INVALID_INPUT line naming the path.
 */
import { readdirSync, readFileSync, statSync } from "node:fs";
import { CascadeError } from "../../errors.js";

const unreadable = (path: string, why: string) => new CascadeError("INVALID_INPUT", `eval: ${path} ${why}`, { field: "path" });

export function readText(path: string): string {
  try {
    return readFileSync(path, "utf8");
  } catch (err) {
    const code = (err as { code?: unknown }).code;
    throw unreadable(path, code === "ENOENT" ? "is missing" : code === "ERR_STRING_TOO_LONG" || code === "ERR_FS_FILE_TOO_LARGE" ? "is too large to read as one text" : "cannot be read");
  }
}

export function readJson(path: string): unknown {
  const text = readText(path);
  try {
    return JSON.parse(text);
  } catch (err) {
    throw unreadable(path, `is not valid JSON (${(err as Error).message})`);
  }
}

/** One JSON value a line (blank lines skipped), each with its 1-based line number. */
export function readJsonLines(path: string): { line: number; value: unknown }[] {
  const out: { line: number; value: unknown }[] = [];
  readText(path).split("\n").forEach((text, i) => {
    if (!text.trim()) return;
    try {
      out.push({ line: i + 1, value: JSON.parse(text) });
    } catch (err) {
      throw unreadable(`${path}:${i + 1}`, `is not valid JSON (${(err as Error).message})`);
    }
  });
  return out;
}

export function isDirectory(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch (err) {
    throw unreadable(path, (err as { code?: unknown }).code === "ENOENT" ? "is missing" : "cannot be read");
  }
}

/** The entries of a folder, sorted. */
export function entries(path: string): string[] {
  return readdirSync(path).sort();
}

/**
 * Where a reader reports a file it skipped: one line naming the file and the field it stopped at. A reader given
 * none is strict: the first unusable file is the error.
 */
export type OnSkip = (line: string) => void;

/**
 * Reads each of a folder's files (or chats, or languages) with `read`. A file that fails with a CascadeError (the
 * data's fault: missing, not JSON, a field the reader cannot use) is reported through `onSkip` and the rest are
 * read; without `onSkip`, or when nothing could be read, the (first) error is thrown. Any other error is a bug of
 * the reader and is never skipped.
 */
export function readEach<T, R>(list: T[], read: (item: T) => R, onSkip?: OnSkip): R[] {
  const out: R[] = [];
  const skipped: CascadeError[] = [];
  for (const item of list) {
    try {
      out.push(read(item));
    } catch (err) {
      if (!(err instanceof CascadeError) || !onSkip) throw err;
      skipped.push(err);
    }
  }
  // nothing read: the error alone, not lines about skipping followed by it
  if (out.length === 0 && skipped.length > 0) throw skipped[0];
  for (const err of skipped) onSkip?.(`eval: skipped ${err.message.replace(/^eval: /, "")}`);
  return out;
}

export function noneFound(path: string, what: string): CascadeError {
  return unreadable(path, `holds no ${what}`);
}
