/**
 * @module surfaces/cli/commands/migrate-command
 * `cascade migrate --from SOURCE --to TARGET`: a thin shell over the SDK's migrateStore (api/migrate). A bar per
 * namespace on a terminal's stderr, then the counts of both sides as a table (or JSON); exit 1 if they differ.
 * SIGINT and SIGTERM stop the copy between pages rather than kill it, so the snapshot is removed and the target
 * keeps its mark (a rerun resumes): one line, exit 130 or 143.
 */
import type { Command } from "commander";
import { migrateStore, type MigrateReport } from "../../../index.js";
import { integer } from "../flags.js";
import { emit, reportError } from "../output.js";
import type { CliContext } from "../context.js";
import { io, setExitCode } from "../io.js";
import { progressBar, type Progress } from "../progress.js";

/** One block per namespace: each kind's count on both sides, and a mark where they differ. */
const SIGNAL_EXIT = { SIGINT: 130, SIGTERM: 143 } as const;

/**
 * A test's hook into a copy under way: with CASCADE_MIGRATE_PAUSE_AFTER=N the copy holds after its Nth page (that
 * page committed) and says so on stderr, until a signal stops it or the process is killed. The kill tests use it
 * to stop a copy at a page they choose rather than at a moment.
 */
function pauseHook(signal: AbortSignal): () => Promise<void> {
  const after = Number(io().env.CASCADE_MIGRATE_PAUSE_AFTER);
  let pages = 0;
  return async () => {
    if (!(after > 0) || ++pages !== after) return;
    io().stderr.write(`migrate: paused after page ${pages} (CASCADE_MIGRATE_PAUSE_AFTER)\n`);
    await new Promise<void>((resolve) => {
      const alive = setInterval(() => undefined, 1000);
      signal.addEventListener("abort", () => (clearInterval(alive), resolve()), { once: true });
    });
  };
}

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
    .description("copy a whole store (every namespace) into an empty one, e.g. a SQLite file into PostgreSQL; run again to resume an interrupted copy; exit 1 if the counts differ")
    .requiredOption("--from <location>", "the store to copy: a file, postgres://…, pglite:<dir>")
    .requiredOption("--to <location>", "an empty store to copy into (or one an interrupted copy of the same source left): a file, postgres://…, pglite:<dir>")
    .option("--batch <n>", "records per transaction", integer("--batch", 1))
    .addHelpText(
      "after",
      "\nThe target is marked incomplete until the last page commits: every other command refuses it, and the same migrate run\nagain goes on from the last page that committed. Ctrl-C (SIGINT) or SIGTERM stops between pages (exit 130/143).",
    )
    .action(async (o: { from: string; to: string; batch?: number }, cmd: Command) => {
      const bars = new Map<string, Progress>();
      const abort = new AbortController();
      let stoppedBy: keyof typeof SIGNAL_EXIT | null = null;
      const stop = (signal: keyof typeof SIGNAL_EXIT) => () => {
        stoppedBy ??= signal;
        abort.abort();
      };
      const handlers = { SIGINT: stop("SIGINT"), SIGTERM: stop("SIGTERM") };
      for (const [signal, handler] of Object.entries(handlers)) process.on(signal, handler);
      const pause = pauseHook(abort.signal);
      let report: MigrateReport;
      try {
        report = await migrateStore({
          from: o.from,
          to: o.to,
          batch: o.batch,
          signal: abort.signal,
          onProgress: ({ namespace, done, total }) => {
            let bar = bars.get(namespace);
            if (!bar) {
              for (const other of bars.values()) other.stop();
              bars.set(namespace, (bar = progressBar(`copying ${namespace}`, "records")));
            }
            bar.update(done, total);
            return pause();
          },
        });
      } catch (err) {
        if (stoppedBy === null) throw err;
        for (const bar of bars.values()) bar.stop();
        reportError(err, mode(cmd));
        setExitCode(SIGNAL_EXIT[stoppedBy]);
        return;
      } finally {
        for (const bar of bars.values()) bar.stop();
        for (const [signal, handler] of Object.entries(handlers)) process.off(signal, handler);
      }
      emit(mode(cmd), report, () => formatReport(report));
      if (!report.ok) setExitCode(1);
    });
}
