#!/usr/bin/env node
/**
 * @module surfaces/cli/main
 * Entry point of the `cascade` binary.
 */
import { VERSION } from "./version.js";
import { handleOutputFaults } from "./stdout-faults.js";

handleOutputFaults();
const args = process.argv.slice(2);

if (args.length === 1 && (args[0] === "--version" || args[0] === "-V")) {
  // the version alone needs nothing but package.json: answered before the commands (and the engine) are loaded
  process.stdout.write(`${VERSION}\n`);
} else {
  const { CommanderError } = await import("commander");
  const { buildProgram, refuseUnknownCommand } = await import("./program.js");
  const { flagSpelling, reportError } = await import("./output.js");
  const program = buildProgram();
  const json = args.includes("--json");
  try {
    refuseUnknownCommand(program, args);
    await program.parseAsync(process.argv);
  } catch (err) {
    if (err instanceof CommanderError && (err.code === "commander.helpDisplayed" || err.code === "commander.version" || err.exitCode === 0)) {
      process.exitCode = 0;
    } else if (err instanceof CommanderError && err.code === "commander.help") {
      // a command group without its subcommand (`cascade pyramid`): its help is printed; that is the message
      process.exitCode = 2;
    } else {
      process.exitCode = reportError(err, { json }, flagSpelling(program));
    }
  }
}
