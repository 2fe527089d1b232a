/**
 * @module surfaces/cli/read-program
 * The program of one command that only reads a store (`stats`, `show`, `list`): the global flags and that command,
 * registered by the same function as in the whole command line, so that it parses, answers and fails alike. It
 * loads neither the other commands nor the SDK's front door; main.ts sends `--help` to the whole one.
 */
import type { Command } from "commander";
import { addAnswersToHelp } from "./answers.js";
import { baseProgram } from "./base-program.js";
import { registerShowCommand, registerStatsCommand } from "./commands/read-commands.js";
import { mode, withEngine, withReader, type CliContext } from "./context.js";
import { registerListCommand } from "./list-command.js";

const READ_COMMANDS: Readonly<Record<string, (program: Command, context: CliContext) => void>> = {
  stats: registerStatsCommand,
  show: registerShowCommand,
  list: registerListCommand,
};

/** The one-command program for `name`, or null when it is not a read-only command. */
export function buildReadProgram(name: string | undefined): Command | null {
  const register = name !== undefined && Object.hasOwn(READ_COMMANDS, name) ? READ_COMMANDS[name] : undefined;
  if (!register) return null;
  const program = baseProgram("");
  register(program, { withEngine, withReader, mode });
  addAnswersToHelp(program);
  return program;
}
