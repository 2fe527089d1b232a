/**
 * @module surfaces/cli/commands/search-command
 * `cascade search`: flags → recall options → fused hits.
 */
import { type Command, Option } from "commander";
import { CHANNEL_NAMES, type RecallOptions } from "../../../index.js";
import { formatSearch } from "../format.js";
import { emit } from "../output.js";
import { FILTER_HELP, filterConditions, keepWhole } from "../filter-flag.js";
import { integer, number, collect, parseWeight } from "../flags.js";
import { type CliContext } from "../context.js";

export function registerSearchCommand(program: Command, { withEngine, mode }: CliContext): void {
  program
    .command("search")
    .description("search memories: every channel, fused by weighted RRF")
    .argument("<query>")
    .option("-k, --k <n>", "number of hits", integer("-k", 1))
    .option("--channels <list>", `comma-separated subset of ${CHANNEL_NAMES.join(",")}`)
    .option("--weight <name=w>", "a channel's RRF weight (repeatable)", parseWeight)
    .option("--rrf-k <k>", "the RRF constant (default 60)", number("--rrf-k"))
    .option("--depth <n>", "how deep each channel ranks (default 50)", integer("--depth", 1))
    .option("--under <topic>", "only memories at this topic path or below it")
    .option("--match <lquery>", "only memories whose topic matches an ltree lquery, e.g. '*.fusion.*'")
    .option("--since <iso>", "only memories that happened at or after this time")
    .option("--until <iso>", "only memories that happened before this time")
    .option("--kind <kind>", "only memories of this kind, e.g. summary (repeatable)", collect)
    .option("--exclude-kind <kind>", "leave out memories of this kind, e.g. summary (repeatable)", collect)
    .addOption(new Option("--time <mode>", "what a time expression in the query does: boost what falls in its window, restrict to it, or off").choices(["boost", "restrict", "off"]))
    .option("--as-of <iso>", "read the graph as the world stood then; later memories are not returned")
    .option("--known-at <iso>", "what Cascade knew then: only memories and edges recorded (and not retracted) by then")
    .option("--current-only", "drop superseded memories")
    .option("--no-pyramid", "no summaries: neither in the hits nor as context")
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
        where: filterConditions(o),
      };
      const result = await withEngine(cmd, (e) => e.recall(query, options));
      emit(mode(cmd), result, () => formatSearch(result));
    });
}
