/**
 * @module surfaces/cli/program
 * The `cascade` command line: flags → engine calls → output. No retrieval logic lives here.
 */
import { mkdtempSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Command, InvalidArgumentError, Option } from "commander";
import {
  CascadeError,
  CHANNEL_NAMES,
  DEMO_NOW,
  defaultStorePath,
  demoCorpus,
  demoQueries,
  loadConfigFile,
  openMemory,
  parseInstant,
  readJsonlBatches,
  requireFile,
  stoppedImport,
  readLocomoConversation,
  defaultGloveEmbedder,
  scratchStores,
  runCvCommand,
  formatCv,
  evaluateLocomo,
  loadLocomo,
  MemorySpace,
  runBench,
  runPyramidBench,
  runTopicBench,
  runFilterBench,
  type BenchReport,
  type EvalReport,
  type Engine,
  type RecallOptions,
} from "../../index.js";
import { formatFilterBench, formatBench, formatEval, formatPyramidBench, formatTopicBench, formatTopicTree, formatHistory, formatMemory, formatPyramid, formatSearch } from "./format.js";
import { emit, type OutputMode } from "./output.js";
import { registerGraphCommands } from "./graph-commands.js";
import { progressBar } from "./progress.js";
import { serveUntilSignal } from "../http/serve.js";
import { serveMcpOverStdio } from "../mcp/server.js";
import { registerListCommand } from "./list-command.js";
import { FILTER_HELP, filterConditions, keepWhole } from "./filter-flag.js";

interface GlobalFlags {
  db?: string;
  namespace?: string;
  json?: boolean;
  now?: string;
  config?: string;
}

function integer(name: string, min: number) {
  return (value: string) => {
    const n = Number(value);
    if (!Number.isInteger(n) || n < min) throw new InvalidArgumentError(`${name} must be an integer ≥ ${min}, got ${JSON.stringify(value)}`);
    return n;
  };
}

function number(name: string) {
  return (value: string) => {
    const n = Number(value);
    if (value.trim() === "" || !Number.isFinite(n)) throw new InvalidArgumentError(`${name} must be a number, got ${JSON.stringify(value)}`);
    return n;
  };
}

const collect = (value: string, previous: string[] = []) => [...previous, value];

function parseWeight(value: string, previous: Record<string, number> = {}): Record<string, number> {
  const m = /^([a-z0-9_]+)=(.+)$/i.exec(value);
  if (!m) throw new InvalidArgumentError(`--weight takes NAME=W (e.g. bm25=1.5), got ${JSON.stringify(value)}`);
  if (!(CHANNEL_NAMES as readonly string[]).includes(m[1])) {
    throw new InvalidArgumentError(`--weight: unknown channel ${JSON.stringify(m[1])}; channels are ${CHANNEL_NAMES.join(", ")}`);
  }
  const w = Number(m[2]);
  if (!Number.isFinite(w) || w < 0) throw new InvalidArgumentError(`--weight ${m[1]}: the weight must be a number ≥ 0, got ${JSON.stringify(m[2])}`);
  return { ...previous, [m[1]]: w };
}

function mode(cmd: Command): OutputMode {
  return { json: Boolean((cmd.optsWithGlobals() as GlobalFlags).json) };
}

/** Only commands that add something create a namespace that does not exist yet; a read of one is NOT_FOUND. */
const CREATING_COMMANDS = new Set(["add", "import", "mcp", "demo", "create", "describe"]);

async function withEngine<T>(cmd: Command, fn: (engine: Engine) => Promise<T>, pathOverride?: string): Promise<T> {
  const flags = cmd.optsWithGlobals() as GlobalFlags;
  const config = loadConfigFile(flags.config);
  // a store from before the pyramid was kept on every write is brought up to date on open, with a bar on a terminal
  const bar = progressBar("bringing the summary pyramid up to date", "steps");
  const engine = await openMemory({
    path: pathOverride ?? flags.db ?? config.db ?? defaultStorePath(),
    namespace: flags.namespace,
    createNamespace: CREATING_COMMANDS.has(cmd.name()),
    now: flags.now !== undefined ? parseInstant("--now", flags.now) : undefined,
    search: config.search,
    ...config.engine,
    onPyramidCatchUp: (d, t) => bar.update(d, t),
  }).finally(() => bar.stop());
  try {
    return await fn(engine);
  } finally {
    await engine.close();
  }
}

