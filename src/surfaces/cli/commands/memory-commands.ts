/**
 * @module surfaces/cli/commands/memory-commands
 * `cascade add`, `import`, `show` and `forget`: writing, reading and removing single memories and files of them.
 */
import { readFileSync, statSync } from "node:fs";
import { basename } from "node:path";
import { type Command, Option } from "commander";
import { CascadeError, countOf, memoryInputSchema, isExportedMemory, readJsonlBatches, readMem0Export, requireFile, stoppedImport, storedBeforeFailure, readLocomoConversation, inSpan, type Engine, type MemoryInput } from "../../../index.js";
import { emit } from "../output.js";
import { progressBar } from "../progress.js";
import { FILTER_HELP, filterConditions, keepWhole } from "../filter-flag.js";
import { collect } from "../flags.js";
import { addedText } from "../text-input.js";
import { type CliContext } from "../context.js";
import { setExitCode } from "../io.js";
import { registerShowCommand } from "./read-commands.js";

/** `--metadata JSON`, parsed (the engine checks that it is an object). */
function metadataFlag(value: string | undefined): Record<string, unknown> | undefined {
  if (value === undefined) return undefined;
  try {
    return JSON.parse(value) as Record<string, unknown>;
  } catch {
    throw new CascadeError("INVALID_INPUT", "--metadata: not valid JSON", { field: "metadata" });
  }
}

/** A flag's help is the field's own description in the one memory schema (ingest/validate-memory.ts). */
const field = (name: keyof typeof memoryInputSchema.shape): string => memoryInputSchema.shape[name].description ?? name;

