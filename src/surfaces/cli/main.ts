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
  const { commandWord } = await import("./base-program.js");
  const { flagSpelling, reportError } = await import("./output.js");
  // a command that only reads a store (stats, show, list) is parsed by a program of that command alone, which loads
  // neither the other commands nor the engine (read-program.ts); its help comes from the whole command line
  const asksHelp = args.includes("--help") || args.includes("-h");
  const reading = asksHelp ? null : (await import("./read-program.js")).buildReadProgram(commandWord(args));
  const whole = reading ? null : await import("./program.js");
  const program = reading ?? whole!.buildProgram();
  const json = args.includes("--json");
  try {
    whole?.refuseUnknownCommand(program, args);
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
