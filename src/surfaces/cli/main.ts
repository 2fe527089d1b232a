#!/usr/bin/env node
/**
 * @module surfaces/cli/main
 * Entry point of the `cascade` binary.
 */
import { CommanderError } from "commander";
import { buildProgram, refuseUnknownCommand } from "./program.js";
import { flagSpelling, reportError } from "./output.js";
import { handleOutputFaults } from "./stdout-faults.js";

handleOutputFaults();
const program = buildProgram();
const json = process.argv.includes("--json");

try {
  refuseUnknownCommand(program, process.argv.slice(2));
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
