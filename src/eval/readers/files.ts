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
  } catch {
    throw unreadable(path, "cannot be read");
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
  } catch {
    throw unreadable(path, "cannot be read");
  }
}

/** The entries of a folder, sorted. */
export function entries(path: string): string[] {
  return readdirSync(path).sort();
}

export function noneFound(path: string, what: string): CascadeError {
  return unreadable(path, `holds no ${what}`);
}
