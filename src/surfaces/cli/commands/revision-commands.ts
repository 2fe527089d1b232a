/**
 * @module surfaces/cli/commands/revision-commands
 * `cascade supersede`, `history`, `retract` and `suggestions`: what replaced what.
 */
import { type Command } from "commander";
import { CascadeError } from "../../../index.js";
import { formatHistory } from "../format.js";
import { emit } from "../output.js";
import { type CliContext } from "../context.js";

export function registerRevisionCommands(program: Command, { withEngine, mode }: CliContext): void {
  program
    .command("supersede")
    .description("record that NEW replaces OLD from --at on (default: NEW's event time)")
    .argument("<new>")
    .argument("<old>")
    .option("--reason <text>", "why, kept with the edge")
    .option("--at <iso>", "when NEW starts replacing OLD (default: NEW's event time)")
    .action(async (newId: string, oldId: string, o, cmd: Command) => {
      const edge = await withEngine(cmd, (e) => e.supersede(newId, oldId, { reason: o.reason, at: o.at, provenance: "user" }));
      emit(mode(cmd), edge, () => `${edge.from} supersedes ${edge.to} from ${edge.valid_from} (edge ${edge.id})`);
    });

  program
    .command("history")
    .description("a memory's supersession chain, oldest to newest, and every edge touching it")
    .argument("<id>")
    .option("--as-of <iso>", "statuses as the world stood then")
    .option("--known-at <iso>", "only edges recorded (and not retracted) by then")
    .action(async (id: string, o, cmd: Command) => {
      const h = await withEngine(cmd, (e) => e.history(id, { asOf: o.asOf, knownAt: o.knownAt }));
      emit(mode(cmd), h, () => formatHistory(h));
    });

  program
    .command("retract")
    .description("take an edge back (it stays in the history)")
    .argument("<edge-id>")
    .action(async (id: string, _o, cmd: Command) => {
      const edge = await withEngine(cmd, (e) => e.retract(id));
      emit(mode(cmd), edge, () => `retracted ${edge.id} (${edge.from} ${edge.type} ${edge.to})`);
    });

  program
    .command("suggestions")
    .description("revisions detected below the confidence threshold; accept or reject them")
    .option("--accept <id>", "accept a suggestion: its supersedes edge is written")
    .option("--reject <id>", "reject a suggestion: nothing is written")
    .option("--all", "list decided suggestions too")
    .action(async (o, cmd: Command) => {
      if (o.accept && o.reject) throw new CascadeError("INVALID_INPUT", "suggestions: --accept and --reject cannot be used together", { field: "accept" });
      const decision = o.accept ? ("accepted" as const) : o.reject ? ("rejected" as const) : null;
      if (decision) {
        const s = await withEngine(cmd, (e) => e.decideSuggestion(o.accept ?? o.reject, decision));
        emit(mode(cmd), s, () => `${s.id} ${s.status}: ${s.from} supersedes ${s.to}`);
        return;
      }
      const list = await withEngine(cmd, (e) => e.suggestions(o.all ? "all" : "open"));
      emit(mode(cmd), { suggestions: list }, () =>
        list.length === 0 ? "no open suggestions" : list.map((s) => `${s.id}  ${s.confidence.toFixed(2)}  ${s.from} supersedes ${s.to}?  ${s.reason}  [${s.status}]`).join("\n"),
      );
    });
}
