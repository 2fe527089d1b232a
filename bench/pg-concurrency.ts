/**
 * Many agents on one PostgreSQL server: N concurrent clients, each a loop of searches with a write now and then,
 * spread over SDK processes (openMemory on the URL) and two `cascade serve` processes (searched and written over
 * HTTP), half of the clients on one shared namespace and half each on a namespace of its own. Reports, per N,
 * operations/s, search and write p50/p99, errors, and whether every acknowledged write is in the store after.
 *
 *   node dist/bench/pg-concurrency.js --url postgres://…/db [--clients 1,4,16,64] [--seconds 15] [--seed-memories 2000] [--json]
 *
 * A child process runs `--as-client`: its loops, then one JSON line of its samples on stdout.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { defaultGloveEmbedder, openMemory, type Engine } from "../src/index.js";
import { syntheticCorpus } from "../src/bench/corpus.js";
import { openPostgresUrl } from "../src/backends/postgres/open.js";
import { spawnServer } from "./spawn-server.js";

interface Samples {
  search: number[];
  write: number[];
  errors: string[];
  /** Acknowledged writes per namespace. */
  written: Record<string, number>;
}

/** One write in this many operations: agents mostly read. */
const WRITE_EVERY = 5;
const SDK_PROCESSES = 2;
const SERVE_PROCESSES = 2;

const arg = (name: string, fallback: string) => {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : fallback;
};

/** The client loops, timed, from `start` until `until` (ms since the epoch). `op` is one operation on namespace `ns`. */
async function loops(namespaces: string[], start: number, until: number, op: (ns: string, i: number, write: boolean) => Promise<void>): Promise<Samples> {
  const out: Samples = { search: [], write: [], errors: [], written: {} };
  // untimed, before the start: a write (which creates a client's own namespace) and a search (which reads the
  // vectors and vocabulary into the process), so the timed loops measure a warm agent
  await Promise.all(namespaces.map(async (ns, client) => {
    await op(ns, -1 - client, true);
    out.written[ns] = (out.written[ns] ?? 0) + 1;
    await op(ns, client, false);
  }));
  await new Promise((resolve) => setTimeout(resolve, Math.max(0, start - Date.now())));
  await Promise.all(
    namespaces.map(async (ns, client) => {
      for (let i = client; Date.now() < until; i++) {
        const write = i % WRITE_EVERY === 0;
        const t0 = performance.now();
        try {
          await op(ns, i, write);
          (write ? out.write : out.search).push(performance.now() - t0);
          if (write) out.written[ns] = (out.written[ns] ?? 0) + 1;
        } catch (err) {
          out.errors.push(`${ns}: ${(err as Error).message}`);
        }
      }
    }),
  );
  return out;
}

const queries = syntheticCorpus({ memories: 10, queries: 200, seed: 7, vocabulary: [...defaultGloveEmbedder().vocabulary()] }).queries;
const note = (ns: string, i: number) => ({ text: `Agent note ${i} in ${ns}: ${queries[Math.abs(i) % queries.length]}`, at: new Date(Date.UTC(2026, 0, 1) + i * 60_000).toISOString() });

/** A child: SDK clients on the given namespaces (engines opened once per namespace). */
async function asClient(url: string, namespaces: string[], start: number, until: number): Promise<void> {
  const engines = new Map<string, Engine>();
  for (const ns of new Set(namespaces)) engines.set(ns, await openMemory({ path: `${url}#namespace=${ns}` }));
  const samples = await loops(namespaces, start, until, async (ns, i, write) => {
    const engine = engines.get(ns)!;
    if (write) await engine.remember(note(ns, i));
    else await engine.recall(queries[i % queries.length], { k: 10 });
  });
  for (const e of engines.values()) await e.close();
  process.stdout.write(JSON.stringify(samples) + "\n");
}

/** HTTP clients on `cascade serve` processes, each client on one server, in turn. */
function httpLoops(servers: string[], namespaces: string[], start: number, until: number): Promise<Samples> {
  return loops(namespaces, start, until, async (ns, i, write) => {
    const base = servers[Math.abs(i) % servers.length];
    const headers = { "content-type": "application/json", "x-cascade-namespace": ns };
    const res = write
      ? await fetch(`${base}/v1/memories`, { method: "POST", headers, body: JSON.stringify(note(ns, i)) })
      : await fetch(`${base}/v1/search`, { method: "POST", headers, body: JSON.stringify({ query: queries[i % queries.length], k: 10 }) });
    if (!res.ok) throw new Error(`HTTP ${res.status}: ${(await res.text()).slice(0, 200)}`);
    await res.arrayBuffer();
  });
}

