/**
 * @module surfaces/cli/commands/current-command
 * `cascade current`: what is true now in a scope, one line per standing fact with when it became true and what it
 * replaced (api/current-state.ts). Named `current`, not `now`, because `--now` is already the global flag that
 * fixes the clock.
 */
import { type Command } from "commander";
import { currentStateLimits, type AttributeStateJson, type CurrentStateJson, type ReplacedJson } from "../../../index.js";
import { emit } from "../output.js";
import { FILTER_HELP, filterConditions, keepWhole } from "../filter-flag.js";
import { integer } from "../flags.js";
import { type CliContext } from "../context.js";

export function registerCurrentCommand(program: Command, { withEngine, mode }: CliContext): void {
  program
    .command("current")
    .description("what is true now: each standing fact of a scope, when it became true and what it replaced")
    .option("--filter <cond>", FILTER_HELP, keepWhole)
    .option("--about <name>", "only facts about this entity (its name), or else about what a search for it finds")
    .option("--as-of <iso>", "as the world stood then: later memories and changes are not counted")
    .option("--known-at <iso>", "what Cascade knew then: only memories and edges recorded (and not retracted) by then")
    .option("--history", "also every older version behind each fact, newest first")
    .option("--limit <n>", `at most this many facts, 1 to ${currentStateLimits.maxLimit} (default ${currentStateLimits.limit})`, integer("--limit", 1, currentStateLimits.maxLimit))
    .action(async (o, cmd: Command) => {
      const state = await withEngine(cmd, async (e) =>
        e.currentState({ where: await filterConditions(o), about: o.about, asOf: o.asOf, knownAt: o.knownAt, history: o.history ? true : undefined, limit: o.limit }),
      );
      emit(mode(cmd), state, () => formatCurrent(state));
    });
}

const day = (iso: string) => iso.slice(0, 10);
const quote = (text: string, max = 80) => {
  const one = text.replace(/\s+/g, " ").trim();
  return `"${one.length > max ? `${one.slice(0, max - 1)}…` : one}"`;
};
const replacedLine = (r: ReplacedJson) =>
  `${quote(r.text, 60)} (${day(r.since)}${r.reason ? `; ${r.reason}` : ""}${r.confidence < 1 ? `; confidence ${r.confidence.toFixed(2)}` : ""})`;

/** One line per standing attribute, its value now, since when and the values before it. */
const attributeLine = (a: AttributeStateJson) => {
  const whose = a.holder ? `${a.holder}'s ` : a.user ? `user ${a.user}'s ` : "";
  const before = a.before.length ? `; before: ${a.before.map((b) => `${b.value} (${day(b.since)})`).join(", ")}` : "";
  return `  ${whose}${a.attribute}: ${a.value}  since ${day(a.since)} (${a.id}${before})`;
};

/**
 * The standing attributes first (one line each), then one line per fact with an indented line for what it replaced
 * and (with --history) each older version.
 */
export function formatCurrent(s: CurrentStateJson): string {
  const about = s.about === null ? "" : "entity" in s.about ? ` about ${s.about.entity.name}` : ` about "${s.about.query}"`;
  const head = `what is true as of ${s.as_of}${about}: ${s.facts.length} fact${s.facts.length === 1 ? "" : "s"}${s.truncated ? " (more: raise --limit)" : ""}`;
  if (s.facts.length === 0) return `${head}\n(nothing current in this scope)`;
  const lines = s.attributes.length ? [`attributes now:`, ...s.attributes.map(attributeLine), "", head] : [head];
  for (const f of s.facts) {
    const who = f.user ? ` [user ${f.user}]` : f.agent ? ` [agent ${f.agent}]` : "";
    lines.push(`${f.id}  ${quote(f.text)}  since ${day(f.since)}${who}${f.revised.length ? `  (partly current: ${f.revised.length} sentence${f.revised.length === 1 ? "" : "s"} replaced)` : ""}`);
    for (const r of f.replaced) lines.push(`    replaced ${r.id} ${replacedLine(r)}`);
    for (const h of (f.history ?? []).filter((h) => !f.replaced.some((r) => r.edge === h.edge))) lines.push(`    earlier  ${h.id} ${replacedLine(h)}`);
  }
  return lines.join("\n");
}
