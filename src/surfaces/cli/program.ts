/**
 * @module surfaces/cli/program
 * The `cascade` command line: the global flags, then one register function per command group (commands/*.ts,
 * graph-commands.ts, list-command.ts). Flags → engine calls → output; no retrieval logic lives here.
 */
import { CommanderError, type Command } from "commander";
import { baseProgram, commandWord } from "./base-program.js";
import { CHANNEL_NAMES } from "../../index.js";
import { registerCurrentCommand } from "./commands/current-command.js";
import { registerEvalCommands } from "./commands/eval-commands.js";
import { registerExportCommand } from "./commands/export-command.js";
import { registerMemoryCommands } from "./commands/memory-commands.js";
import { registerMigrateCommand } from "./commands/migrate-command.js";
import { registerReembedCommand } from "./commands/reembed-command.js";
import { registerPyramidCommands } from "./commands/pyramid-commands.js";
import { registerRevisionCommands } from "./commands/revision-commands.js";
import { registerSearchCommand } from "./commands/search-command.js";
import { registerServerCommands } from "./commands/server-commands.js";
import { registerStoreCommands } from "./commands/store-commands.js";
import { registerTopicCommands } from "./commands/topic-commands.js";
import { addAnswersToHelp } from "./answers.js";
import { mode, withEngine, withReader, type CliContext } from "./context.js";
import { registerGraphCommands } from "./graph-commands.js";
import { registerListCommand } from "./list-command.js";

export function buildProgram(): Command {
  const program = baseProgram(`Memory for AI agents: seven retrieval channels (${CHANNEL_NAMES.join(", ")}) fused by weighted RRF over an embedded store.`);

  const context: CliContext = { withEngine, withReader, mode };
  // in the order `cascade --help` lists them
  registerMemoryCommands(program, context);
  registerSearchCommand(program, context);
  registerPyramidCommands(program, context);
  registerRevisionCommands(program, context);
  registerCurrentCommand(program, context);
  registerGraphCommands(program, context);
  registerTopicCommands(program, context);
  registerServerCommands(program, context);
  registerStoreCommands(program, context);
  registerMigrateCommand(program, context);
  registerReembedCommand(program, context);
  registerListCommand(program, context);
  registerExportCommand(program, context);
  registerEvalCommands(program, context);
  addAnswersToHelp(program);
  return program;
}

/**
 * An unknown command is a mistake (exit 2), even with --help after it: Commander would print the global help and
 * exit 0, which a script reads as success.
 */
export function refuseUnknownCommand(program: Command, args: string[]): void {
  const a = commandWord(args);
  if (a === undefined) return;
  const known = a === "help" || program.commands.some((c) => c.name() === a || c.aliases().includes(a));
  if (!known) throw new CommanderError(2, "commander.unknownCommand", `unknown command '${a}' (cascade --help lists them)`);
}