export function buildProgram(): Command {
  const program = new Command("cascade")
    .description("Memory for AI agents: five retrieval channels fused by weighted RRF over an embedded store.")
    .option("--db <path>", "the store (default $CASCADE_DB, else ./.cascade/memory.db)")
    .option("--json", "print exactly one JSON document on stdout")
    .option("--now <iso>", "fix 'now' for every relative computation (reproducible runs)")
    .option("--config <path>", "config file (default ./cascade.config.json when present)")
    .option("--namespace <name>", "a separate, isolated memory (one per user or agent); default: the default one")
    .showHelpAfterError(false)
    // Commander's own errors are reported by reportError as one line (and as JSON with --json); set before the
    // subcommands are added, so that they inherit it.
    .configureOutput({ outputError: () => {} })
    .exitOverride();

  program
    .command("add")
    .description("remember one thing")
    .argument("<text>", "the memory's text")
    .option("--title <title>")
    .option("--description <text>")
    .option("--tags <a,b>", "comma-separated tags")
    .option("--topic <path>", "topic path, e.g. ops.config")
    .option("--at <iso>", "when it happened (default now)")
    .option("--role <role>")
    .option("--speaker <name>")
    .option("--session <id>")
    .option("--user <id>", "the person this memory is about or for (a scope: search --filter user=ID)")
    .option("--agent <id>", "the agent that wrote it (a scope: search --filter agent=ID)")
    .option("--kind <kind>", "note, turn, decision, document... (default: turn when a speaker or role is set, else note)")
    .option("--metadata <json>", "a JSON object kept with the memory")
    .option("--supersedes <id>", "a memory this one replaces (repeatable)", collect)
    .action(async (text: string, o, cmd: Command) => {
      let metadata: unknown;
      if (o.metadata !== undefined) {
        try {
          metadata = JSON.parse(o.metadata);
        } catch {
          throw new CascadeError("INVALID_INPUT", "--metadata: not valid JSON", { field: "metadata" });
        }
      }
      const input = {
        text,
        title: o.title,
        description: o.description,
        tags: o.tags === undefined ? undefined : String(o.tags).split(",").map((t) => t.trim()).filter(Boolean),
        topic: o.topic,
        at: o.at,
        role: o.role,
        speaker: o.speaker,
        session: o.session,
        user: o.user,
        agent: o.agent,
        kind: o.kind,
        metadata,
        supersedes: o.supersedes,
      };
      const result = await withEngine(cmd, (e) => e.remember(input, { provenance: "user" }));
      emit(mode(cmd), result, () => `remembered ${result.id} (${result.kind}, ${result.at}${result.topic ? `, ${result.topic}` : ""})`);
    });

  program
    .command("import")
    .description("import memories from a JSONL file (one object a line) or a LoCoMo conversation")
    .argument("<file>")
    .addOption(new Option("--format <format>", "input format").choices(["jsonl", "locomo"]).default("jsonl"))
    .option("--no-detect", "do not look for revisions of earlier memories (faster bulk loads)")
    .option("--no-dedupe", "store every line even if the store already holds it (default: skip lines already imported, by ref or content)")
    .action(async (file: string, o, cmd: Command) => {
      requireFile(file);
      const size = statSync(file).size;
      const opts = { detect: o.detect as boolean, dedupe: o.dedupe as boolean };
      const result = await withEngine(cmd, (e) => (o.format === "locomo" ? importLocomo(e, file, opts) : importJsonl(e, file, size, opts)));
      emit(mode(cmd), result, () => {
        const failures = result.failed.map((f) => `  line ${f.line}: ${f.error}`).join("\n");
        return `imported ${result.imported}, skipped ${result.skipped} already stored, failed ${result.failed.length}${failures ? `\n${failures}` : ""}`;
      });
    });

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

  program
    .command("show")
    .description("show one memory")
    .argument("<id>")
    .action(async (id: string, _o, cmd: Command) => {
      const m = await withEngine(cmd, (e) => e.show(id));
      emit(mode(cmd), m, () => formatMemory(m));
    });

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
          : `recomputed ${n} nodes (${r.turns} turns, ${r.recomputed.day} days, ${r.recomputed.week} weeks, ${r.recomputed.month} months): ${r.written} written, ${r.removed} removed, in ${(r.took_ms / 1000).toFixed(1)} s`;
      });
    });
  pyramid
    .command("show")
    .description("list the pyramid's nodes (oldest first)")
    .addOption(new Option("--level <level>", "only this level").choices(["turn", "day", "week", "month"]))
    .action(async (o, cmd: Command) => {
      const r = await withEngine(cmd, (e) => e.pyramid({ level: o.level }));
      emit(mode(cmd), r, () => formatPyramid(r));
    });

  program
    .command("forget")
    .description("remove a memory (or every memory matching --filter/--before) from the store and every index, and rebuild the summaries that quoted it")
    .argument("[id]", "the memory to forget (or give --filter/--before instead)")
    .option("--purge", "also erase every byte of its text from the database file, its log and its indexes (rewrites the store)")
    .option("--filter <cond>", FILTER_HELP, keepWhole)
    .option("--before <iso>", "with no id: every memory that happened before this time (with --filter: and matching it)")
    .option("--dry-run", "with --filter/--before: list what would be forgotten and change nothing")
    .action(async (id: string | undefined, o, cmd: Command) => {
      const byFilter = o.filter !== undefined || o.before !== undefined;
      if (id !== undefined && byFilter) throw new CascadeError("INVALID_INPUT", "forget: give an id or --filter/--before, not both", { field: "id" });
      if (id === undefined && !byFilter) throw new CascadeError("INVALID_INPUT", "forget: give the id of a memory, or --filter KEY=VALUE / --before ISO", { field: "id" });
      if (id === undefined) {
        const r = await withEngine(cmd, (e) => e.forgetWhere({ where: filterConditions(o), before: o.before, dryRun: Boolean(o.dryRun), purge: Boolean(o.purge) }));
        emit(mode(cmd), r, () =>
          r.dry_run
            ? `would forget ${r.matched} memor${r.matched === 1 ? "y" : "ies"} (dry run: nothing changed)${r.ids.length ? `\n${r.ids.join("\n")}` : ""}`
            : `forgot ${r.forgotten} memor${r.forgotten === 1 ? "y" : "ies"}${r.summaries_rebuilt ? ` (${r.summaries_rebuilt} summaries rebuilt)` : ""}${r.purged ? "; purged" : ""}`,
        );
        return;
      }
      if (o.dryRun) throw new CascadeError("INVALID_INPUT", "forget: --dry-run goes with --filter/--before", { field: "dry-run" });
      const r = await withEngine(cmd, (e) => e.forget(id, { purge: Boolean(o.purge) }));
      emit(mode(cmd), r, () => `forgot ${r.id}${r.summaries_rebuilt ? ` (${r.summaries_rebuilt} summaries rebuilt)` : ""}${r.purged ? (r.purged.checkpointed ? "; purged from the store's files" : "; purged, but another process holds the log open: purge again later") : ""}`);
    });

  program
    .command("supersede")
    .description("record that NEW replaces OLD from --at on (default: NEW's event time)")
    .argument("<new>")
    .argument("<old>")
    .option("--reason <text>")
    .option("--at <iso>")
    .action(async (newId: string, oldId: string, o, cmd: Command) => {
      const edge = await withEngine(cmd, (e) => e.supersede(newId, oldId, { reason: o.reason, at: o.at, provenance: "user" }));
      emit(mode(cmd), edge, () => `${edge.from} supersedes ${edge.to} from ${edge.valid_from} (edge ${edge.id})`);
    });

  program
    .command("history")
    .description("a memory's supersession chain, oldest to newest, and every edge touching it")
    .argument("<id>")
    .option("--as-of <iso>")
    .option("--known-at <iso>")
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

  registerGraphCommands(program, { withEngine, mode });

  program
    .command("suggestions")
    .description("revisions detected below the confidence threshold; accept or reject them")
    .option("--accept <id>")
    .option("--reject <id>")
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

  program
    .command("topics")
    .description("the topic tree with direct and total counts")
    .option("--under <topic>")
    .action(async (o, cmd: Command) => {
      const t = await withEngine(cmd, (e) => e.topics(o.under));
      emit(mode(cmd), t, () => formatTopicTree(t.topics));
    });

  const topic = program.command("topic").description("manage the taxonomy: create, describe, move, merge and delete topics");
  topic
    .command("create")
    .description("create a topic (its ancestors need not exist); a description helps automatic placement")
    .argument("<path>")
    .option("--description <text>")
    .action(async (path: string, o, cmd: Command) => {
      const t = await withEngine(cmd, (e) => e.createTopic(path, { description: o.description }));
      emit(mode(cmd), t, () => `topic ${t.path}${t.description ? ` — ${t.description}` : ""} (${t.total} memories)`);
    });
  topic
    .command("describe")
    .description("set a topic's description (creating the topic if needed)")
    .argument("<path>")
    .argument("<description>")
    .action(async (path: string, description: string, _o, cmd: Command) => {
      const t = await withEngine(cmd, (e) => e.createTopic(path, { description }));
      emit(mode(cmd), t, () => `topic ${t.path} — ${t.description}`);
    });
  for (const [name, what] of [
    ["move", "move or rename a subtree: every memory and topic at FROM or below it, atomically (TO must be free)"],
    ["merge", "merge FROM and its subtree into TO, which may already hold memories"],
  ] as const) {
    topic
      .command(name)
      .description(what)
      .argument("<from>")
      .argument("<to>")
      .action(async (from: string, to: string, _o, cmd: Command) => {
        const r = await withEngine(cmd, (e) => (name === "move" ? e.moveTopic(from, to) : e.mergeTopic(from, to)));
        emit(mode(cmd), r, () => `${name === "move" ? "moved" : "merged"} ${r.from} → ${r.to} (${r.memories} memories re-pathed)`);
      });
  }
  topic
    .command("delete")
    .description("delete an empty topic (and the empty topics below it)")
    .argument("<path>")
    .action(async (path: string, _o, cmd: Command) => {
      const r = await withEngine(cmd, (e) => e.deleteTopic(path));
      emit(mode(cmd), r, () => `deleted topic ${r.path}`);
    });

  program
    .command("serve")
    .description("HTTP JSON API (loopback by default; a token is required on any other address)")
    .option("--host <host>", "address to listen on", "127.0.0.1")
    .option("--port <port>", "port (0 picks a free one)", integer("--port", 0), 7373)
    .option("--token <token>", "bearer token every route but /health requires (default $CASCADE_TOKEN)")
    .option("--allow-origin <origin>", "let web pages from this origin (https://app.example) call the API (repeatable)", collect)
    .option("--allow-host <name>", "accept this Host name too, e.g. a reverse proxy's (repeatable)", collect)
    .option("--max-namespaces <n>", "namespaces the server may create (default 1000)", integer("--max-namespaces", 0))
    .option("--open-namespaces <n>", "stores kept open at once (default 32)", integer("--open-namespaces", 1))
    .action(async (o, cmd: Command) => {
      const flags = cmd.optsWithGlobals() as GlobalFlags;
      const config = loadConfigFile(flags.config);
      const space = new MemorySpace(flags.db ?? config.db ?? defaultStorePath(), {
        now: flags.now !== undefined ? parseInstant("--now", flags.now) : undefined,
        search: config.search,
        ...config.engine,
        limits: { maxNamespaces: o.maxNamespaces ?? config.serve?.maxNamespaces, openStores: o.openNamespaces ?? config.serve?.openNamespaces },
      });
      await serveUntilSignal(space, {
        host: o.host,
        port: o.port,
        token: o.token ?? process.env.CASCADE_TOKEN,
        allowOrigins: o.allowOrigin ?? config.serve?.allowOrigins,
        allowHosts: o.allowHost ?? config.serve?.allowHosts,
      });
    });

  program
    .command("mcp")
    .description("Model Context Protocol server on stdio (tools memory_search, memory_add, memory_supersede, memory_history, memory_topics)")
    .action(async (_o, cmd: Command) => {
      await withEngine(cmd, (e) => serveMcpOverStdio(e));
    });

  program
    .command("doctor")
    .description("check that the store's indexes agree with its tables (exit 1 if not); --repair rebuilds them")
    .option("--repair", "rebuild the indexes that disagree from the tables")
    .action(async (o, cmd: Command) => {
      const r = await withEngine(cmd, (e) => e.doctor({ repair: o.repair }));
      emit(mode(cmd), r, () =>
        [...r.checks.map((c) => `${c.ok ? "ok      " : c.repaired ? "REPAIRED" : "FAILED  "}  ${c.name}: ${c.detail}`), r.ok ? "the store is healthy" : "problems found: run cascade doctor --repair"].join("\n"),
      );
      if (!r.ok) process.exitCode = 1;
    });

  program
    .command("stats")
    .description("counts and size of the store")
    .action(async (_o, cmd: Command) => {
      const s = await withEngine(cmd, (e) => e.stats());
      emit(mode(cmd), s, () => `${s.memories} memories, ${s.chunks} chunks, ${s.terms} terms, ${(s.bytes / 1e6).toFixed(1)} MB, embedder ${s.embedder}`);
    });

  registerListCommand(program, withEngine, mode);

  program
    .command("demo")
    .description("load a sample team's memories into a fresh store and show fused search")
    .action(async (_o, cmd: Command) => {
      const flags = cmd.optsWithGlobals() as GlobalFlags;
      const dir = flags.db ? null : mkdtempSync(join(tmpdir(), "cascade-demo-"));
      const path = flags.db ?? join(dir!, "demo.db");
      cmd.setOptionValueWithSource("now", flags.now ?? DEMO_NOW, "default");
      try {
        const result = await withEngine(
          cmd,
          async (e) => {
            const imported = await e.rememberMany(demoCorpus);
            const answers = [];
            for (const q of demoQueries) answers.push({ ...q, result: await e.recall(q.query, { k: q.k }) });
            return { imported: imported.imported, store: flags.db ?? null, queries: answers };
          },
          path,
        );
        emit(mode(cmd), result, () =>
          [
            `Loaded ${result.imported} memories of a payments team (Feb–Jun 2026) into ${flags.db ?? "a temporary store"}.`,
            ...result.queries.map((q) => `\n$ cascade search ${JSON.stringify(q.query)}\n  (${q.why})\n${formatSearch(q.result)}`),
            `\nEach hit lists the channels that found it and its rank in each ([bm25#1 dense#3 ...]); the score is the weighted RRF sum.`,
          ].join("\n"),
        );
      } finally {
        if (dir) rmSync(dir, { recursive: true, force: true });
      }
    });

  program
    .command("eval")
    .description("measure retrieval quality: eval locomo PATH (a LoCoMo conversation file or a folder of them)")
    .argument("<dataset>", "locomo")
    .argument("<path>")
    .option("--no-ablation", "measure only the default configuration (not each channel alone and left out)")
    .option("--pyramid", "the summary pyramid on (the default)")
    .option("--no-pyramid", "the summary pyramid off: no summaries in hits, no context")
    .option("--summary-credit", "count a summary hit as retrieving the turns its sentences came from")
    .option("--budget-words <n>", "also report evidence@N: evidence read within N words of results and context (repeatable: 250, 500, 1000, 2000)", (v: string, prev: number[] = []) => [...prev, integer("--budget-words", 1)(v)])
    .addOption(new Option("--time <mode>", "time expressions in questions: boost, restrict or off").choices(["boost", "restrict", "off"]))
    .option("--cv", "leave-one-conversation-out over the tuned settings: in-sample beside cross-validated")
    .option("--grid <file>", "with --cv: the candidate settings, a JSON array of {name, engine, search} (first = baseline)")
    .action(async (dataset: string, path: string, o, cmd: Command) => {
      if (dataset !== "locomo") throw new CascadeError("INVALID_INPUT", `eval: unknown dataset ${JSON.stringify(dataset)}; known: locomo`, { field: "dataset" });
      const flags = cmd.optsWithGlobals() as GlobalFlags;
      const config = loadConfigFile(flags.config);
      const conversations = loadLocomo(path);
      const embedder = defaultGloveEmbedder();
      if (o.cv || o.grid) {
        const cvBar = progressBar("cross-validating", "runs");
        const search = o.time ? { time: o.time } : undefined;
        const cv = await runCvCommand(conversations, { embedder, tokens: embedder, stores: scratchStores() }, { grid: o.grid, ablation: o.ablation, engine: { search: config.search, ...config.engine }, search, onProgress: (d, t) => cvBar.update(d, t) }).finally(() => cvBar.stop());
        emit(mode(cmd), cv, () => formatCv(cv));
        return;
      }
      const bar = progressBar("evaluating", "questions");
      let report: EvalReport;
      try {
        report = await evaluateLocomo(conversations, { embedder, tokens: embedder, stores: scratchStores() }, {
            engine: { search: config.search, ...config.engine },
            ablation: o.ablation,
            pyramid: o.pyramid,
            summaryCredit: Boolean(o.summaryCredit),
            budgets: o.budgetWords,
            search: o.time ? { time: o.time } : undefined,
          }, (d, t) => bar.update(d, t));
      } finally {
        bar.stop();
      }
      emit(mode(cmd), report, () => formatEval(report));
    });

  program
    .command("bench")
    .description("generate a seeded synthetic corpus, import it, and measure ingest, size, latency and memory")
    .option("--chunks <n>", "corpus size in chunks", integer("--chunks", 1), 10_000)
    .option("--queries <n>", "queries timed per configuration", integer("--queries", 1), 200)
    .option("--seed <n>", "corpus seed", integer("--seed", 0), 42)
    .option("--pyramid", "instead: time a full summary-pyramid build over --chunks turns spread over two years, and a refresh after 100 more")
    .option("--topics", "instead: --chunks memories over 1,000 topics; fused queries with and without --under (1%), and the tree listing")
    .option("--filters", "instead: --chunks memories with users and metadata; fused queries with and without scope and metadata filters")
    .option("--no-pyramid", "the summary pyramid off: not maintained during ingest, no context in searches")
    .action(async (o, cmd: Command) => {
      if (o.filters) {
        const bar = progressBar("filter bench", "steps");
        const r = await runFilterBench(defaultGloveEmbedder(), { stores: scratchStores("files"), memories: o.chunks, queries: o.queries, seed: o.seed, onProgress: (_p, d, t) => bar.update(d, t) }).finally(() => bar.stop());
        emit(mode(cmd), r, () => formatFilterBench(r));
        return;
      }
      if (o.topics) {
        const bar = progressBar("topic bench", "steps");
        const r = await runTopicBench(defaultGloveEmbedder(), { stores: scratchStores("files"), memories: o.chunks, queries: o.queries, seed: o.seed, onProgress: (_p, d, t) => bar.update(d, t) }).finally(() => bar.stop());
        emit(mode(cmd), r, () => formatTopicBench(r));
        return;
      }
      if (o.pyramid) {
        const bar = progressBar("pyramid bench", "steps");
        const r = await runPyramidBench(defaultGloveEmbedder(), { stores: scratchStores("files"), turns: o.chunks, seed: o.seed, onProgress: (_p, d, t) => bar.update(d, t) }).finally(() => bar.stop());
        emit(mode(cmd), r, () => formatPyramidBench(r));
        return;
      }
      const bar = progressBar("bench", "steps");
      let report: BenchReport;
      try {
        report = await runBench(defaultGloveEmbedder(), { stores: scratchStores("files"), chunks: o.chunks, queries: o.queries, seed: o.seed, pyramid: o.pyramid, onProgress: (_p, d, t) => bar.update(d, t) });
      } finally {
        bar.stop();
      }
      emit(mode(cmd), report, () => formatBench(report));
    });

  return program;
}

