/**
 * HTTP load benchmark: a store of N synthetic memories served by `cascade serve` in a child process, searched by
 * autocannon from this process at C concurrent connections. Reports round-trip latency percentiles, the
 * engine's own time for the same requests (took_ms, read from each response's Server-Timing header), and throughput.
 *
 *   node dist/bench/http-load.js [--chunks 100000] [--connections 50] [--seconds 20] [--workers 1,2] [--rounds 3] [--json]
 *
 * With `--rounds N` the worker counts take turns N times (1, 2, 1, 2, ...), each round a fresh server: this
 * machine's speed drifts by a tenth over minutes, more than the difference being measured, so a ratio of two
 * single runs minutes apart says little. The summary gives each count's median throughput and their ratio.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import autocannon from "autocannon";
import { Engine, defaultGloveEmbedder, openStoreAt } from "../src/index.js";
import { syntheticCorpus } from "../src/bench/corpus.js";
import { spawnServer } from "./spawn-server.js";
import { numberFlag } from "./args.js";

export interface HttpLoadReport {
  chunks: number;
  /** `cascade serve --workers`: server processes sharing the port. */
  workers: number;
  /** 1-based: which turn of `--rounds` */
  round: number;
  connections: number;
  requests: number;
  errors: number;
  requests_per_s: number;
  round_trip_ms: { p50: number; p95: number; p99: number };
  engine_ms: { p50: number; p95: number; p99: number };
  /** round trip minus the engine's own time, per request */
  overhead_ms: { p50: number; p95: number; p99: number };
}

/** Untimed load before the timed phases, on every worker. */
const WARM_SECONDS = 8;

const pct = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const at = (q: number) => Math.round(s[Math.min(s.length - 1, Math.floor(q * s.length))] * 100) / 100;
  return { p50: at(0.5), p95: at(0.95), p99: at(0.99) };
};

/** Median requests/s per worker count at `connections`, and each count's median over the first count's. */
export function throughputSummary(reports: HttpLoadReport[], connections: number): { workers: number; runs: number[]; median: number; ratio: number }[] {
  const counts = [...new Set(reports.map((r) => r.workers))];
  const median = (xs: number[]) => {
    const s = [...xs].sort((a, b) => a - b);
    return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
  };
  const rows = counts.map((workers) => {
    const runs = reports.filter((r) => r.workers === workers && r.connections === connections).map((r) => r.requests_per_s);
    return { workers, runs, median: median(runs) };
  });
  return rows.map((r) => ({ ...r, ratio: Math.round((r.median / rows[0].median) * 100) / 100 }));
}

/** One store; per round and worker count one server, warmed, then one autocannon run per number of connections. */
export async function runHttpLoad(chunks: number, connectionCounts: number[], seconds: number, workerCounts: number[] = [1], rounds = 1): Promise<HttpLoadReport[]> {
  const dir = mkdtempSync(join(tmpdir(), "cascade-http-load-"));
  const db = join(dir, "load.db");
  try {
    const embedder = defaultGloveEmbedder();
    const corpus = syntheticCorpus({ memories: chunks, queries: 500, seed: 42, vocabulary: [...embedder.vocabulary()] });
    const engine = await Engine.create({ store: await openStoreAt(db), embedder, tokens: embedder });
    for (let i = 0; i < corpus.memories.length; i += 2000) await engine.rememberMany(corpus.memories.slice(i, i + 2000), { batchSize: 2000, detect: false });
    await engine.close();

    const reports: HttpLoadReport[] = [];
    for (let round = 1; round <= rounds; round++) for (const workers of workerCounts) {
      const { child: server, url } = await spawnServer(db, workers);
      // Warm every worker alike before anything is timed: derived indexes, and V8's optimizing compiler, which
      // otherwise keeps recompiling through the first thousand searches on a core the other worker needs. (The
      // 1-connection phase alone would warm only the worker its one connection lands on.)
      await load(url, corpus.queries, chunks, 8 * workers, WARM_SECONDS);
      for (const connections of connectionCounts) reports.push({ ...(await load(url, corpus.queries, chunks, connections, seconds)), workers, round });
      server.kill("SIGTERM");
      await new Promise((r) => server.once("exit", r));
    }
    return reports;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

async function load(url: string, queries: string[], chunks: number, connections: number, seconds: number): Promise<Omit<HttpLoadReport, "workers" | "round">> {
    let next = 0;
    const roundTrips: number[] = [];
    const engineMs: number[] = [];
    const overhead: number[] = [];
    const result = await autocannon({
      url: `${url}/v1/search`,
      connections,
      duration: seconds,
      requests: [
        {
          method: "POST",
          headers: { "content-type": "application/json" },
          setupRequest: (req: any) => ({ ...req, body: JSON.stringify({ query: queries[next++ % queries.length], k: 10 }) }),
        },
      ],
      setupClient: (client: any) => {
        // a client emits 'headers' and then 'response' for each of its requests, one request at a time; the
        // engine's time is read from Server-Timing, so this process (on the same two cores as the server) does
        // not parse every body
        let took: number | null = null;
        client.on("headers", (info: { headers: string[] }) => {
          const at = info.headers.findIndex((h, i) => i % 2 === 0 && h.toLowerCase() === "server-timing");
          const m = at >= 0 ? /search;dur=([\d.]+)/.exec(info.headers[at + 1]) : null;
          took = m ? Number(m[1]) : null;
          if (took !== null) engineMs.push(took);
        });
        client.on("response", (_status: number, _bytes: number, responseTime: number) => {
          roundTrips.push(responseTime);
          if (took !== null) overhead.push(responseTime - took);
          took = null;
        });
      },
    } as any);
    return {
      chunks,
      connections,
      requests: result.requests.total,
      errors: result.errors + result.non2xx,
      requests_per_s: Math.round(result.requests.average),
      round_trip_ms: pct(roundTrips),
      engine_ms: pct(engineMs),
      overhead_ms: pct(overhead),
    };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const arg = (name: string, fallback: number) => numberFlag(name, fallback);
  const workers = process.argv.includes("--workers") ? process.argv[process.argv.indexOf("--workers") + 1].split(",").map(Number) : [1];
  const connections = arg("--connections", 50);
  const runs = await runHttpLoad(arg("--chunks", 100_000), [1, connections], arg("--seconds", 15), workers, arg("--rounds", 1));
  console.log(JSON.stringify({ runs, summary: throughputSummary(runs, connections) }, null, 2));
}
