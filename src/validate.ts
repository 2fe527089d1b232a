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
  if (issue.code === "unrecognized_keys") message = `unknown field(s) ${issue.keys.map((k) => JSON.stringify(k)).join(", ")}`;
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