export function registerMemoryCommands(program: Command, context: CliContext): void {
  const { withEngine, mode } = context;
  program
    .command("add")
    .description("remember one thing")
    .argument("[text]", `${field("text")}; - reads it from standard input`)
    .option("--file <path>", "read the text from this file (UTF-8; one line break at its end dropped, as with -)")
    .option("--title <title>", field("title"))
    .option("--description <text>", field("description"))
    .option("--tags <a,b>", `${field("tags")}, comma-separated`)
    .option("--topic <path>", field("topic"))
    .option("--at <iso>", field("at"))
    .option("--role <role>", field("role"))
    .option("--speaker <name>", field("speaker"))
    .option("--session <id>", field("session"))
    .option("--user <id>", field("user"))
    .option("--agent <id>", field("agent"))
    .option("--kind <kind>", field("kind"))
    .option("--metadata <json>", field("metadata"))
    .option("--supersedes <id>", "a memory this one replaces (repeatable)", collect)
    .option("--expires <iso>", `${field("expires")} (forget --expired removes it)`)
    .option("--ttl <duration>", field("ttl"))
    .action(async (argument: string | undefined, o, cmd: Command) => {
      const metadata = metadataFlag(o.metadata);
      const text = await addedText(argument, o.file);
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
        expires: o.expires,
        ttl: o.ttl,
      };
      // flags are strings; the engine checks every field at its boundary whatever its static type
      const result = await withEngine(cmd, (e) => e.remember(input as MemoryInput, { provenance: "user" }));
      emit(mode(cmd), result, () =>
        [
          `${result.existing ? "already stored (its ref), nothing new written:" : "remembered"} ${result.id} (${result.kind}, ${result.at}${result.topic ? `, ${result.topic}` : ""})`,
          ...result.edges.map((e) => `  supersedes ${e.to} (${e.provenance === "heuristic" || e.provenance === "llm" ? `detected, confidence ${e.confidence.toFixed(2)}` : "as you said"})`),
          ...result.suggestions.map((s) => `  may revise ${s.to} (confidence ${s.confidence.toFixed(2)}): cascade suggestions --accept ${s.id}`),
          ...(result.warnings ?? []).map((w) => `  warning: stored without ${w.step}: ${w.reason}`),
        ].join("\n"),
      );
    });

  program
    .command("import")
    .description("import memories from a JSONL file (one object a line, or what cascade export wrote), a LoCoMo conversation or a Mem0 get_all export")
    .argument("<file>")
    .addOption(new Option("--format <format>", "input format").choices(["jsonl", "locomo", "mem0"]).default("jsonl"))
    .option("--no-detect", "do not look for revisions of earlier memories (faster bulk loads)")
    .option("--no-dedupe", "store every line even if the store already holds it (default: skip lines already imported, by ref or content)")
    .action(async (file: string, o, cmd: Command) => {
      requireFile(file);
      const size = statSync(file).size;
      const opts = { detect: o.detect as boolean, dedupe: o.dedupe as boolean };
      const result = await withEngine(cmd, (e) =>
        // one span for the whole file, its write batches' spans inside it (a no-op without a tracer provider)
        inSpan("cascade.import", { "cascade.format": o.format }, async (span) => {
          const r = await (o.format === "locomo" ? importLocomo(e, file, opts) : o.format === "mem0" ? importMem0(e, file, opts) : importJsonl(e, file, size, opts));
          span.setAttributes({ "cascade.imported": r.imported, "cascade.skipped": r.skipped, "cascade.failed": r.failed.length });
          return r;
        }),
      );
      emit(mode(cmd), result, () => {
        const failures = result.failed.map((f) => `  line ${f.line}: ${f.error}`).join("\n");
        const warned = result.warnings.map((w) => `  line ${w.line}: warning: stored without ${w.step}: ${w.reason}`).join("\n");
        return `imported ${result.imported}, skipped ${result.skipped} already stored, failed ${result.failed.length}${failures ? `\n${failures}` : ""}${warned ? `\n${warned}` : ""}`;
      });
      setExitCode(importExitCode(result));
    });

  registerShowCommand(program, context);

  program
    .command("update")
    .description("correct what a memory says (same id, time and edges; history keeps the old text). A reversed decision is a new memory: add --supersedes")
    .argument("<id>")
    .option("--text <text>", "the corrected text")
    .option("--title <title>", "a new title (\"\" clears it)")
    .option("--description <text>", "a new description (\"\" clears it)")
    .option("--tags <a,b>", "the new tags, comma-separated (\"\" clears them)")
    .option("--topic <path>", "a new topic path (\"\" clears it)")
    .option("--metadata <json>", "the new metadata object")
    .option("--expires <iso>", "a new expiry (\"\" clears it)")
    .option("--ttl <duration>", "a new expiry as a duration from the memory's time: 90m, 12h, 30d, 2w")
    .action(async (id: string, o, cmd: Command) => {
      const cleared = (v: string | undefined) => (v === undefined ? undefined : v === "" ? null : v);
      const metadata = metadataFlag(o.metadata);
      const changes = {
        text: o.text,
        title: cleared(o.title),
        description: cleared(o.description),
        tags: o.tags === undefined ? undefined : String(o.tags).split(",").map((t) => t.trim()).filter(Boolean),
        topic: cleared(o.topic),
        metadata,
        expires: cleared(o.expires),
        ttl: o.ttl,
      };
      const m = await withEngine(cmd, (e) => e.update(id, Object.fromEntries(Object.entries(changes).filter(([, v]) => v !== undefined))));
      emit(mode(cmd), m, () => `corrected ${m.id}; it now reads: ${m.text}`);
    });

  program
    .command("forget")
    .description("remove a memory (or every memory matching --filter/--before) from the store and every index, and rebuild the summaries that quoted it")
    .argument("[id]", "the memory to forget (or give --filter/--before instead)")
    .option("--purge", "also erase every byte of its text from the database file, its log and its indexes (rewrites the store); on an id forgotten already, finish that forget as `cascade purge` does")
    .option("--filter <cond>", FILTER_HELP, keepWhole)
    .option("--before <iso>", "with no id: every memory that happened before this time (with --filter: and matching it)")
    .option("--expired", "with no id: every memory whose expiry (add --expires/--ttl) has passed")
    .option("--dry-run", "with --filter/--before/--expired: list what would be forgotten and change nothing")
    .action(async (id: string | undefined, o, cmd: Command) => {
      const byFilter = o.filter !== undefined || o.before !== undefined || Boolean(o.expired);
      if (id !== undefined && byFilter) throw new CascadeError("INVALID_INPUT", "forget: give an id or --filter/--before, not both", { field: "id" });
      if (id === undefined && !byFilter) throw new CascadeError("INVALID_INPUT", "forget: give the id of a memory, or --filter KEY=VALUE / --before ISO", { field: "id" });
      if (id === undefined) {
        const r = await withEngine(cmd, async (e) => e.forgetWhere({ where: await filterConditions(o), before: o.before, expired: Boolean(o.expired), dryRun: Boolean(o.dryRun), purge: Boolean(o.purge) }));
        emit(mode(cmd), r, () =>
          r.dry_run
            ? `would forget ${r.matched} memor${r.matched === 1 ? "y" : "ies"} (dry run: nothing changed)${r.ids.length ? `\n${r.ids.join("\n")}` : ""}`
            : `forgot ${countOf(r.forgotten, "memory")}${r.summaries_rebuilt ? ` (${countOf(r.summaries_rebuilt, "summary")} rebuilt)` : ""}${r.purged ? "; purged" : ""}`,
        );
        return;
      }
      if (o.dryRun) throw new CascadeError("INVALID_INPUT", "forget: --dry-run goes with --filter/--before", { field: "dry-run" });
      const r = await withEngine(cmd, (e) => e.forget(id, { purge: Boolean(o.purge) }));
      const rebuilt = r.summaries_rebuilt ? ` (${countOf(r.summaries_rebuilt, "summary")} rebuilt)` : "";
      const purged = r.purged ? (r.purged.checkpointed ? "; purged from the store's files" : `; purged, but ${LOG_HELD}`) : "";
      emit(mode(cmd), r, () => (r.forgotten ? `forgot ${r.id}${rebuilt}${purged}` : `${r.id} was not in the store (forgotten already)${rebuilt}${purged}`));
    });

  program
    .command("purge")
    .description("erase every remnant of what was forgotten: rebuild the summaries a forget did not get to, then erase the text from the store's files")
    .addHelpText(
      "after",
      "\nNeeds no id: it finishes any forget, one killed after its delete committed included (forget ID --purge on a\n" +
        "forgotten id does the same). Rewrites the whole store (VACUUM), so it takes time in proportion to its size.",
    )
    .action(async (_o, cmd: Command) => {
      const r = await withEngine(cmd, (e) => e.purge());
      const parts = [
        r.summaries_rebuilt ? `${countOf(r.summaries_rebuilt, "summary")} rebuilt` : "",
        r.turn_summaries_removed ? `${countOf(r.turn_summaries_removed, "orphan turn summary")} removed` : "",
        `${countOf(r.terms_dropped, "unused word")} dropped`,
      ].filter(Boolean);
      emit(mode(cmd), r, () => `purged: ${parts.join(", ")}${r.checkpointed ? "; nothing forgotten is left in the store's files" : `; but ${LOG_HELD}`}`);
    });
}

