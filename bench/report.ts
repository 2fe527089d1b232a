/**
 * Regenerates docs/BENCHMARKS.md: LoCoMo retrieval quality (per channel and leave-one-out) and the synthetic
 * speed benchmark at 10,000, 100,000 and 1,000,000 chunks (each in a process of its own, so that its peak RSS
 * is its own), with the machine they ran on. Hand-written notes (before/after
 * figures of past changes) come from docs/benchmark-notes.md and are copied in unchanged.
 *
 *   npm run bench:report -- [LOCOMO_PATH] [--chunks 10000,100000]
 */
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { cpus, totalmem } from "node:os";
import { execFileSync } from "node:child_process";
import { defaultGloveEmbedder, scratchStores, evaluate, loadLocomo, runPyramidBench, runTopicBench, type BenchReport, type EvalConfig, type EvalReport, type Metrics } from "../src/index.js";
import { formatBench, formatPyramidBench, formatTopicBench, metricsTable } from "../src/surfaces/cli/format.js";
import { runHttpLoad, throughputSummary } from "./http-load.js";
import { PEER_CONFIGS, peerQuality, peerSpeed } from "./peers.js";

const args = process.argv.slice(2);
const locomoPath = args.find((a) => !a.startsWith("--")) ?? "../shared/data/locomo";
const sizesArg = args.includes("--chunks") ? args[args.indexOf("--chunks") + 1] : "10000,100000,1000000";
const sizes = sizesArg.split(",").map(Number);

const embedder = defaultGloveEmbedder();
const log = (s: string) => process.stderr.write(s + "\n");

log(`evaluating LoCoMo at ${locomoPath}`);
const conversations = loadLocomo(locomoPath);
const quality = await evaluate("locomo", conversations, { embedder, tokens: embedder, stores: scratchStores() });

// The pyramid and time parsing, each on and off (no ablation): all questions, and category 2 (temporal).
log("LoCoMo with the pyramid and time parsing on and off");
const rank = { context: { timeSpan: "rank" as const } };
const timeConfigs: [string, EvalConfig][] = [
  ["time off, pyramid off", { search: { time: "off" }, pyramid: false }],
  ["time boost, pyramid off", { pyramid: false }],
  ["time restrict, pyramid off", { search: { time: "restrict" }, pyramid: false }],
  ["time boost, pyramid on, summaries as context (default)", {}],
  ["time off, pyramid on", { search: { time: "off" } }],
  ["time boost, pyramid on, summaries rank for time spans, credit nothing", { engine: rank }],
  ["time boost, pyramid on, summaries rank for time spans, credit their source turns", { engine: rank, summaryCredit: true }],
];
const timeRows: [string, Metrics, Metrics][] = [];
for (const [name, config] of timeConfigs) {
  const r = await evaluate("locomo", conversations, { embedder, tokens: embedder, stores: scratchStores() }, { ...config, ablation: false });
  timeRows.push([name, r.overall, r.by_category["2"]]);
}
log("LoCoMo evidence within a word budget, pyramid on and off");
const BUDGETS = [250, 500, 1000, 2000];
const budgetRows: [string, EvalReport][] = [];
for (const [name, pyramid] of [["pyramid off", false], ["pyramid on (default)", true]] as const) {
  budgetRows.push([name, await evaluate("locomo", conversations, { embedder, tokens: embedder, stores: scratchStores() }, { ablation: false, pyramid, budgets: BUDGETS })]);
}
const budgetTable = (pick: (r: EvalReport) => Record<string, number> | undefined) =>
  `| configuration | recall@10 | ${BUDGETS.map((b) => `evidence@${b}`).join(" | ")} |\n|---|---:|${BUDGETS.map(() => "---:").join("|")}|\n` +
  budgetRows.map(([n, r]) => `| ${n} | ${pick(r)?.["recall@10"]?.toFixed(3)} | ${BUDGETS.map((b) => pick(r)?.[`evidence@${b}`]?.toFixed(3)).join(" | ")} |`).join("\n");
log("pyramid build at 100,000 turns");
const pyramidSpeed = await runPyramidBench(embedder, { stores: scratchStores("files"), turns: 100_000 });
log("topics at 100,000 memories");
const topicSpeed = await runTopicBench(embedder, { stores: scratchStores("files"), memories: 100_000, queries: 200 });
const speed: BenchReport[] = [];
for (const chunks of sizes) {
  log(`benchmarking ${chunks} chunks`);
  const cli = new URL("../src/surfaces/cli/main.js", import.meta.url).pathname;
  const out = execFileSync(process.execPath, [cli, "bench", "--chunks", String(chunks), "--queries", "200", "--json"], { encoding: "utf8", maxBuffer: 16 * 2 ** 20 });
  speed.push(JSON.parse(out) as BenchReport);
}

log("peers (LanceDB, Orama) on LoCoMo and at 100,000 chunks");
const peersQ = await peerQuality(conversations, log);
const peersS = await peerSpeed(100_000, 100, log);
const bestPeerHybrid = Math.max(peersQ.by_config["lancedb hybrid (RRF)"]["recall@10"], peersQ.by_config["orama hybrid"]["recall@10"]);

