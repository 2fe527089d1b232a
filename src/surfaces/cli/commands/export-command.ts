/**
 * @module surfaces/cli/commands/export-command
 * `cascade export`: the store's memories as JSONL on stdout (one memory a line, with its corrections and edges),
 * which `cascade import` reads back into an equal store. --filter, --since and --until choose which memories.
 */
import { type Command } from "commander";
import { FILTER_HELP, filterConditions, keepWhole } from "../filter-flag.js";
import { type CliContext } from "../context.js";
import { io } from "../io.js";

export function registerExportCommand(program: Command, { withEngine }: CliContext): void {
  program
    .command("export")
    .description("write memories as JSONL on stdout (with their corrections and edges); cascade import reads it back")
    .option("--filter <cond>", FILTER_HELP, keepWhole)
    .option("--since <iso>", "only memories that happened at or after")
    .option("--until <iso>", "only memories that happened before")
    .action(async (o, cmd: Command) => {
      await withEngine(cmd, async (e) => {
        for await (const record of e.exportMemories({ where: await filterConditions(o), since: o.since, until: o.until })) {
          // a pipe that fills up (a slow reader) is waited for, so memory stays flat on a large store
          const stdout = io().stdout;
          if (!stdout.write(`${JSON.stringify(record)}\n`)) await new Promise<void>((resolve) => stdout.once("drain", resolve));
        }
      });
    });
}
