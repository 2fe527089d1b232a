/**
 * @module validate
 * Boundary validation with zod: the first problem becomes one CascadeError that names the field.
 */
import type { z } from "zod";
import { invalidInput } from "./errors.js";

export function parseWith<T extends z.ZodType>(schema: T, value: unknown, prefix = ""): z.infer<T> {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  const issue = result.error.issues[0];
  const path = issue.path.map(String).join(".");
  const field = [prefix, path].filter(Boolean).join(".") || "input";
  let message = issue.message;
  // a schema's own words for a key it does not know (a step's name) say more than the generic ones
  if (issue.code === "unrecognized_keys" && issue.message.startsWith("Unrecognized key")) message = `unknown field(s) ${issue.keys.map((k) => JSON.stringify(k)).join(", ")}`;
  throw invalidInput(field, message);
}

/** Rejects strings holding unpaired UTF-16 surrogates: they cannot be stored as UTF-8 without loss. */
export function requireWellFormed(field: string, value: string): string {
  if (!value.isWellFormed()) {
    const at = [...value].findIndex((ch) => ch.length === 1 && /[\uD800-\uDFFF]/.test(ch));
    throw invalidInput(field, `holds an unpaired UTF-16 surrogate${at >= 0 ? ` near character ${at}` : ""}; send valid Unicode text`);
  }
  return value;
}

/** Control characters (C0, DEL, C1): never part of a name, invisible when printed, NUL cut short by C callers. */
const CONTROL = /\p{Cc}/u;

/**
 * A name-like value (a user, agent, session, speaker or role), checked as a namespace name is: not empty, not only
 * spaces, no control characters. Such a value is a scope other memories are joined by; "" or "   " would be a
 * scope nobody means (before, "" was silently dropped and "   " kept), and a NUL in one is cut short elsewhere.
 */
export function requireName(field: string, value: string): string {
  if (value.trim().length === 0) throw invalidInput(field, value.length === 0 ? "cannot be empty (leave it out for none)" : "cannot be only spaces");
  const at = value.search(CONTROL);
  if (at >= 0) throw invalidInput(field, `holds a control character (U+${value.charCodeAt(at).toString(16).toUpperCase().padStart(4, "0")}) at character ${at}`);
  return value;
}

/** Whether a text holds anything to read: a character other than white space and control characters. */
export const hasVisibleText = (text: string): boolean => /[^\s\p{Cc}]/u.test(text);

const strictUtf8 = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });

/**
 * Bytes as text, refused when they are not UTF-8: a lenient decoder would store U+FFFD in place of what was sent,
 * and the same bytes are refused by `import` (ingest/jsonl.ts). Every surface that reads bytes (an HTTP body, an
 * MCP line, `add -`, `add --file`) decodes them here, so each gives the same answer.
 */
export function decodeUtf8(field: string, bytes: Uint8Array): string {
  try {
    return strictUtf8.decode(bytes);
  } catch {
    throw invalidInput(field, `not valid UTF-8 (byte ${firstInvalidByte(bytes)} is not part of any character): send the text as UTF-8`);
  }
}

/** The offset of the first byte that starts no valid UTF-8 sequence (for the message; the decoder decides). */
function firstInvalidByte(b: Uint8Array): number {
  for (let i = 0; i < b.length; ) {
    const c = b[i];
    const n = c < 0x80 ? 0 : c >= 0xc2 && c <= 0xdf ? 1 : c >= 0xe0 && c <= 0xef ? 2 : c >= 0xf0 && c <= 0xf4 ? 3 : -1;
    // the second byte's range where it is narrower than 80..BF: no overlong forms, no surrogates, nothing past U+10FFFF
    const [lo, hi] = c === 0xe0 ? [0xa0, 0xbf] : c === 0xed ? [0x80, 0x9f] : c === 0xf0 ? [0x90, 0xbf] : c === 0xf4 ? [0x80, 0x8f] : [0x80, 0xbf];
    if (n < 0 || (n > 0 && !(b[i + 1] >= lo && b[i + 1] <= hi))) return i;
    for (let k = 2; k <= n; k++) if (i + k >= b.length || (b[i + k] & 0xc0) !== 0x80) return i;
    i += n + 1;
  }
  return b.length;
}
