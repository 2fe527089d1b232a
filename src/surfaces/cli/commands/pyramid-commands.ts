/**
 * @module surfaces/cli/commands/pyramid-commands
 * `cascade pyramid build` and `pyramid show`: the summary pyramid by hand.
 */
import { type Command, Option } from "commander";
import { countOf } from "../../../index.js";
import { formatPyramid } from "../format.js";
import { emit } from "../output.js";
import { progressBar } from "../progress.js";
import { type CliContext } from "../context.js";
import { FILTER_HELP, filterConditions, keepWhole } from "../filter-flag.js";

export function registerPyramidCommands(program: Command, { withEngine, mode }: CliContext): void {
  const pyramid = program.command("pyramid").description("the summary pyramid: day, week and month rollups, searchable beside the raw memories");
  pyramid
    .command("build")
    .description("recompute the summaries of every window changed since the last build (the pyramid is kept current on every write; --full rebuilds every node)")
    .option("--full", "recompute every node, changed or not (after changing the summariser or its limits)")
    .action(async (o, cmd: Command) => {
      const bar = progressBar("pyramid", "steps");
      const r = await withEngine(cmd, (e) => e.buildPyramid({ full: Boolean(o.full), onProgress: (d, t) => bar.update(d, t) })).finally(() => bar.stop());
      emit(mode(cmd), r, () => {
        const n = r.recomputed.day + r.recomputed.week + r.recomputed.month + r.turns;
        return n === 0
          ? "pyramid up to date: nothing to recompute"
          : `recomputed ${countOf(n, "node")} (${countOf(r.turns, "turn")}, ${countOf(r.recomputed.day, "day")}, ${countOf(r.recomputed.week, "week")}, ${countOf(r.recomputed.month, "month")}): ${r.written} written, ${r.removed} removed${r.refused ? `, ${r.refused} not written (a memory they read was forgotten meanwhile; read again)` : ""}, in ${(r.took_ms / 1000).toFixed(1)} s`;
      });
    });
  pyramid
    .command("show")
    .description("list the pyramid's nodes (oldest first): the whole namespace's, or with --filter those of the one user or agent it names")
    .addOption(new Option("--level <level>", "only this level").choices(["turn", "day", "week", "month"]))
    .option("--filter <cond>", `${FILTER_HELP}; as search: the nodes of the user (or agent) it names, only the sentences from memories matching it`, keepWhole)
    .action(async (o, cmd: Command) => {
      const r = await withEngine(cmd, async (e) => e.pyramid({ level: o.level, where: await filterConditions(o) }));
      emit(mode(cmd), r, () => formatPyramid(r));
    });
}
