/**
 * @module ingest/dedupe
 * Idempotent imports. Each imported line gets an import key: `ref:<ref>` when it carries the caller's own id
 * (metadata.ref), otherwise `sha256:<hash>` of the line as given (keys sorted, so formatting does not matter).
 * The key is stored with the memory (unique), and an import that meets a key the store already holds skips the
 * line. So importing a file twice, or re-running an import that was killed half-way, converges to one copy of
 * each line. The hash is of the input, not of the stored memory: a line without `at` is stamped with the time of
 * import, which differs between runs, but the line itself does not.
 *
 * Two lines that are identical in every field are one memory; `--no-dedupe` keeps both.
 */
import { createHash } from "node:crypto";
import { isPlainObject } from "./metadata.js";

/** JSON with object keys sorted at every level: equal values, equal text. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(",")}]`;
  if (isPlainObject(value)) {
    return `{${Object.keys(value)
      .filter((k) => value[k] !== undefined)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonical(value[k])}`)
      .join(",")}}`;
  }
  return JSON.stringify(value) ?? "null";
}

/** The caller's own id of an input (`metadata.ref`), when it carries one. */
export function refOf(input: unknown): string | undefined {
  const metadata = isPlainObject(input) ? input.metadata : undefined;
  const ref = isPlainObject(metadata) ? metadata.ref : undefined;
  return typeof ref === "string" && ref.length > 0 ? ref : undefined;
}

/** The import key of one input (as the caller gave it, before validation fills in defaults). */
export function importKey(input: unknown): string {
  const ref = refOf(input);
  if (ref !== undefined) return `ref:${ref}`;
  return `sha256:${createHash("sha256").update(canonical(input)).digest("base64url")}`;
}

/** What an import does with a batch when deduplicating: the lines to store (with their keys) and those skipped. */
export interface Partition<T> {
  fresh: (T & { importKey: string })[];
  /** Lines the store (or this run) already holds, with the memory that holds them when known. */
  skipped: { index: number; id: string | null }[];
}

/**
 * Splits a batch by import key: lines whose key the store holds, or an earlier line of this run carried, are
 * skipped. `seen` lives for the whole run (key → memory id once written).
 */
export async function partitionByImportKey<T extends { index: number }>(
  items: T[],
  inputOf: (item: T) => unknown,
  lookup: (keys: string[]) => Promise<Map<string, string>>,
  seen: Map<string, string | null>,
  /** False for a look ahead that must leave `seen` as it is (api/write-path drafts the next batch early). */
  record = true,
): Promise<Partition<T>> {
  const keyed = items.map((item) => ({ item, key: importKey(inputOf(item)) }));
  const stored = await lookup([...new Set(keyed.map((k) => k.key))]);
  const out: Partition<T> = { fresh: [], skipped: [] };
  const marks = record ? seen : new Map<string, string | null>(); // repeats within this batch
  for (const { item, key } of keyed) {
    const holder = stored.get(key) ?? seen.get(key) ?? marks.get(key);
    if (holder !== undefined) {
      out.skipped.push({ index: item.index, id: holder });
    } else {
      marks.set(key, null);
      out.fresh.push({ ...item, importKey: key });
    }
  }
  return out;
}
