/**
 * @module surfaces/cli/commands/search-command
 * `cascade search`: flags → recall options → fused hits.
 */
import { type Command, Option } from "commander";
import { CHANNEL_NAMES, CHANNEL_SUMMARIES, STEP_NAMES, STEP_SUMMARIES, recallOptionsSchema, type RecallOptions } from "../../../index.js";
import { formatSearch } from "../format.js";
import { emit } from "../output.js";
import { FILTER_HELP, filterConditions, keepWhole } from "../filter-flag.js";
import { integer, number, collect, parseWeight, stepNames } from "../flags.js";
import { type CliContext } from "../context.js";

/** A flag's help is the option's own description in the one recall schema (query/options.ts). */
const about = (option: keyof typeof recallOptionsSchema.shape): string => recallOptionsSchema.shape[option].description ?? option;

/** `--step a,b --skip-step c` → {a: true, b: true, c: false}; each name was checked as its flag was read (flags.ts). */
function stepSwitches(on: string[] | undefined, off: string[] | undefined): RecallOptions["steps"] {
  if (!on && !off) return undefined;
  const names = (values: string[] | undefined) => (values ?? []).flatMap((v) => v.split(",")).map((v) => v.trim()).filter(Boolean);
  return Object.fromEntries([...names(on).map((s) => [s, true]), ...names(off).map((s) => [s, false])]);
}

export function registerSearchCommand(program: Command, { withEngine, mode }: CliContext): void {
  program
    .command("search")
    .summary("search memories: every channel, fused by weighted RRF")
    .description(
      `search memories: every channel, fused by weighted RRF. The channels: ${CHANNEL_NAMES.map((c) => `${c}, ${CHANNEL_SUMMARIES[c]}`).join("; ")}. ` +
        `Then the read-time steps, each on unless switched off: ${STEP_NAMES.map((s) => `${s}, ${STEP_SUMMARIES[s]}`).join("; ")}`,
    )
    .argument("<query>")
    .option("-k, --k <n>", about("k"), integer("-k", 1))
    .option("--channels <list>", `${about("channels")} (comma-separated)`)
    .option("--weight <name=w>", "a channel's RRF weight, NAME=W (repeatable)", parseWeight)
    .option("--rrf-k <k>", about("rrfK"), number("--rrf-k"))
    .option("--depth <n>", about("depth"), integer("--depth", 1))
    .option("--under <topic>", about("under"))
    .option("--match <lquery>", about("match"))
    .option("--since <iso>", about("since"))
    .option("--until <iso>", about("until"))
    .option("--kind <kind>", "only memories of this kind, e.g. summary (repeatable)", collect)
    .option("--exclude-kind <kind>", "leave out memories of this kind, e.g. summary (repeatable)", collect)
    .addOption(new Option("--time <mode>", about("time")).choices(["boost", "restrict", "off"]))
    .option("--as-of <iso>", about("asOf"))
    .option("--known-at <iso>", about("knownAt"))
    .option("--current-only", about("currentOnly"))
    .option("--no-pyramid", "no summaries: neither in the hits nor as context")
    .option("--no-coverage", "a question asking for a summary, an order or every mention is ranked like any other")
    .option("--agreement", "each channel's weight scaled by how many of its top hits the other channels share on this query (shown after the hits)")
    .option("--no-agreement", "the configured channel weights, whatever the channels agree on")
    .option("--skip-step <step>", `switch off a read-time step (comma-separated or repeatable): ${STEP_NAMES.join(", ")}`, stepNames("--skip-step"))
    .option("--step <step>", "run a read-time step the engine's defaults switch off (comma-separated or repeatable)", stepNames("--step"))
    .option("--include-expired", about("includeExpired"))
    .option("--filter <cond>", FILTER_HELP, keepWhole)
    .action(async (query: string, o, cmd: Command) => {
      const options: RecallOptions = {
        k: o.k,
        channels: o.channels === undefined ? undefined : (String(o.channels).split(",").map((c) => c.trim()).filter(Boolean) as RecallOptions["channels"]),
        weights: o.weight,
        rrfK: o.rrfK,
        depth: o.depth,
        under: o.under,
        match: o.match,
        since: o.since,
        until: o.until,
        kinds: o.kind,
        excludeKinds: o.excludeKind,
        time: o.time,
        asOf: o.asOf,
        knownAt: o.knownAt,
        currentOnly: o.currentOnly,
        pyramid: o.pyramid === false ? false : undefined,
        coverage: o.coverage === false ? false : undefined,
        agreement: o.agreement,
        steps: stepSwitches(o.step, o.skipStep),
        includeExpired: o.includeExpired,
        where: await filterConditions(o),
      };
      const result = await withEngine(cmd, (e) => e.recall(query, options));
      emit(mode(cmd), result, () => formatSearch(result));
    });
}
