/**
 * @module ingest/metadata
 * A memory's `metadata`: a JSON object, kept as given. Bounded, because its cost is not only its size: every
 * later read parses it and every write serialises it, and both recurse, so an object nested 4,000 deep once
 * answered "Maximum call stack size exceeded" (HTTP 500). The check walks with its own stack and stops at the
 * first level too deep, so it cannot overflow itself.
 */
import { invalidInput } from "../errors.js";

export const metadataLimits = Object.freeze({
  /** Objects and arrays inside one another; real metadata is two or three levels deep. */
  maxDepth: 16,
  /** Serialised size: metadata describes a memory, it is not a second body. */
  maxChars: 65_536,
});

export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** The metadata object, or a CascadeError naming `field` (a string, an array, null, too deep, too large). */
export function validateMetadata(value: unknown, field = "metadata"): Record<string, unknown> {
  if (!isPlainObject(value)) {
    throw invalidInput(field, `must be a JSON object (got ${value === null ? "null" : Array.isArray(value) ? "an array" : typeof value})`);
  }
  const stack: [unknown, number][] = [[value, 1]];
  while (stack.length > 0) {
    const [v, depth] = stack.pop()!;
    if (typeof v !== "object" || v === null) continue;
    if (depth > metadataLimits.maxDepth) throw invalidInput(field, `nested more than ${metadataLimits.maxDepth} levels deep`);
    for (const child of Object.values(v)) if (typeof child === "object" && child !== null) stack.push([child, depth + 1]);
  }
  const chars = JSON.stringify(value).length;
  if (chars > metadataLimits.maxChars) throw invalidInput(field, `${chars} characters as JSON; at most ${metadataLimits.maxChars}`);
  return value;
}