log("HTTP load at 100,000 chunks");
const http = await runHttpLoad(100_000, [1, 50], 15, [1, 2], 3);
const httpSummary = throughputSummary(http, 50);

const best = Object.entries(quality.by_channel)
  .filter(([n]) => !n.startsWith("-"))
  .sort((a, b) => b[1]["recall@10"] - a[1]["recall@10"])[0];
const hurts = Object.entries(quality.by_channel)
  .filter(([n, m]) => n.startsWith("-") && m["recall@10"] > quality.overall["recall@10"] + 0.01)
  .map(([n, m]) => `${n.slice(1)} (without it: ${m["recall@10"].toFixed(3)})`);
const notes = existsSync("docs/benchmark-notes.md") ? readFileSync("docs/benchmark-notes.md", "utf8").trim() : "";
const cpu = cpus()[0]?.model ?? "unknown CPU";

const doc = `# Benchmarks

Generated by \`npm run bench:report\` on ${new Date().toISOString().slice(0, 10)} — do not edit by hand; notes
belong in docs/benchmark-notes.md, which is copied in below.

Machine: ${cpus().length} cores (${cpu}), ${(totalmem() / 2 ** 30).toFixed(0)} GiB, Node ${process.version}.
Embedder: ${embedder.id} (offline default). Every channel at its default weight, RRF k = 60.

## Retrieval quality: LoCoMo

Command: \`cascade eval locomo ${locomoPath}\` — ${quality.conversations} conversations, ${quality.questions} questions
with evidence; every turn is a memory; a hit counts when its turn is in the question's evidence.

${metricsTable([["all channels (fused)", quality.overall], ...Object.entries(quality.by_channel)])}

By question category (1 multi-hop, 2 temporal, 3 open-domain, 4 single-hop, 5 adversarial):

${metricsTable(Object.entries(quality.by_category).map(([c, m]) => [`category ${c}`, m]))}

Reading: fused Recall@10 is ${quality.overall["recall@10"].toFixed(3)}; the best single channel is ${best[0]} at
${best[1]["recall@10"].toFixed(3)}. LoCoMo turns have no titles, descriptions or tags, so \`curated\` finds nothing
here, and \`recency\` alone returns nothing by design (it only orders what other channels found).
${hurts.length ? `Leaving out ${hurts.join(", ")} raises Recall@10 by more than a point: see the notes below.` : "No channel's leave-one-out shows it hurting Recall@10 by more than a point."}

## Peers: LanceDB and Orama in the same run

Command: \`node dist/bench/peers.js ${locomoPath}\` — LanceDB ${"0.31.0"} (full-text index, exact vector search, hybrid
with its RRF reranker) and Orama (its defaults; vector similarity floor lowered to 0.01 so that it always returns
k) indexing the same text (speaker in front, as Cascade indexes it) and the same vectors (Cascade's default
embedder), scored by the same function on the same ${peersQ.questions} questions.

${metricsTable([["cascade (all channels, fused)", quality.overall], ...Object.entries(peersQ.by_config)])}

Cascade's fused Recall@10 is ${((quality.overall["recall@10"] - bestPeerHybrid) * 100).toFixed(1)} points above the better peer hybrid (target: ≥ 10).
The peers index each turn alone: Cascade's conversational context (the turn before, in the lexical indexes) is
part of its lead; without it Cascade's fused Recall@10 was 0.668 (see the notes).

Latency at ${peersS.chunks.toLocaleString("en")} chunks, ${peersS.queries} queries, every system answering each query in turn in one process
(each query embedded inside the timing for every system). Builds: Cascade ${peersS.build_s.cascade} s (ingest and
indexes), LanceDB ${peersS.build_s.lancedb} s (table and full-text index), Orama ${peersS.build_s.orama} s.

| system | p50 ms | p95 ms | p99 ms | Cascade fused ÷ this, p50 | p95 |
|---|---:|---:|---:|---:|---:|
${Object.entries(peersS.latency_ms)
  .map(([n, p]) => `| ${n} | ${p.p50.toFixed(2)} | ${p.p95.toFixed(2)} | ${p.p99.toFixed(2)} | ${n in peersS.ratio_cascade_over_peer ? peersS.ratio_cascade_over_peer[n as (typeof PEER_CONFIGS)[number]].p50 : "—"} | ${n in peersS.ratio_cascade_over_peer ? peersS.ratio_cascade_over_peer[n as (typeof PEER_CONFIGS)[number]].p95 : "—"} |`)
  .join("\n")}

## The summary pyramid and time expressions on LoCoMo

Command: \`cascade eval locomo ${locomoPath} --no-ablation [--time boost|restrict|off] [--no-pyramid] [--summary-credit]\`
(summaries ranking for time spans: config \`engine.context.timeSpan: "rank"\`). "now" is the day after each
conversation's last turn. With the pyramid on (the default) summaries are kept current as the turns arrive and
come back as \`context\`, outside the top 10; with \`timeSpan: "rank"\` they compete with the turns for the top 10
when a question names a time span. Counting is shown both ways: a summary hit either retrieves nothing (it only
takes a place) or retrieves the turns its sentences were taken from.

All questions:

${metricsTable(timeRows.map(([n, all]) => [n, all]))}

Category 2 (temporal):

${metricsTable(timeRows.map(([n, , cat2]) => [n, cat2]))}

## Evidence within a word budget

Command: \`cascade eval locomo ${locomoPath} --no-ablation [--no-pyramid] --budget-words 250 --budget-words 500 --budget-words 1000 --budget-words 2000\`.
Each question's results are read in order — a hit's text, then the \`context\` entries covering it — until N words
are spent; an evidence turn counts when its own text, or a summary sentence taken from it, was read whole inside
the budget (src/eval/budget.ts).

All questions:

${budgetTable((r) => r.overall)}

Category 2 (temporal):

${budgetTable((r) => r.by_category["2"])}

## Summary pyramid build

Command: \`cascade bench --pyramid --chunks 100000\` — 100,000 synthetic turns spread evenly over two years,
imported in batches of 2,000 with the pyramid kept current after each (the default) and with it off, the default
extractive summariser.

${formatPyramidBench(pyramidSpeed)}

Targets: a full build ≤ 60 s; a refresh after 100 new turns ≤ 1 s; bulk ingest with the pyramid maintained
≥ 5,000 memories/s.

## Topics at scale

Command: \`cascade bench --topics --chunks 100000\` — 100,000 synthetic memories over 1,000 topics (a 10 × 10 × 10
tree), fused queries with and without \`--under\` a subtree holding 1% of them, taking turns query by query.

${formatTopicBench(topicSpeed)}

Targets: \`--under\` adds ≤ 2 ms to the fused p95; the whole tree with counts in ≤ 100 ms. A selective filter
(≤ 20,000 chunks) is read through the topic index and applied to FTS5's matches in memory, so a narrow subtree
makes every lexical channel cheaper rather than dearer (joining every FTS5 match to its memory instead added 46 ms).

## Speed and memory: synthetic corpus

Command: \`cascade bench --chunks N\` — a seeded corpus of real English words drawn with a Zipfian distribution
(one chunk per memory), ${speed[0]?.queries ?? 200} queries per configuration after a warm-up, each query embedded
inside the timing.

${speed.map((r) => `### ${r.chunks.toLocaleString("en")} chunks\n\n${formatBench(r)}`).join("\n\n")}

