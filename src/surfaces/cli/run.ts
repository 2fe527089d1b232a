/**
 * @module surfaces/cli/run
 * One run of the `cascade` command line over the streams it is given (io.ts): the binary (main.ts) runs it with the
 * process's own and exits with the code it returns; a test can run it in its own process with sinks of its own.
 * Nothing here exits the process.
 */
import { VERSION } from "./version.js";
import { io, withIo, type CliIo } from "./io.js";

/** Runs `cascade ARGS` (the arguments after the binary's name) over `streams`; resolves to its exit code. */
export function run(args: string[], streams: CliIo): Promise<number> {
  return withIo(streams, async () => {
    const code = await runHere(args);
    return code ?? streams.exitCode ?? 0;
  });
}

/** The exit code an error decided, or undefined when the command ended on its own (its code, if any, is in io). */
async function runHere(args: string[]): Promise<number | undefined> {
  if (args.length === 1 && (args[0] === "--version" || args[0] === "-V")) {
    // the version alone needs nothing but package.json: answered before the commands (and the engine) are loaded
    io().stdout.write(`${VERSION}\n`);
    return undefined;
  }
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
    await program.parseAsync(args, { from: "user" });
    return undefined;
  } catch (err) {
    if (err instanceof CommanderError && (err.code === "commander.helpDisplayed" || err.code === "commander.version" || err.exitCode === 0)) {
      return 0;
    } else if (err instanceof CommanderError && err.code === "commander.help") {
      // a command group without its subcommand (`cascade pyramid`): its help is printed; that is the message
      return 2;
    } else {
      return reportError(err, { json }, flagSpelling(program));
    }
  }
}
