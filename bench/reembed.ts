/**
 * Re-embedding a large store while it is searched: a SQLite store of N synthetic memories
 * (one chunk each; the corpus and ingest batches of bench/pg-ingest.ts) is built with the offline default embedder
 * (GloVe, 100-d) and served by `cascade serve` in a child process (bench/spawn-server.ts). Fused search latency
 * (the default /v1/search, every channel) is timed sequentially over a fixed seeded query set; then
 * `reembedStore` (what `cascade reembed` runs) moves the store, in a second child process, to another offline
 * embedder: the local ONNX embedder on the tiny 8-d model test/fixtures/tiny-onnx-model.ts writes (the real
 * tokenizer and ONNX Runtime; a spec the store keeps, so the server reopens with it). Meanwhile this process sends
 * the same searches to the server in a loop, one at a time, and counts any that fail. After the switch the server is
 * restarted (it must be: docs/OPERATIONS.md) and the searches timed again.
 *
 * Reported: the rebuild's time and chunks a second, the rebuilding process's peak RSS (its own
 * process.resourceUsage().maxRSS), the server's RSS, and search p50/p95 (round trip, and the engine's own time from
 * Server-Timing) before, during and after the rebuild, with failed searches. The tiny model costs almost nothing
 * to run, so the rebuild's time is the engine's own work (listing, saving, switching); a real model adds its
 * inference time on top.
 *
 *   npm run build && node dist/bench/reembed.js [--chunks 100000] [--queries 200] [--batch 256] [--json]
 */
import { spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { DEFAULT_REEMBED_BATCH, defaultGloveEmbedder, Engine, reembedStore, type EmbedderSpec } from "../src/index.js";
import { streamedCorpus } from "../src/bench/corpus.js";
import { INGEST_BATCH, INGEST_CALL } from "../src/bench/run.js";
import { SqliteStore } from "../src/backends/sqlite/store.js";
import { writeTinyModel } from "../test/fixtures/tiny-onnx-model.js";
import { spawnServer } from "./spawn-server.js";
import { numberFlag } from "./args.js";

const argv = process.argv.slice(2);
const arg = (name: string, fallback: number) => numberFlag(name, fallback, argv);

// ---- the child: one reembedStore run, its progress as JSON lines on stderr, its report and peak RSS on stdout ----
if (argv[0] === "--child") {
  const [, db, spec, batch] = argv;
  let full = 0;
  const report = await reembedStore({
    path: db,
    embedder: JSON.parse(spec) as EmbedderSpec,
    batch: Number(batch),
    // the call after the switch is the second in a row with every chunk done (the first is the last batch's)
    onProgress: (p) => {
      full = p.done === p.total ? full + 1 : 0;
      process.stderr.write(JSON.stringify({ ...p, switched: full >= 2 }) + "\n");
    },
  });
  process.stdout.write(JSON.stringify({ report, max_rss_mb: Math.round(process.resourceUsage().maxRSS / 1024) }) + "\n");
  process.exit(0);
}

interface Phase {
  searches: number;
  failed: number;
  round_trip_ms: { p50: number; p95: number };
  engine_ms: { p50: number; p95: number };
}

const pct = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const at = (q: number) => (s.length ? Math.round(s[Math.min(s.length - 1, Math.floor(q * s.length))] * 10) / 10 : NaN);
  return { p50: at(0.5), p95: at(0.95) };
};

/** Sequential searches: each one's round trip and the engine's time (Server-Timing), and the failures. */
class Timings {
  roundTrips: number[] = [];
  engine: number[] = [];
  failed = 0;
  errors: string[] = [];
  async search(url: string, query: string): Promise<void> {
    const t0 = performance.now();
    try {
      const res = await fetch(`${url}/v1/search`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ query, k: 10 }) });
      const body = await res.text();
      if (res.status !== 200) throw new Error(`${res.status} ${body.slice(0, 200)}`);
      this.roundTrips.push(performance.now() - t0);
      const m = /search;dur=([\d.]+)/.exec(res.headers.get("server-timing") ?? "");
      if (m) this.engine.push(Number(m[1]));
    } catch (e) {
      this.failed++;
      if (this.errors.length < 5) this.errors.push(String((e as Error).message ?? e));
    }
  }
  phase(): Phase {
    return { searches: this.roundTrips.length + this.failed, failed: this.failed, round_trip_ms: pct(this.roundTrips), engine_ms: pct(this.engine) };
  }
}