async function importJsonl(engine: Engine, file: string, size: number, opts: { detect: boolean; dedupe: boolean }) {
  const bar = progressBar("importing", "bytes");
  const failed: { line: number; error: string }[] = [];
  let imported = 0;
  let skipped = 0;
  try {
    for await (const { items, bytesRead } of readJsonlBatches(file, 512)) {
      const good = items.filter((i): i is Extract<typeof i, { input: unknown }> => "input" in i);
      for (const i of items) if ("error" in i) failed.push({ line: i.line, error: i.error });
      const r = await engine.rememberMany(good.map((g) => g.input), opts).catch((err) => {
        throw stoppedImport(err, imported, good[0]?.line, opts.dedupe);
      });
      imported += r.imported;
      skipped += r.skipped;
      for (const f of r.failed) failed.push({ line: good[f.index].line, error: f.error });
      bar.update(bytesRead, size);
    }
  } finally {
    bar.stop();
  }
  return { imported, skipped, failed: failed.sort((a, b) => a.line - b.line) };
}

async function importLocomo(engine: Engine, file: string, opts: { detect: boolean; dedupe: boolean }) {
  let json: unknown;
  try {
    json = JSON.parse(readFileSync(file, "utf8"));
  } catch (err) {
    throw new CascadeError("INVALID_INPUT", `import: ${file} is not valid JSON (${(err as Error).message})`, { field: "file" });
  }
  const conv = readLocomoConversation(json, file);
  const bar = progressBar("importing", "turns");
  try {
    const r = await engine.rememberMany(conv.turns.map((t) => t.input), { ...opts, onProgress: (d, t) => bar.update(d, t) });
    return { imported: r.imported, skipped: r.skipped, failed: r.failed.map((f) => ({ line: f.index + 1, error: f.error })) };
  } finally {
    bar.stop();
  }
}