Targets at 100,000 chunks: fused p95 ≤ 25 ms, ingest ≥ 5,000 chunks/s, peak RSS ≤ 600 MB; at 1,000,000 chunks:
fused p95 ≤ 60 ms, p99 ≤ 120 ms, peak RSS ≤ 2 GiB. Each size runs in a process of its own: its peak RSS is
its own.
\`fused_with_edges\` is the fused query again after 10% of the memories were superseded (the graph's cost);
revision detection's cost per memory is measured on 400 new memories written 100 without it, 100 with, 100 with, 100 without.

## HTTP: \`cascade serve\` under load

Command: \`node dist/bench/http-load.js --workers 1,2 --rounds 3\` — 100,000 synthetic chunks, \`cascade serve [--workers 2]\`
in a child process, every worker warmed alike first (8 s, untimed), then autocannon in this process POSTing
/v1/search (k = 10), 15 s per setting; one worker and two take turns three times, each turn a fresh server. \`engine\` is the \`took_ms\` each response reports; \`overhead\` is round trip minus
engine time, request by request.

Throughput at 50 connections, median of the three turns: ${httpSummary.map((r) => `${r.workers} ${r.workers === 1 ? "worker" : "workers"} ${r.median} requests/s (${r.runs.join(", ")})`).join("; ")}: **${httpSummary.at(-1)!.ratio}×** (target ≥ 1.7×).

| round | workers | connections | requests/s | round trip p50 / p95 / p99 ms | engine p50 / p95 ms | overhead p50 / p95 ms | errors |
|---:|---:|---:|---:|---|---|---|---:|
${http.map((h) => `| ${h.round} | ${h.workers} | ${h.connections} | ${h.requests_per_s} | ${h.round_trip_ms.p50} / ${h.round_trip_ms.p95} / ${h.round_trip_ms.p99} | ${h.engine_ms.p50} / ${h.engine_ms.p95} | ${h.overhead_ms.p50} / ${h.overhead_ms.p95} | ${h.errors} |`).join("\n")}

One connection shows what HTTP itself adds. At 50 connections a worker answers one search at a time (each in its
own turn of the event loop, so new connections are not starved), so the round trip is mostly waiting in line: about
connections ÷ throughput. Two workers on this 2-core machine also share it with the load generator and with V8's
compiler and collector threads, which a single worker runs on the idle core for free (see the notes).

${notes ? `## Notes and findings\n\n${notes}\n` : ""}`;

writeFileSync("docs/BENCHMARKS.md", doc);
log("wrote docs/BENCHMARKS.md");
