/**
 * @module surfaces/cli/program
 * The `cascade` command line: the global flags, then one register function per command group (commands/*.ts,
 * graph-commands.ts, list-command.ts). Flags → engine calls → output; no retrieval logic lives here.
 */
import { Command, CommanderError } from "commander";
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
import { mode, withEngine, type CliContext } from "./context.js";
import { registerGraphCommands } from "./graph-commands.js";
import { registerListCommand } from "./list-command.js";
import { VERSION } from "./version.js";


export function buildProgram(): Command {
  const program = new Command("cascade")
    .description(`Memory for AI agents: seven retrieval channels (${CHANNEL_NAMES.join(", ")}) fused by weighted RRF over an embedded store.`)
    .version(VERSION, "-V, --version", "print the version")
    .option("--db <path>", "the store (default $CASCADE_DB, else the config file's db, else ./.cascade/memory.db)")
    .option("--json", "print exactly one JSON document on stdout")
    .option("--now <iso>", "fix 'now' for every relative computation (reproducible runs)")
    .option("--config <path>", "config file (default ./cascade.config.json when present)")
    .option("--namespace <name>", "a separate, isolated memory (one per user or agent); default: the default one")
    .showHelpAfterError(false)
    // Commander's own errors are reported by reportError as one line (and as JSON with --json); set before the
    // subcommands are added, so that they inherit it.
    .configureOutput({ outputError: () => {} })
    .exitOverride();

  const context: CliContext = { withEngine, mode };
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

/** Global flags that take a value, so that the scan below skips it. */
const VALUE_FLAGS = new Set(["--db", "--now", "--config", "--namespace"]);

/**
 * An unknown command is a mistake (exit 2), even with --help after it: Commander would print the global help and
 * exit 0, which a script reads as success.
 */
export function refuseUnknownCommand(program: Command, args: string[]): void {
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    if (VALUE_FLAGS.has(a)) i++;
    if (a.startsWith("-")) continue;
    const known = a === "help" || program.commands.some((c) => c.name() === a || c.aliases().includes(a));
    if (!known) throw new CommanderError(2, "commander.unknownCommand", `unknown command '${a}' (cascade --help lists them)`);
    return;
  }
}
