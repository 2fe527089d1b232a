#!/usr/bin/env node
/**
 * @module surfaces/cli/main
 * Entry point of the `cascade` binary.
 */
import { CommanderError } from "commander";
import { buildProgram } from "./program.js";
import { flagSpelling, reportError } from "./output.js";

const program = buildProgram();
const json = process.argv.includes("--json");

try {
  await program.parseAsync(process.argv);
} catch (err) {
  if (err instanceof CommanderError && (err.code === "commander.helpDisplayed" || err.code === "commander.version" || err.exitCode === 0)) {
    process.exitCode = 0;
  } else {
    process.exitCode = reportError(err, { json }, flagSpelling(program));
  }
}
