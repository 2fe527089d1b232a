/**
 * @module errors
 * One table of stable error codes. Surfaces map a code to an exit status (CLI),
 * an HTTP status or an MCP tool error; the message always names what was wrong.
 */

/** Whether an error is the caller's mistake (exit code 2) or a failure of ours (exit code 1). */
export type ErrorClass = "usage" | "failure";

export const ERROR_CODES = {
  INVALID_INPUT: "usage",
  NOT_FOUND: "usage",
  EMBEDDER_MISMATCH: "usage",
  UNSUPPORTED: "failure",
  PROVIDER_ERROR: "failure",
  STORE_ERROR: "failure",
  INTERNAL: "failure",
} as const satisfies Record<string, ErrorClass>;

export type ErrorCode = keyof typeof ERROR_CODES;

/** The one error type Cascade throws on purpose. `code` is stable; `message` is one line for a human. */
export class CascadeError extends Error {
  readonly code: ErrorCode;
  /** The input field at fault, when there is one (`text`, `at`, `--weight`...). */
  readonly field?: string;

  constructor(code: ErrorCode, message: string, options: { field?: string; cause?: unknown } = {}) {
    super(message, { cause: options.cause });
    this.name = "CascadeError";
    this.code = code;
    this.field = options.field;
  }

  get isUsageError(): boolean {
    return ERROR_CODES[this.code] === "usage";
  }
}

/** Shorthand for the most common error: a named field holds a value we cannot accept. */
export function invalidInput(field: string, problem: string): CascadeError {
  return new CascadeError("INVALID_INPUT", `${field}: ${problem}`, { field });
}

/** What a backend throws for a capability it lacks; the engine then does without it and says so. */
export function unsupported(capability: string, backend: string): CascadeError {
  return new CascadeError("UNSUPPORTED", `${capability} is not supported by the ${backend} store`);
}

export function isUnsupported(err: unknown): err is CascadeError {
  return err instanceof CascadeError && err.code === "UNSUPPORTED";
}

export function notFound(what: string, id: string): CascadeError {
  return new CascadeError("NOT_FOUND", `no ${what} with id ${JSON.stringify(id)}`, { field: "id" });
}

/**
 * The same error naming its field as a caller spelled it: each surface passes its spelling of the SDK's field
 * names (`asOf` is `as_of` on the wire, `--as-of` on the CLI). Only the first segment of a path is respelled
 * (`excludeKinds.0` → `exclude_kinds.0`); any other error is returned as it is.
 */
export function respelled(err: unknown, spell: (field: string) => string | undefined): unknown {
  if (!(err instanceof CascadeError) || !err.field || !err.message.startsWith(`${err.field}:`)) return err;
  const [head, ...rest] = err.field.split(".");
  const spelled = spell(head);
  if (spelled === undefined || spelled === head) return err;
  const field = [spelled, ...rest].join(".");
  return new CascadeError(err.code, `${field}${err.message.slice(err.field.length)}`, { field, cause: err.cause });
}

/** An SDK field's name on the wire (HTTP, MCP, JSON documents): snake_case. */
export const wireName = (field: string): string => field.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);

/**
 * A database driver's error for a store that cannot take a write (its disk is full) or is damaged, as the
 * STORE_ERROR that says what to do; null for any other error. SQLite's codes and PostgreSQL's SQLSTATEs, so that
 * every surface reports them alike, whichever statement met them.
 */
export function storeFailure(err: unknown, where = "the store"): CascadeError | null {
  const code = (err as { code?: unknown })?.code;
  if (typeof code !== "string") return null;
  if (code === "SQLITE_FULL" || code === "53100") {
    return new CascadeError("STORE_ERROR", `the disk holding ${where} is full (${code}); nothing was written: free some space and try again`, { cause: err });
  }
  if (code === "SQLITE_IOERR_SHMSIZE") {
    // SQLite grows the write-ahead log's shared-memory file (`-shm`) by writing into it, on open and as the log
    // grows; on a full disk that write fails and the driver says only "disk I/O error"
    return new CascadeError("STORE_ERROR", `the disk holding ${where} is full (${code}: its shared-memory file could not grow); nothing was written: free some space and try again`, { cause: err });
  }
  if (code.startsWith("SQLITE_CORRUPT") || code === "SQLITE_NOTADB" || code === "XX001" || code === "XX002") {
    return new CascadeError("STORE_ERROR", `${where} is damaged (${code}: ${(err as Error).message}): run cascade doctor to see what is damaged and what --repair can rebuild`, { cause: err });
  }
  return null;
}
