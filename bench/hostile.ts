/**
 * Hostile requests against `cascade serve`: each request of the catalogue is sent to a server in a child process
 * while /health is polled every 10 ms from here. For each one: the status it got, how long it took, the longest
 * /health round trip while it ran (how long the server's one thread was blocked), and the server's resident
 * memory above its baseline (from /proc). The targets: no request under the body limit that costs
 * more than 500 MB above the baseline or blocks /health for more than 100 ms.
 *
 *   node dist/bench/hostile.js [--json]
 */
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { spawnServer } from "./spawn-server.js";

interface Case {
  name: string;
  method: string;
  path: string;
  body?: unknown;
  headers?: Record<string, string>;
  /** Sent this many times (distinct variants), e.g. a namespace flood. */
  repeat?: number;
  vary?: (i: number) => { path?: string; body?: unknown; headers?: Record<string, string> };
}

export interface HostileRow {
  name: string;
  statuses: Record<string, number>;
  took_ms: number;
  health_max_ms: number;
  rss_above_baseline_mb: number;
}

const nested = (depth: number): unknown => {
  let v: unknown = { leaf: 1 };
  for (let i = 0; i < depth; i++) v = { d: v };
  return v;
};

const CATALOGUE: Case[] = [
  { name: "topic of 65,535 labels", method: "POST", path: "/v1/memories", body: { text: "x", topic: Array(65_535).fill("a").join(".") } },
  { name: "lquery of 600 stars", method: "POST", path: "/v1/search", body: { query: "x", match: Array(600).fill("*").join(".") } },
  { name: "lquery of 20,000 stars", method: "POST", path: "/v1/search", body: { query: "x", match: Array(20_000).fill("*").join(".") } },
  { name: "lquery of 32 stars (the most allowed)", method: "POST", path: "/v1/search", body: { query: "ledger", match: Array(32).fill("*").join(".") } },
  { name: "kinds of 40,000 entries", method: "POST", path: "/v1/search", body: { query: "x", kinds: Array.from({ length: 40_000 }, (_, i) => `k${i}`) } },
  {
    name: "kinds of every length 1..32, 3 times (statement cache)",
    method: "POST",
    path: "/v1/search",
    repeat: 96,
    vary: (i) => ({ body: { query: "ledger", kinds: Array.from({ length: (i % 32) + 1 }, (_, j) => `k${j}`) } }),
  },
  { name: "metadata nested 4,000 deep", method: "POST", path: "/v1/memories", body: { text: "x", metadata: nested(4000) } },
  { name: "query of 10,000 distinct words", method: "POST", path: "/v1/search", body: { query: Array.from({ length: 2000 }, (_, i) => `w${i}x`).join(" ").slice(0, 10_000) } },
  { name: "reads of 3,000 unknown namespaces", method: "GET", path: "/v1/topics", repeat: 3000, vary: (i) => ({ headers: { "x-cascade-namespace": `ghost${i}` } }) },
  { name: "a memory of 1,000,000 characters", method: "POST", path: "/v1/memories", body: { text: "The ledger retry queue drains slowly. ".repeat(26_000).slice(0, 1_000_000) } },
  {
    name: "a batch of 1,000 memories",
    method: "POST",
    path: "/v1/memories:batch",
    body: { memories: Array.from({ length: 1000 }, (_, i) => ({ text: `Batch note ${i}: the cache latency rose after the deploy.` })) },
  },
];

function rssMb(pid: number): number {
  const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"));
  return m ? Number(m[1]) / 1024 : NaN;
}

async function send(url: string, c: Case, i: number): Promise<number> {
  const v = c.vary?.(i) ?? {};
  const body = v.body ?? c.body;
  const res = await fetch(url + (v.path ?? c.path), {
    method: c.method,
    headers: { "content-type": "application/json", ...c.headers, ...v.headers },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  await res.arrayBuffer();
  return res.status;
}

export async function runHostile(): Promise<HostileRow[]> {
  const dir = mkdtempSync(join(tmpdir(), "cascade-hostile-"));
  const { child, url } = await spawnServer(join(dir, "hostile.db"));
  try {
    await send(url, { name: "warm", method: "POST", path: "/v1/memories", body: { text: "The ledger retry queue is warm." } }, 0);
    await send(url, { name: "warm", method: "POST", path: "/v1/search", body: { query: "ledger" } }, 0);
    const baseline = rssMb(child.pid!);
    const rows: HostileRow[] = [];
    for (const c of CATALOGUE) {
      process.stderr.write(`hostile: ${c.name}\n`);
      let running = true;
      let healthMax = 0;
      let rssMax = rssMb(child.pid!);
      const poll = (async () => {
        while (running) {
          const t = performance.now();
          await (await fetch(`${url}/health`)).arrayBuffer();
          healthMax = Math.max(healthMax, performance.now() - t);
          rssMax = Math.max(rssMax, rssMb(child.pid!));
          await new Promise((r) => setTimeout(r, 10));
        }
      })();
      const started = performance.now();
      const statuses: Record<string, number> = {};
      for (let i = 0; i < (c.repeat ?? 1); i++) {
        const s = String(await send(url, c, i));
        statuses[s] = (statuses[s] ?? 0) + 1;
      }
      const took = performance.now() - started;
      running = false;
      await poll;
      rows.push({
        name: c.name,
        statuses,
        took_ms: Math.round(took),
        health_max_ms: Math.round(healthMax),
        rss_above_baseline_mb: Math.round(Math.max(rssMax, rssMb(child.pid!)) - baseline),
      });
    }
    return rows;
  } finally {
    child.kill("SIGTERM");
    rmSync(dir, { recursive: true, force: true });
  }
}

if (process.argv[1] && import.meta.url.endsWith(process.argv[1].split("/").pop()!)) {
  const rows = await runHostile();
  if (process.argv.includes("--json")) process.stdout.write(JSON.stringify(rows, null, 2) + "\n");
  else {
    process.stdout.write("| request | statuses | took ms | longest /health ms | RSS above baseline MB |\n|---|---|---|---|---|\n");
    for (const r of rows) process.stdout.write(`| ${r.name} | ${Object.entries(r.statuses).map(([s, n]) => `${n}× ${s}`).join(", ")} | ${r.took_ms} | ${r.health_max_ms} | ${r.rss_above_baseline_mb} |\n`);
  }
}