const rssMb = (pid: number) => {
  const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"));
  return m ? Math.round(Number(m[1]) / 1024) : NaN;
};

async function timed(url: string, queries: string[]): Promise<Phase> {
  for (const q of queries.slice(0, 50)) await new Timings().search(url, q); // warm: untimed
  const t = new Timings();
  for (const q of queries) await t.search(url, q);
  if (t.failed) throw new Error(`searches failed outside the rebuild: ${t.errors.join("; ")}`);
  return t.phase();
}

async function stop(child: import("node:child_process").ChildProcess): Promise<void> {
  child.kill("SIGTERM");
  await new Promise((r) => child.once("exit", r));
}

const chunks = arg("--chunks", 100_000);
const queryCount = arg("--queries", 200);
const batch = arg("--batch", DEFAULT_REEMBED_BATCH);
const dir = mkdtempSync(join(tmpdir(), "cascade-reembed-"));
const db = join(dir, "store.db");
try {
  // the store, as bench/pg-ingest.ts builds it
  const glove = defaultGloveEmbedder();
  const corpus = streamedCorpus({ memories: chunks, queries: queryCount, seed: 42, vocabulary: [...glove.vocabulary()] });
  const b0 = performance.now();
  const engine = await Engine.create({ store: new SqliteStore(db), embedder: glove, tokens: glove });
  for (const memories of corpus.batches(INGEST_CALL)) {
    const r = await engine.rememberMany(memories, { batchSize: INGEST_BATCH, detect: false });
    if (r.failed.length) throw new Error(`${r.failed.length} memories failed: ${r.failed[0].error}`);
  }
  const stored = (await engine.stats()).chunks;
  await engine.close();
  const buildS = (performance.now() - b0) / 1000;

  const model = join(dir, "tiny-onnx");
  mkdirSync(model);
  writeTinyModel(model, { pooling: "mean" });
  const spec: EmbedderSpec = { provider: "onnx", path: model };

  let server = await spawnServer(db);
  const before = await timed(server.url, corpus.queries);
  const serverRssBefore = rssMb(server.child.pid!);

  // the rebuild in a second process, the searches from this one until it exits
  const child = spawn(process.execPath, [new URL(import.meta.url).pathname, "--child", db, JSON.stringify(spec), String(batch)], { stdio: ["ignore", "pipe", "pipe"] });
  let out = "";
  let err = "";
  child.stdout!.on("data", (d) => (out += d));
  let switched = false;
  let progress = { done: 0, total: 0 };
  let started = 0; // when the first progress event came: the child has loaded and begun
  createInterface({ input: child.stderr! }).on("line", (line) => {
    try {
      const p = JSON.parse(line);
      progress = p;
      started ||= performance.now();
      if (p.switched) switched = true;
    } catch {
      err += line + "\n";
    }
  });
  let running = true;
  const exited = new Promise<number | null>((r) =>
    child.once("exit", (code) => {
      running = false;
      r(code);
    }),
  );
  // A search is "during" when its answer came before this process read the switch's progress event; one the old
  // server failed because it read the new vectors (a vector of the wrong size: only there after the switch's
  // commit) counts with the searches after the switch, however the two pipes' timing fell.
  const during = new Timings();
  const afterSwitch = new Timings(); // searches the old server answered after the switch, before the rebuild exited
  const slowest: { at_s: number; ms: number; done: number; total: number }[] = [];
  let serverRssMax = serverRssBefore;
  for (let i = 0; running; i++) {
    const probe = new Timings();
    const t0 = performance.now();
    const seen = progress;
    const counted = started > 0; // searches while the child is still loading are not the rebuild's
    await probe.search(server.url, corpus.queries[i % corpus.queries.length]);
    const ms = performance.now() - t0;
    if (!counted) continue;
    const late = switched || probe.errors.some((e) => /bytes where \d+ belong/.test(e));
    const into = late ? afterSwitch : during;
    into.roundTrips.push(...probe.roundTrips);
    into.engine.push(...probe.engine);
    into.failed += probe.failed;
    into.errors.push(...probe.errors.slice(0, 5 - into.errors.length));
    if (!late) slowest.push({ at_s: Math.round((t0 - started) / 100) / 10, ms: Math.round(ms), done: seen.done, total: seen.total });
    if (i % 20 === 0) serverRssMax = Math.max(serverRssMax, rssMb(server.child.pid!));
  }
  slowest.sort((a, b) => b.ms - a.ms).splice(3);
  const code = await exited;
  const wallS = (performance.now() - started) / 1000;
  if (code !== 0) throw new Error(`the rebuild exited with ${code}: ${err}`);
  const { report, max_rss_mb } = JSON.parse(out);
  await stop(server.child);

  server = await spawnServer(db); // reopens with the spec the store now keeps
  const after = await timed(server.url, corpus.queries);
  await stop(server.child);

  const result = {
    chunks: stored,
    build_s: Math.round(buildS * 10) / 10,
    from: report.from,
    to: report.to,
    batch,
    rebuild: {
      took_s: Math.round(report.took_ms / 100) / 10,
      wall_s: Math.round(wallS * 10) / 10,
      chunks_per_s: Math.round(report.chunks_per_s),
      embedded: report.embedded,
      passes: report.passes,
      peak_rss_mb: max_rss_mb,
    },
    server_rss_mb: { before: serverRssBefore, during_max: serverRssMax },
    search: { before, during: during.phase(), old_server_after_switch: afterSwitch.phase(), after },
    /** the three slowest searches during the rebuild: when they were sent (s into it) and the progress then */
    slowest_during: slowest,
    failed_search_errors: [...during.errors, ...afterSwitch.errors],
  };
  if (argv.includes("--json")) console.log(JSON.stringify(result, null, 2));
  else {
    console.log(`re-embed ${result.chunks.toLocaleString("en")} chunks: ${report.from?.id} (${report.from?.dimensions}-d) -> ${report.to.id} (${report.to.dimensions}-d), batch ${batch}; store built in ${result.build_s} s`);
    console.log(`rebuild ${result.rebuild.took_s} s, ${result.rebuild.chunks_per_s} chunks/s, ${result.rebuild.passes} pass(es); rebuilding process peak RSS ${max_rss_mb} MB; server RSS ${serverRssBefore} MB before, ${serverRssMax} MB max during`);
    console.log("");
    console.log("phase                       searches  failed  p50 ms  p95 ms  engine p50  engine p95");
    const row = (name: string, p: Phase) =>
      console.log(`${name.padEnd(26)} ${String(p.searches).padStart(9)} ${String(p.failed).padStart(7)} ${String(p.round_trip_ms.p50).padStart(7)} ${String(p.round_trip_ms.p95).padStart(7)} ${String(p.engine_ms.p50).padStart(11)} ${String(p.engine_ms.p95).padStart(11)}`);
    row("before", before);
    row("during rebuild", result.search.during);
    row("old server after switch", result.search.old_server_after_switch);
    row("after (server restarted)", after);
    console.log(`slowest during: ${slowest.map((x) => `${x.ms} ms at ${x.at_s} s (${x.done}/${x.total} done)`).join(", ")}`);
    if (result.failed_search_errors.length) console.log(`failed: ${result.failed_search_errors.join("; ")}`);
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
