/**
 * @module surfaces/cli/list-command
 * `cascade list`: memories in time order, a page at a time (`--limit N`, `--cursor C` from the previous page's
 * last line or `next_cursor`), with the simple filters and each memory's status at `--as-of`/`--known-at`.
 */
import { InvalidArgumentError, type Command } from "commander";
import type { ListJson } from "../../light.js";
import { oneLine } from "./format.js";
import { emit } from "./output.js";
import type { CliContext } from "./context.js";
import { FILTER_HELP, filterConditions, keepWhole } from "./filter-flag.js";

/** A repeatable, comma-separated list flag; an empty name (`--speaker ''`, `--kind a,,b`) is refused, not dropped. */
function collect(value: string, previous: string[] = []): string[] {
  const names = value.split(",").map((v) => v.trim());
  if (names.some((n) => n === "")) throw new InvalidArgumentError(`a name cannot be empty, got ${JSON.stringify(value)}`);
  return [...previous, ...names];
}

function pageSize(value: string): number {
  const n = Number(value);
  if (!/^\d+$/.test(value.trim()) || n < 1) throw new InvalidArgumentError(`--limit must be a whole number ≥ 1, got ${JSON.stringify(value)}`);
  return n;
}

export function formatList(page: ListJson): string {
  if (page.memories.length === 0) return "no memories";
  const lines = page.memories.map((m) => {
    const who = [m.kind, m.topic, m.speaker].filter(Boolean).join(" · ");
    const links = [...m.supersedes.map((id) => `supersedes ${id}`), ...m.superseded_by.map((id) => `superseded by ${id}`)].join(", ");
    return `${m.at}  ${m.status.padEnd(10)} ${m.id}  ${who}\n    ${oneLine(m.title ? `${m.title}: ${m.text}` : m.text, 140)}${links ? `\n    ${links}` : ""}`;
  });
  if (page.next_cursor) lines.push(`more: cascade list --cursor ${page.next_cursor}`);
  return lines.join("\n");
}

export function registerListCommand(program: Command, { withReader, mode }: CliContext): void {
  program
    .command("list")
    .description("memories in time order, a page at a time, with their status (oldest first)")
    .option("--limit <n>", "memories per page (default 50, at most 1000)", pageSize)
    .option("--cursor <c>", "continue after the previous page (its next_cursor)")
    .option("--kind <k>", "only this kind (repeatable, or comma-separated)", collect)
    .option("--under <topic>", "only this topic and below it")
    .option("--speaker <name>", "only this speaker (repeatable, or comma-separated)", collect)
    .option("--since <iso>", "happened at or after")
    .option("--until <iso>", "happened before")
    .option("--as-of <iso>", "status as of this world time (default now)")
    .option("--known-at <iso>", "status from what was recorded by then (default now)")
    .option("--order <asc|desc>", "oldest first (asc, default) or newest first")
    .option("--filter <cond>", FILTER_HELP, keepWhole)
    .action(async (o, cmd: Command) => {
      const where = await filterConditions(o);
      const page = await withReader(cmd, (r) =>
        r.list({ limit: o.limit, cursor: o.cursor, kinds: o.kind, under: o.under, speakers: o.speaker, since: o.since, until: o.until, asOf: o.asOf, knownAt: o.knownAt, order: o.order, where }),
      );
      emit(mode(cmd), page, () => formatList(page));
    });
}
