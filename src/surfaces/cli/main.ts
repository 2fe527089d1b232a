#!/usr/bin/env node
/**
 * @module surfaces/cli/main
 * Entry point of the `cascade` binary: one run (run.ts) over the process's own streams, and its exit code.
 */
import { ownIo } from "./io.js";
import { run } from "./run.js";
import { handleOutputFaults } from "./stdout-faults.js";

handleOutputFaults();
// the code is set, not exited with: a pipe still being written to is drained before the process ends
process.exitCode = await run(process.argv.slice(2), ownIo());