function childSamples(child: ChildProcess): Promise<Samples> {
  return new Promise((resolve, reject) => {
    let out = "";
    let err = "";
    child.stdout!.on("data", (d) => (out += d));
    child.stderr!.on("data", (d) => (err += d));
    child.once("exit", (code) => (code === 0 ? resolve(JSON.parse(out.trim().split("\n").pop()!)) : reject(new Error(`client exited ${code}: ${err}`))));
  });
}

const pct = (xs: number[], q: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? Math.round(s[Math.min(s.length - 1, Math.floor(q * s.length))] * 10) / 10 : 0;
};

async function main(): Promise<void> {
  const url = arg("url", process.env.CASCADE_PG_URL ?? "");
  if (!url.startsWith("postgres")) throw new Error("--url: a postgres:// URL (or CASCADE_PG_URL)");
  if (process.argv.includes("--as-client")) return asClient(url, arg("namespaces", "").split(","), Number(arg("start", "0")), Number(arg("until", "0")));
  const seconds = Number(arg("seconds", "15"));
  const run = `load_${process.pid}`;
  const shared = `${run}_shared`;
  // the shared namespace starts with memories to search
  const seed = await openMemory({ path: `${url}#namespace=${shared}` });
  const corpus = syntheticCorpus({ memories: Number(arg("seed-memories", "2000")), queries: 1, seed: 42, vocabulary: [...defaultGloveEmbedder().vocabulary()] });
  await seed.rememberMany(corpus.memories, { detect: false });
  await seed.close();
  const stored = async (ns: string) => {
    const engine = await openMemory({ path: `${url}#namespace=${ns}` });
    const { memories } = await engine.stats();
    await engine.close();
    return memories;
  };
  const used = new Set<string>([shared]);
  const servers = await Promise.all(Array.from({ length: SERVE_PROCESSES }, () => spawnServer(url)));
  const rows: Record<string, unknown>[] = [];
  try {
    for (const n of arg("clients", "1,4,16,64").split(",").map(Number)) {
      // half the clients on the shared namespace, half on one each; every fourth client over HTTP
      const namespaces = Array.from({ length: n }, (_, i) => (i % 2 === 0 ? shared : `${run}_n${n}_c${i}`));
      namespaces.forEach((ns) => used.add(ns));
      const sharedBefore = await stored(shared);
      const http = namespaces.filter((_, i) => i % 4 === 3);
      const sdk = namespaces.filter((_, i) => i % 4 !== 3);
      // every client starts at once, after the child processes had time to open their engines
      const start = Date.now() + 8000;
      const until = start + seconds * 1000;
      const children = Array.from({ length: SDK_PROCESSES }, (_, p) => sdk.filter((_, i) => i % SDK_PROCESSES === p)).filter((part) => part.length > 0);
      const parts = await Promise.all([
        ...children.map((part) =>
          childSamples(spawn(process.execPath, [process.argv[1], "--as-client", "--url", url, "--namespaces", part.join(","), "--start", String(start), "--until", String(until)], { stdio: ["ignore", "pipe", "pipe"] })),
        ),
        httpLoops(servers.map((s) => s.url), http, start, until),
      ]);
      const all: Samples = { search: parts.flatMap((p) => p.search), write: parts.flatMap((p) => p.write), errors: parts.flatMap((p) => p.errors), written: {} };
      for (const p of parts) for (const [ns, k] of Object.entries(p.written)) all.written[ns] = (all.written[ns] ?? 0) + k;
      // no lost writes: every namespace holds what it was seeded with plus every acknowledged write
      let lost = 0;
      for (const [ns, k] of Object.entries(all.written)) {
        lost += (ns === shared ? sharedBefore : 0) + k - (await stored(ns));
      }
      const ops = all.search.length + all.write.length;
      const row = { clients: n, ops_per_s: Math.round(ops / seconds), searches: all.search.length, writes: all.write.length, search_p50: pct(all.search, 0.5), search_p99: pct(all.search, 0.99), write_p50: pct(all.write, 0.5), write_p99: pct(all.write, 0.99), errors: all.errors.length, lost_writes: lost, first_error: all.errors[0] ?? null };
      rows.push(row);
      if (!process.argv.includes("--json")) console.log(JSON.stringify(row));
    }
  } finally {
    for (const s of servers) s.child.kill("SIGTERM");
    // nothing left on the server: each namespace of the run is deleted
    for (const ns of used) await (await openPostgresUrl(url, { namespace: ns, dropOnClose: true })).close();
  }
  if (process.argv.includes("--json")) console.log(JSON.stringify(rows, null, 2));
}

await main();
