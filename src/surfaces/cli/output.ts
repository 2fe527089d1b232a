/**
 * @module surfaces/cli/output
 * How the CLI speaks: exactly one JSON document on stdout with --json, human text otherwise, and every failure
 * as one line on stderr with exit code 2 (the caller's mistake) or 1 (ours).
 */
import { CommanderError } from "commander";
import { CascadeError } from "../../index.js";

export interface OutputMode {
  json: boolean;
}

export function emit(mode: OutputMode, value: unknown, human: () => string): void {
  process.stdout.write(mode.json ? JSON.stringify(value, null, 2) + "\n" : human() + "\n");
}

/** Reports an error and returns the exit code it deserves. */
export function reportError(err: unknown, mode: OutputMode): number {
  let code: string;
  let message: string;
  let exit: number;
  if (err instanceof CascadeError) {
    code = err.code;
    message = err.message;
    exit = err.isUsageError ? 2 : 1;
  } else if (err instanceof CommanderError) {
    code = "INVALID_INPUT";
    message = err.message.replace(/^error: /, "");
    exit = 2;
  } else {
    code = "INTERNAL";
    message = err instanceof Error ? err.message : String(err);
    exit = 1;
    if (process.env.CASCADE_DEBUG && err instanceof Error) process.stderr.write(`${err.stack}\n`);
  }
  process.stderr.write(`cascade: ${message}\n`);
  if (mode.json) process.stdout.write(JSON.stringify({ error: { code, message } }) + "\n");
  return exit;
}
