/**
 * @module surfaces/cli/commands/eval-commands
 * `cascade eval` and `cascade bench`: retrieval quality on a dataset (LoCoMo, BEAM, LongMemEval, MADial, JSONL,
 * or several at once) and revision detection on labelled pairs, speed on a synthetic corpus.
 */
import { type Command, Option } from "commander";
import { CascadeError, METRIC_NAMES, DATASET_NAMES, evaluateRevisions, formatRevisionEval, defaultGloveEmbedder, scratchStores, runCvCommand, formatCv, evaluate, loadDatasets, runBench, runPyramidBench, runTopicBench, runFilterBench, type BenchReport, type EvalReport } from "../../../index.js";
import { formatFilterBench, formatBench, formatEval, formatPyramidBench, formatTopicBench } from "../format.js";
import { emit } from "../output.js";
import { progressBar } from "../progress.js";
import { integer, storeFlag, type StoreFlag } from "../flags.js";
import { boundHeapGrowth, DEFAULT_HEAP_GROWTH_PERCENT } from "../../heap.js";
import { globalFlags, type CliContext } from "../context.js";
import { io } from "../io.js";
import { settings } from "../settings.js";

export function registerEvalCommands(program: Command, { mode }: CliContext): void {
  const evalCommand = program
    .command("eval")
    .description(`measure retrieval quality: eval DATASET PATH (${DATASET_NAMES.join(", ")}), or eval mixed --DATASET PATH... (several; --cv leaves one dataset out); or revision detection: eval revisions FILE... (labelled pairs, JSONL)`)
    .argument("<dataset>", [...DATASET_NAMES, "mixed", "revisions"].join(", "))
    .argument("[paths...]", "the dataset's file or folder (none for mixed; one or more JSONL files for revisions)")
    .option("--no-ablation", "measure only the default configuration (not each channel alone and left out)")
    .option("--pyramid", "the summary pyramid on (the default)")
    .option("--no-pyramid", "the summary pyramid off: no summaries in hits, no context")
    .option("--summary-credit", "count a summary hit as retrieving the turns its sentences came from")
    .option("--budget-words <n>", "also report evidence@N: evidence read within N words of results and context (repeatable: 250, 500, 1000, 2000)", (v: string, prev: number[] = []) => [...prev, integer("--budget-words", 1)(v)])
    .addOption(new Option("--time <mode>", "time expressions in questions: boost, restrict or off").choices(["boost", "restrict", "off"]))
    .option("--cv", "leave-one-conversation-out (mixed: leave-one-dataset-out) over the tuned settings: in-sample beside cross-validated")
    .option("--grid <file>", "with --cv: the candidate settings, a JSON array of {name, engine, search} (first = baseline)")
    .addOption(new Option("--select-by <metric>", "with --cv: the metric each fold chooses its setting by").choices(METRIC_NAMES).default("recall@10"))
    .option("--store <kind>", "the store each conversation is loaded into: sqlite (in memory), pglite (PostgreSQL in process) or a postgres:// URL (a namespace per conversation, deleted after)", storeFlag, "sqlite");
  // `eval mixed` takes each dataset by a flag of its name
  for (const name of DATASET_NAMES) evalCommand.option(`--${name} <path>`, `with mixed: a ${name} dataset`);
  evalCommand.action(async (dataset: string, files: string[], o, cmd: Command) => {
      if (dataset === "revisions") {
        if (files.length === 0) throw new CascadeError("INVALID_INPUT", "eval revisions: name one or more JSONL files of labelled pairs", { field: "path" });
        const report = await evaluateRevisions(files, settings(globalFlags(cmd)).engine);
        emit(mode(cmd), report, () => formatRevisionEval(report));
        return;
      }
      if (files.length > 1) throw new CascadeError("INVALID_INPUT", `eval ${dataset}: one path (a file or a folder), got ${files.length}`, { field: "path" });
      const [path] = files;
      const known = [...DATASET_NAMES, "mixed", "revisions"];
      if (!known.includes(dataset)) throw new CascadeError("INVALID_INPUT", `eval: unknown dataset ${JSON.stringify(dataset)}; known: ${known.join(", ")}`, { field: "dataset" });
      const paths: Record<string, string> = dataset === "mixed" ? Object.fromEntries(DATASET_NAMES.filter((n) => o[n]).map((n) => [n, o[n] as string])) : { [dataset]: path ?? "" };
      if (dataset !== "mixed" && !path) throw new CascadeError("INVALID_INPUT", `eval ${dataset}: the dataset's path is missing`, { field: "path" });
      if (dataset === "mixed" && Object.keys(paths).length < 2) throw new CascadeError("INVALID_INPUT", `eval mixed: give at least two datasets (${DATASET_NAMES.map((n) => `--${n} PATH`).join(", ")})`, { field: "dataset" });
      const { engine } = settings(globalFlags(cmd));
      // a file the reader cannot use: one line on stderr, and the evaluation runs on the rest
      const conversations = loadDatasets(paths, (line) => io().stderr.write(`cascade: ${line}\n`));
      const embedder = defaultGloveEmbedder();
      const stores = scratchStores(o.store === "sqlite" ? "memory" : (o.store as Exclude<StoreFlag, "sqlite">));
      if (o.cv || o.grid) {
        const cvBar = progressBar("cross-validating", "runs");
        const search = o.time ? { time: o.time } : undefined;
        const foldBy = dataset === "mixed" ? "dataset" : "conversation";
        const cv = await runCvCommand(conversations, { embedder, tokens: embedder, stores }, { grid: o.grid, ablation: o.ablation, selectBy: o.selectBy, engine, search, foldBy, onProgress: (d, t) => cvBar.update(d, t) }).finally(() => cvBar.stop());
        emit(mode(cmd), cv, () => formatCv(cv));
        return;
      }
      const bar = progressBar("evaluating", "questions");
      let report: EvalReport;
      try {
        report = await evaluate(dataset, conversations, { embedder, tokens: embedder, stores }, {
            engine,
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
    .option("--memory-trace <ms>", "sample the process's memory (RSS, V8 heap, external) every <ms> ms and at each phase; reported per phase under memory", integer("--memory-trace", 1))
    .option("--heap-growth <percent>", `how far V8 lets the heap grow between full collections, in % of what survived the last (0: V8's own choice, up to 300 on a machine with memory to spare)`, integer("--heap-growth", 0), DEFAULT_HEAP_GROWTH_PERCENT)
    .option("--store <kind>", "where the corpus is stored: sqlite (a file in a temporary folder), pglite (PostgreSQL in process) or a postgres:// URL (a namespace of its own, deleted after)", storeFlag, "sqlite")
    .action(async (o, cmd: Command) => {
      // the bench owns its process, as `serve` does: it measures the engine with the heap sized as serve sizes it
      const growth = boundHeapGrowth(o.heapGrowth);
      const stores = scratchStores(o.store === "sqlite" ? "files" : (o.store as Exclude<StoreFlag, "sqlite">));
      if (o.filters) {
        const bar = progressBar("filter bench", "steps");
        const r = await runFilterBench(defaultGloveEmbedder(), { stores, memories: o.chunks, queries: o.queries, seed: o.seed, onProgress: (_p, d, t) => bar.update(d, t) }).finally(() => bar.stop());
        emit(mode(cmd), r, () => formatFilterBench(r));
        return;
      }
      if (o.topics) {
        const bar = progressBar("topic bench", "steps");
        const r = await runTopicBench(defaultGloveEmbedder(), { stores, memories: o.chunks, queries: o.queries, seed: o.seed, onProgress: (_p, d, t) => bar.update(d, t) }).finally(() => bar.stop());
        emit(mode(cmd), r, () => formatTopicBench(r));
        return;
      }
      if (o.pyramid) {
        const bar = progressBar("pyramid bench", "steps");
        const r = await runPyramidBench(defaultGloveEmbedder(), { stores, turns: o.chunks, seed: o.seed, onProgress: (_p, d, t) => bar.update(d, t) }).finally(() => bar.stop());
        emit(mode(cmd), r, () => formatPyramidBench(r));
        return;
      }
      const bar = progressBar("bench", "steps");
      let report: BenchReport;
      try {
        report = await runBench(defaultGloveEmbedder(), { stores, chunks: o.chunks, queries: o.queries, seed: o.seed, pyramid: o.pyramid, memoryTraceMs: o.memoryTrace, onProgress: (_p, d, t) => bar.update(d, t) });
      } finally {
        bar.stop();
      }
      report.heap_growth_percent = growth.percent;
      emit(mode(cmd), report, () => formatBench(report));
    });


}
