/**
 * @module surfaces/cli/commands/store-commands
 * `cascade doctor`, `stats` and `demo`: the store itself, and a guided first run.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type Command } from "commander";
import { backupStore, countOf, DEMO_NOW, demoCorpus, demoQueries, inSpan } from "../../../index.js";
import { formatSearch } from "../format.js";
import { emit } from "../output.js";
import { globalFlags, type CliContext } from "../context.js";
import { setExitCode } from "../io.js";
import { settings } from "../settings.js";
import { registerStatsCommand } from "./read-commands.js";

export function registerStoreCommands(program: Command, context: CliContext): void {
  const { withEngine, mode } = context;
  program
    .command("doctor")
    .description("check that the store's indexes agree with its tables (exit 1 if not) and list failed enrichment; --repair rebuilds the indexes and retries the enrichment")
    .option("--repair", "rebuild the indexes that disagree from the tables, and retry failed enrichment steps")
    .action(async (o, cmd: Command) => {
      const r = await withEngine(cmd, (e) => e.doctor({ repair: o.repair }));
      emit(mode(cmd), r, () =>
        [...r.checks.map((c) => `${c.ok ? "ok      " : c.repaired ? "REPAIRED" : "FAILED  "}  ${c.name}: ${c.detail}`), r.ok ? "the store is healthy" : o.repair ? "problems remain that a repair cannot fix (FAILED above)" : "problems found: run cascade doctor --repair"].join("\n"),
      );
      if (!r.ok) setExitCode(1);
    });

  program
    .command("backup")
    .description("copy the live store (every namespace) to PATH with SQLite's online backup, while writers continue")
    .argument("<path>", "the file to write (must not exist); namespaces go to PATH.ns/ as beside the store")
    .addHelpText("after", "\nThe copy holds every write acknowledged before the backup began and opens as a store of its own (--db PATH).\nPostgreSQL: use pg_dump (docs/OPERATIONS.md).")
    .action(async (path: string, _o, cmd: Command) => {
      const r = await inSpan("cascade.maintenance", { "cascade.task": "backup" }, () => backupStore(settings(globalFlags(cmd)).path, path));
      emit(mode(cmd), r, () => [...r.namespaces.map((n) => `${n.namespace}: ${n.path} (${(n.bytes / 1e6).toFixed(1)} MB)`), `backed up ${countOf(r.namespaces.length, "namespace")} in ${(r.took_ms / 1000).toFixed(1)} s`].join("\n"));
    });

  registerStatsCommand(program, context);

  program
    .command("demo")
    .description("load a sample team's memories into a fresh store and show fused search")
    .action(async (_o, cmd: Command) => {
      const flags = globalFlags(cmd);
      const dir = flags.db ? null : mkdtempSync(join(tmpdir(), "cascade-demo-"));
      const path = flags.db ?? join(dir!, "demo.db");
      cmd.setOptionValueWithSource("now", flags.now ?? DEMO_NOW, "default");
      try {
        const result = await withEngine(
          cmd,
          async (e) => {
            const imported = await e.rememberMany(demoCorpus);
            await e.settlePyramid(); // the sample searches show the summaries of what was just loaded
            const answers = [];
            for (const q of demoQueries) answers.push({ ...q, result: await e.recall(q.query, { k: q.k }) });
            return { imported: imported.imported, store: flags.db ?? null, queries: answers };
          },
          path,
        );
        emit(mode(cmd), result, () =>
          [
            `Loaded ${countOf(result.imported, "memory")} of a payments team (Feb–Jun 2026) into ${flags.db ?? "a temporary store"}.`,
            ...result.queries.map((q) => `\n$ cascade search ${JSON.stringify(q.query)}\n  (${q.why})\n${formatSearch(q.result)}`),
            `\nEach hit lists the channels that found it and its rank in each ([bm25#1 dense#3 ...]); the score is the weighted RRF sum of those ranks, times each "adjusted" factor, plus each "+" amount.`,
          ].join("\n"),
        );
      } finally {
        if (dir) rmSync(dir, { recursive: true, force: true });
      }
    });
}
