/**
 * @module surfaces/cli/io
 * Where a CLI run writes and reads: its stdout, stderr and stdin, the environment it reads its variables from, and
 * the exit code a command sets. The binary (main.ts) runs with the process's own; a test runs the CLI in its own
 * process with sinks of its own (run.ts), several at once if it likes: each run's streams are found through an
 * AsyncLocalStorage, so that the output layer and the commands need not be handed them.
 */
import { AsyncLocalStorage } from "node:async_hooks";
import type { Readable } from "node:stream";

/** What the output layer needs of a stream: Node's own streams and a Writable that collects text both qualify. */
export interface CliWritable {
  write(chunk: string): boolean;
  once(event: "drain", listener: () => void): unknown;
  isTTY?: boolean;
  columns?: number;
}

export interface CliIo {
  stdout: CliWritable;
  stderr: CliWritable;
  stdin: Readable;
  /** The environment the CLI's own variables are read from (CASCADE_DB, CASCADE_TOKEN, CASCADE_DEBUG...). */
  env: NodeJS.ProcessEnv;
  /** The exit code a command set without failing (doctor's problems, an import with rejected lines, a signal). */
  exitCode: number | undefined;
}

const current = new AsyncLocalStorage<CliIo>();

/** A new record of the process's own streams and environment. */
export function processIo(): CliIo {
  return { stdout: process.stdout, stderr: process.stderr, stdin: process.stdin, env: process.env, exitCode: undefined };
}

let fallback: CliIo | undefined;

/** The process's own streams, one record a process: the binary's (main.ts), and what code outside `withIo` writes to. */
export function ownIo(): CliIo {
  return (fallback ??= processIo());
}

/** The streams of the run this code belongs to. */
export function io(): CliIo {
  return current.getStore() ?? ownIo();
}

export function withIo<T>(streams: CliIo, fn: () => Promise<T>): Promise<T> {
  // The process's own streams are what io() answers outside any run, so the binary's run enters no
  // AsyncLocalStorage: once one is entered, every promise made afterwards pays its hook, the ES module loader's
  // included, and a `cascade stats` paid some 0.03-0.05 s of CPU for it (docs/benchmark-notes.md, CLI start-up).
  if (streams === fallback && current.getStore() === undefined) return fn();
  return current.run(streams, fn);
}

/** A command's exit code when it ends without an error (the run's code unless an error decides another). */
export function setExitCode(code: number): void {
  io().exitCode = code;
}
