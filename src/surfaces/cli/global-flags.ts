/**
 * @module surfaces/cli/global-flags
 * The flags every command takes (program.ts declares them), as a command sees them.
 */
import type { Command } from "commander";

export interface GlobalFlags {
  db?: string;
  namespace?: string;
  json?: boolean;
  now?: string;
  config?: string;
}

export function globalFlags(cmd: Command): GlobalFlags {
  return cmd.optsWithGlobals() as GlobalFlags;
}
