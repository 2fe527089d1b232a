/**
 * @module surfaces/cli/graph-commands
 * `cascade link`, `cascade graph` and `cascade entities`: flags → engine calls → output. Flag values are checked
 * here only for their form (an integer, a known type); the engine validates the rest.
 */
import { type Command, InvalidArgumentError } from "commander";
import { countOf, EDGE_TYPES, MAX_GRAPH_DEPTH, type Engine, type GraphJson } from "../../index.js";
import { emit } from "./output.js";
import { FILTER_HELP, filterConditions, keepWhole } from "./filter-flag.js";
import type { CliContext } from "./context.js";


const GRAPH_TYPES = [...EDGE_TYPES, "mentions"] as const;

function edgeType(value: string): string {
  if (!(EDGE_TYPES as readonly string[]).includes(value)) throw new InvalidArgumentError(`--type must be one of ${EDGE_TYPES.join(", ")}, got ${JSON.stringify(value)}`);
  return value;
}

function graphType(value: string, previous: string[] = []): string[] {
  if (!(GRAPH_TYPES as readonly string[]).includes(value)) throw new InvalidArgumentError(`--type must be one of ${GRAPH_TYPES.join(", ")}, got ${JSON.stringify(value)}`);
  return [...previous, value];
}

function boundedInteger(name: string, min: number, max: number) {
  return (value: string) => {
    const n = Number(value);
    if (!Number.isInteger(n) || n < min || n > max) throw new InvalidArgumentError(`${name} must be an integer from ${min} to ${max}, got ${JSON.stringify(value)}`);
    return n;
  };
}

export function formatGraph(g: GraphJson): string {
  const lines = [`graph around ${g.id} (as of ${g.as_of}${g.truncated ? "; truncated" : ""})`];
  for (const n of [...g.nodes].sort((a, b) => a.depth - b.depth)) {
    const what = n.type === "entity" ? `entity ${n.name} (${n.kind}, ${countOf(n.memories ?? 0, "memory")})` : `${n.at}  ${(n.text ?? "").slice(0, 80)}`;
    lines.push(`  ${"·".repeat(n.depth)}${n.depth ? " " : ""}[${n.id}] ${n.status === "superseded" ? "SUPERSEDED " : ""}${what}`);
  }
  lines.push("edges:");
  for (const e of g.edges) lines.push(`  ${e.from} ${e.type} ${e.to}${e.current ? "" : "  (not current)"}`);
  return lines.join("\n");
}

export function registerGraphCommands(program: Command, { withEngine, mode }: CliContext): void {
  program
    .command("link")
    .description(`relate two memories with a typed edge (${EDGE_TYPES.join(", ")}); see docs/GUIDE.md, "Relations"`)
    .argument("<from>")
    .argument("<to>")
    .requiredOption("--type <type>", `one of ${EDGE_TYPES.join(", ")}`, edgeType)
    .option("--reason <text>", "why, kept with the edge")
    .option("--at <iso>", "when the relation starts holding (default: FROM's event time)")
    .action(async (from: string, to: string, o, cmd: Command) => {
      const edge = await withEngine(cmd, (e) => e.link(from, to, { type: o.type, reason: o.reason, at: o.at, provenance: "user" }));
      emit(mode(cmd), edge, () => `${edge.from} ${edge.type} ${edge.to} from ${edge.valid_from} (edge ${edge.id})`);
    });

  program
    .command("graph")
    .description("the memories and entities around a memory, with every edge's type, validity and provenance")
    .argument("<id>")
    .option("--depth <n>", `hops to walk, 1 to ${MAX_GRAPH_DEPTH} (default 1)`, boundedInteger("--depth", 1, MAX_GRAPH_DEPTH))
    .option("--type <type>", `follow only this edge type (repeatable; ${GRAPH_TYPES.join(", ")})`, graphType)
    .option("--as-of <iso>", "read the graph as the world stood then")
    .option("--known-at <iso>", "only edges Cascade had recorded (and not retracted) by then")
    .action(async (id: string, o, cmd: Command) => {
      const g = await withEngine(cmd, (e) => e.graph(id, { depth: o.depth, types: o.type, asOf: o.asOf, knownAt: o.knownAt }));
      emit(mode(cmd), g, () => formatGraph(g));
    });

  program
    .command("entities")
    .description("entities (people, products, places, identifiers) with how many memories mention them")
    .option("--query <text>", "only entities whose name or an alias contains this")
    .option("--top <n>", "how many (default 20)", boundedInteger("--top", 1, 10_000))
    .option("--filter <cond>", `${FILTER_HELP}; counts only those memories`, keepWhole)
    .action(async (o, cmd: Command) => {
      const r = await withEngine(cmd, async (e) => e.entities({ query: o.query, top: o.top, where: await filterConditions(o) }));
      emit(mode(cmd), r, () => (r.entities.length ? r.entities.map((x) => `${String(x.memories).padStart(6)}  ${x.name}  (${x.kind}, ${x.id})`).join("\n") : "no entities"));
    });
}
