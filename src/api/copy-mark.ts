/**
 * @module api/copy-mark
 * The mark `cascade migrate` keeps in each namespace of its target until the whole copy is in (StoreCopy.write
 * stores it with each page, in the page's transaction): where the copy came from, and where to go on. A kill
 * half-way used to leave a copy that looked whole (stats said 500 of 3,000 memories and exited 0); a marked store
 * is refused by every command but the migrate that resumes it, with one line saying how to resume.
 */
import { CascadeError } from "../errors.js";
import { COPY_ORDER, type CopySection } from "../ports/copy.js";
import type { Store } from "../ports/store.js";

/** Where an interrupted copy stands: the next page to read (section null: this namespace is whole). */
export interface CopyMark {
  /** The source as given to migrate, and as compared (one spelling per place). */
  from: string;
  source: string;
  section: CopySection | null;
  after: string | null;
  /** Records copied of the namespace's total, for the message and the progress bar. */
  done: number;
  total: number;
  /**
   * The source namespace as the copy began (StoreCopy.fingerprint): a resume refuses a source that changed since,
   * whose copy would hold records of two states. Absent before the first page (nothing copied yet) and in marks of
   * earlier versions.
   */
  fingerprint?: Record<string, number>;
}

export function formatMark(mark: CopyMark): string {
  return JSON.stringify(mark);
}

/** The mark read back; one that cannot be read still marks the store incomplete, so it is kept as unknown. */
export function parseMark(text: string): CopyMark {
  try {
    const m = JSON.parse(text) as CopyMark;
    if (typeof m.from === "string" && typeof m.source === "string" && (m.section === null || COPY_ORDER.includes(m.section))) return m;
  } catch {
    // fall through
  }
  return { from: "?", source: "?", section: COPY_ORDER[0], after: null, done: 0, total: 0 };
}

/** The one line every command but a resuming migrate answers for a marked store. */
export function interruptedCopy(location: string, mark: CopyMark): CascadeError {
  const where = mark.section === null ? "before it finished" : mark.total === 0 ? "before its first page" : `after ${mark.done} of ${mark.total} records`;
  return new CascadeError(
    "STORE_ERROR",
    `${location} is an incomplete copy: cascade migrate from ${mark.from} was interrupted ${where}; run \`cascade migrate --from ${mark.from} --to ${location}\` again to resume it`,
  );
}

/**
 * What changed in a source since its copy began, as a person reads it ("memories 3000 → 3001, last_memory 3000 →
 * 3001"), or null when nothing did (or the mark has no fingerprint to compare).
 */
export function sourceChange(was: Record<string, number> | undefined, now: Record<string, number>): string | null {
  if (!was) return null;
  const changed = Object.keys({ ...was, ...now }).filter((k) => was[k] !== now[k]);
  return changed.length ? changed.map((k) => `${k} ${was[k] ?? "?"} → ${now[k] ?? "?"}`).join(", ") : null;
}

/** Refuses a store a copy into has not finished (STORE_ERROR, see interruptedCopy). */
export async function refuseIncompleteCopy(store: Store, location: string): Promise<void> {
  const text = await store.copy.mark();
  if (text !== null) throw interruptedCopy(location, parseMark(text));
}
