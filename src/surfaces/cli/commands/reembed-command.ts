/**
 * @module surfaces/cli/commands/reembed-command
 * `cascade reembed --embedder SPEC`: a thin shell over the SDK's reembedStore (api/reembed). A bar on a terminal's
 * stderr (done/total, chunks a second, time left); with --json, one progress event a batch as a JSON line on
 * stderr (stdout keeps its one document: the report).
 */
import type { Command } from "commander";
import { InvalidArgumentError } from "commander";
import { reembedStore, type EmbedderSpec, type ReembedReport } from "../../../index.js";
import { integer } from "../flags.js";
import { emit } from "../output.js";
import { globalFlags, type CliContext } from "../context.js";
import { io } from "../io.js";
import { settings } from "../settings.js";
import { progressBar } from "../progress.js";

/** `glove`, or a spec as JSON (the config file's engine.embedder): the SDK checks its fields. */
function embedderFlag(value: string): EmbedderSpec {
  const text = value.trim();
  if (/^[a-z-]+$/.test(text)) return { provider: text } as EmbedderSpec;
  try {
    return JSON.parse(text) as EmbedderSpec;
  } catch {
    throw new InvalidArgumentError(`--embedder must be glove or a JSON spec such as '{"provider":"openai-compatible","baseURL":"…","model":"…","dimensions":768}'`);
  }
}

function formatReport(r: ReembedReport): string {
  if (!r.switched) return `the store is already on ${r.to.id} (${r.to.dimensions}-d): nothing to do`;
  const from = r.from ? `${r.from.id} (${r.from.dimensions}-d)` : "no embedder";
  const resumed = r.resumed ? `, ${r.resumed} kept from an earlier run` : "";
  return `moved ${r.chunks} chunks from ${from} to ${r.to.id} (${r.to.dimensions}-d) in ${(r.took_ms / 1000).toFixed(1)} s: ${r.embedded} embedded (${r.chunks_per_s} chunks/s)${resumed}`;
}

export function registerReembedCommand(program: Command, { mode }: CliContext): void {
  program
    .command("reembed")
    .description("move the store to another embedder: new vectors are built beside the old (searches go on), then switched in one transaction; re-run to resume")
    .option("--embedder <spec>", "glove, or a JSON spec (as engine.embedder in the config file); default: the configured embedder", embedderFlag)
    .option("--batch <n>", "chunks per embedder call and per transaction", integer("--batch", 1, 100_000))
    .addHelpText("after", `\nExample: cascade reembed --embedder '{"provider":"openai-compatible","baseURL":"http://localhost:11434/v1","model":"nomic-embed-text","dimensions":768}'`)
    .action(async (o: { embedder?: EmbedderSpec; batch?: number }, cmd: Command) => {
      const flags = globalFlags(cmd);
      const s = settings(flags);
      const json = mode(cmd).json;
      const embedder = o.embedder ?? (s.engine as { embedder?: EmbedderSpec }).embedder;
      if (!embedder) throw new InvalidArgumentError("--embedder is required (or engine.embedder in the config file)");
      const bar = json ? null : progressBar("re-embedding", "chunks", { rate: true });
      let report: ReembedReport;
      try {
        report = await reembedStore({
          path: s.path,
          namespace: flags.namespace,
          embedder,
          batch: o.batch,
          onProgress: (p) => {
            if (json) io().stderr.write(JSON.stringify({ event: "progress", done: p.done, total: p.total, rate: Math.round(p.rate * 10) / 10, eta_s: p.eta_s === null ? null : Math.round(p.eta_s) }) + "\n");
            else bar!.update(p.done, p.total, p.rate);
          },
        });
      } finally {
        bar?.stop();
      }
      emit(mode(cmd), report, () => formatReport(report));
    });
}
