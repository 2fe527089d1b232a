/**
 * @module surfaces/cli/commands/read-commands
 * `cascade show` and `stats`: answered by a store opened only to read (context.ts, withReader), so that they load
 * neither the engine nor its schemas. Registered in their places in `cascade --help` by the groups they
 * belong to (memory-commands.ts, store-commands.ts), and alone by read-program.ts.
 */
import type { Command } from "commander";
import { countOf } from "../../../light.js";
import { formatMemory } from "../format.js";
import { emit } from "../output.js";
import { globalFlags, type CliContext } from "../context.js";

export function registerShowCommand(program: Command, { withReader, mode }: CliContext): void {
  program
    .command("show")
    .description("show one memory")
    .argument("<id>")
    .action(async (id: string, _o, cmd: Command) => {
      const m = await withReader(cmd, (r) => r.show(id));
      emit(mode(cmd), m, () => formatMemory(m, globalFlags(cmd).namespace));
    });
}

export function registerStatsCommand(program: Command, { withReader, mode }: CliContext): void {
  program
    .command("stats")
    .description("counts and size of the store")
    .action(async (_o, cmd: Command) => {
      const s = await withReader(cmd, (r) => r.stats());
      emit(mode(cmd), s, () => `${countOf(s.memories, "memory")}, ${countOf(s.chunks, "chunk")}, ${countOf(s.terms, "term")}, ${(s.bytes / 1e6).toFixed(1)} MB, embedder ${s.embedder}`);
    });
}