const LOG_HELD = "another process holds the log open: purge again later";

/**
 * What a script reads from an import: 0 when every line was stored (or already was), 1 when some lines failed,
 * 2 when every line failed (nothing stored: the file is the mistake).
 */
function importExitCode(r: { imported: number; skipped: number; failed: unknown[] }): number {
  if (r.failed.length === 0) return 0;
  return r.imported + r.skipped === 0 ? 2 : 1;
}

/** Reads a JSONL file: new memories' inputs, and the lines of a `cascade export` (restored with their ids, times and edges). */
async function importJsonl(engine: Engine, file: string, size: number, opts: { detect: boolean; dedupe: boolean }) {
  const bar = progressBar("importing", "bytes");
  const failed: { line: number; error: string }[] = [];
  const warnings: { line: number; step: string; reason: string }[] = [];
  const restorer = engine.restorer();
  const restoredLines: number[] = [];
  let imported = 0;
  let skipped = 0;
  try {
    // several write batches a call, so the engine drafts each while the one before it is written (api/write-path.ts)
    for await (const { items, bytesRead } of readJsonlBatches(file, 2048)) {
      const parsed = items.filter((i): i is Extract<typeof i, { input: unknown }> => "input" in i);
      const exported = parsed.filter((i) => isExportedMemory(i.input));
      const good = parsed.filter((i) => !isExportedMemory(i.input));
      for (const i of items) if ("error" in i) failed.push({ line: i.line, error: i.error });
      restoredLines.push(...exported.map((i) => i.line));
      await restorer.add(exported.map((i) => i.input));
      const r = await engine.rememberMany(good.map((g) => g.input as unknown as MemoryInput), opts).catch((err) => {
        // the batches of this call committed before the failure count too: the answer is what the store holds
        const got = storedBeforeFailure(err);
        throw stoppedImport(got?.failure ?? err, imported + (got?.stored ?? 0), (got ? good[got.from] : good[0])?.line, opts.dedupe);
      });
      imported += r.imported;
      skipped += r.skipped;
      for (const f of r.failed) failed.push({ line: good[f.index].line, error: f.error });
      for (const w of r.warnings) warnings.push({ line: good[w.index].line, step: w.step, reason: w.reason });
      bar.update(bytesRead, size);
    }
    const restored = await restorer.finish();
    imported += restored.imported;
    skipped += restored.skipped;
    for (const f of restored.failed) failed.push({ line: restoredLines[f.index], error: f.error });
  } finally {
    bar.stop();
  }
  return { imported, skipped, failed: failed.sort((a, b) => a.line - b.line), warnings };
}

