/**
 * @module api/write-failures
 * What the write path (write-path.ts) says when something fails: a write stopped after committing batches (and how
 * far it got, for the caller), a step after a batch's commit that failed (a warning on stored memories, never "not
 * stored"), and which failures are the judge's on a text rather than the store's. Apart from the pipeline so the
 * wording of its failures stays in one place.
 */
import { CascadeError, storeFailure } from "../errors.js";

/**
 * A failure of the judge on a text, as opposed to the store failing under it (a lock held too long, a full disk),
 * which must still stop the write so that nothing is reported done that was not.
 */
export function isEnrichmentFailure(err: unknown): boolean {
  if (err instanceof CascadeError) return err.code !== "STORE_ERROR";
  // a database's or the system's own error carries a code (SQLITE_BUSY, ENOSPC, a SQLSTATE); a rule's bug does not
  return typeof (err as { code?: unknown })?.code !== "string";
}

/** How far a write got: memories committed, and the input index its next batch starts at. */
export interface Committed {
  stored: number;
  from: number;
}

const stoppedAt = new WeakMap<object, Committed & { failure: CascadeError }>();

/**
 * How far a write that failed got, when batches before the failure were committed: the memories stored and the input
 * index from which nothing was, and the failure itself; undefined when nothing was stored (or the error is not a write's).
 */
export function storedBeforeFailure(err: unknown): (Committed & { failure: CascadeError }) | undefined {
  return typeof err === "object" && err !== null ? stoppedAt.get(err) : undefined;
}

/**
 * A write that failed after committing batches says so: the store's error alone ("nothing was written") would
 * tell a caller that none of them was stored. Its mistakes (a usage error) and a write that stored nothing are
 * passed on as they are.
 */
export function stoppedWrite(err: unknown, committed: Committed, total: number): unknown {
  if (committed.stored === 0 || (err instanceof CascadeError && err.isUsageError)) return err;
  const failure = err instanceof CascadeError ? err : (storeFailure(err) ?? new CascadeError("STORE_ERROR", err instanceof Error ? err.message : String(err), { cause: err }));
  const reason = failure.message.replace(/; nothing was written: /, ": ");
  const stopped = new CascadeError(failure.code, `stored ${committed.stored} ${committed.stored === 1 ? "memory" : "memories"} (inputs before index ${committed.from}), then stopped: ${reason}; inputs from index ${committed.from} on were not stored`, { cause: err });
  stoppedAt.set(stopped, { ...committed, failure });
  return stopped;
}

/**
 * Why a step after a batch's commit failed, for the warning on its stored memories: the store's own answer for a
 * full disk says "nothing was written", true of the step and false of the memory, so the step is named instead.
 */
export function afterCommit(err: unknown): CascadeError {
  const failure = err instanceof CascadeError ? err : storeFailure(err);
  const cause = (failure?.cause ?? err) as { code?: unknown; message?: unknown };
  const code = typeof cause?.code === "string" ? cause.code : null;
  if (code === "SQLITE_FULL" || code === "53100") return new CascadeError("STORE_ERROR", `the disk holding the store is full (${code}) after the memory was stored; \`cascade doctor --repair\` runs detection again once there is space`);
  const message = err instanceof Error ? err.message : String(err);
  return new CascadeError(failure?.code ?? "STORE_ERROR", `${code && !message.includes(code) ? `${code}: ` : ""}${message} (after the memory was stored)`);
}

export function errorMessage(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
