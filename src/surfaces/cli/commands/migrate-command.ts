/**
 * @module surfaces/cli/commands/migrate-command
 * `cascade migrate --from SOURCE --to TARGET`: a thin shell over the SDK's migrateStore (api/migrate). A bar per
 * namespace on a terminal's stderr, then the counts of both sides as a table (or JSON); exit 1 if they differ.
 */
import type { Command } from "commander";
import { migrateStore, type MigrateReport } from "../../../index.js";
import { integer } from "../flags.js";
import { emit } from "../output.js";
import type { CliContext } from "../context.js";
import { progressBar, type Progress } from "../progress.js";

/** One block per namespace: each kind's count on both sides, and a mark where they differ. */
function formatReport(r: MigrateReport): string {
  const lines = [`copied ${r.from} → ${r.to} in ${(r.took_ms / 1000).toFixed(1)} s`];
  for (const ns of r.namespaces) {
    lines.push("", `namespace ${ns.namespace}`, `  ${"kind".padEnd(12)}${"source".padStart(10)}${"target".padStart(10)}`);
    for (const kind of Object.keys(ns.source) as (keyof typeof ns.source)[]) {
      const [s, t] = [ns.source[kind], ns.target[kind]];
      lines.push(`  ${kind.padEnd(12)}${String(s).padStart(10)}${String(t).padStart(10)}${s === t ? "" : "   DIFFERENT"}`);
    }
  }
  lines.push("", r.ok ? "every count agrees" : "the counts differ: the copy is incomplete");
  return lines.join("\n");
}

export function registerMigrateCommand(program: Command, { mode }: CliContext): void {
  program
    .command("migrate")
    .description("copy a whole store (every namespace) into an empty one, e.g. a SQLite file into PostgreSQL; exit 1 if the counts differ")
    .requiredOption("--from <location>", "the store to copy: a file, postgres://…, pglite:<dir>")
    .requiredOption("--to <location>", "an empty store to copy into: a file, postgres://…, pglite:<dir>")
    .option("--batch <n>", "records per transaction", integer("--batch", 1))
    .action(async (o: { from: string; to: string; batch?: number }, cmd: Command) => {
      const bars = new Map<string, Progress>();
      let report: MigrateReport;
      try {
        report = await migrateStore({
          from: o.from,
          to: o.to,
          batch: o.batch,
          onProgress: ({ namespace, done, total }) => {
            let bar = bars.get(namespace);
            if (!bar) {
              for (const other of bars.values()) other.stop();
              bars.set(namespace, (bar = progressBar(`copying ${namespace}`, "records")));
            }
            bar.update(done, total);
          },
        });
      } finally {
        for (const bar of bars.values()) bar.stop();
      }
      emit(mode(cmd), report, () => formatReport(report));
      if (!report.ok) process.exitCode = 1;
    });
}
