/**
 * @module surfaces/cli/stdout-faults
 * What the CLI does when its output cannot be written. A reader that closed the pipe (`cascade export | head -1`)
 * has taken what it wanted: the command ends at once with exit 0, as other Unix tools do, where Node's default was
 * an unhandled EPIPE stack and exit 1. Any other failure (ENOSPC: output redirected to a full disk) is one line on
 * stderr and exit 1, where it was a stack.
 */

/** One line for a failed write to stdout. */
export function outputFailure(err: NodeJS.ErrnoException): string {
  if (err.code === "ENOSPC") return "cannot write the output: no space left on the disk it goes to (ENOSPC)";
  return `cannot write the output: ${err.message}`;
}

/** Installs the handling above on stdout; call once, before any output. */
export function handleOutputFaults(): void {
  process.stdout.on("error", (err: NodeJS.ErrnoException) => {
    if (err.code === "EPIPE") process.exit(0);
    process.stderr.write(`cascade: ${outputFailure(err)}\n`);
    process.exit(1);
  });
}
