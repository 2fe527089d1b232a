/**
 * @module surfaces/cli/base-program
 * The `cascade` program without its commands: the global flags and how errors and help are handled, shared by the
 * whole command line (program.ts) and by the one-command program of a read-only command (read-program.ts); and
 * which command the arguments name.
 */
import { Command } from "commander";
import { io } from "./io.js";
import { VERSION } from "./version.js";

export function baseProgram(description: string): Command {
  return (
    new Command("cascade")
      .description(description)
      .version(VERSION, "-V, --version", "print the version")
      .option("--db <path>", "the store (default $CASCADE_DB, else the config file's db, else ./.cascade/memory.db)")
      .option("--json", "print exactly one JSON document on stdout")
      .option("--now <iso>", "fix 'now' for every relative computation (reproducible runs)")
      .option("--config <path>", "config file (default ./cascade.config.json when present)")
      .option("--namespace <name>", "a separate, isolated memory (one per user or agent); default: the default one")
      .showHelpAfterError(false)
      // Commander's own errors are reported by reportError as one line (and as JSON with --json); set before the
      // subcommands are added, so that they inherit it. Help and the version go to the run's streams (io.ts), read
      // as Commander reads the process's own (colours stay Commander's: help is plain text but on a terminal).
      .configureOutput({
        outputError: () => {},
        writeOut: (s) => void io().stdout.write(s),
        writeErr: (s) => void io().stderr.write(s),
        getOutHelpWidth: () => (io().stdout.isTTY ? io().stdout.columns : undefined) as number,
        getErrHelpWidth: () => (io().stderr.isTTY ? io().stderr.columns : undefined) as number,
      })
      .exitOverride()
  );
}

/** Global flags that take a value, so that the scan below skips it. */
const VALUE_FLAGS = new Set(["--db", "--now", "--config", "--namespace"]);

/** The first word of the arguments that is not a global flag or its value: the command (or "help"), if any. */
export function commandWord(args: string[]): string | undefined {
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    if (VALUE_FLAGS.has(a)) i++;
    if (a.startsWith("-")) continue;
    return a;
  }
  return undefined;
}