function readJsonFile(file: string): unknown {
  try {
    return JSON.parse(readFileSync(file, "utf8"));
  } catch (err) {
    throw new CascadeError("INVALID_INPUT", `import: ${file} is not valid JSON (${(err as Error).message})`, { field: "file" });
  }
}

/** A Mem0 get_all export (ingest/mem0.ts has the mapping); `line` is the item's position in the list. */
async function importMem0(engine: Engine, file: string, opts: { detect: boolean; dedupe: boolean }) {
  const { items, failed } = readMem0Export(readJsonFile(file));
  const r = await engine.rememberMany(items.map((i) => i.input), opts);
  const line = (index: number) => items[index].line;
  return {
    imported: r.imported,
    skipped: r.skipped,
    failed: [...failed, ...r.failed.map((f) => ({ line: line(f.index), error: f.error }))].sort((a, b) => a.line - b.line),
    warnings: r.warnings.map((w) => ({ line: line(w.index), step: w.step, reason: w.reason })),
  };
}

async function importLocomo(engine: Engine, file: string, opts: { detect: boolean; dedupe: boolean }) {
  const json = readJsonFile(file);
  // named by the file, so that each turn's ref ("conv-26#D1:3") is unique across conversations in one store
  const conv = readLocomoConversation(json, basename(file, ".json"));
  const bar = progressBar("importing", "turns");
  try {
    const r = await engine.rememberMany(conv.turns.map((t) => t.input), { ...opts, onProgress: (d, t) => bar.update(d, t) });
    const line = (index: number) => index + 1;
    return {
      imported: r.imported,
      skipped: r.skipped,
      failed: r.failed.map((f) => ({ line: line(f.index), error: f.error })),
      warnings: r.warnings.map((w) => ({ line: line(w.index), step: w.step, reason: w.reason })),
    };
  } finally {
    bar.stop();
  }
}
