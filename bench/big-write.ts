/**
 * One large text against `cascade serve`: a 975,000-character memory of varied English (bench/big-text.ts) is
 * written to a fresh store in a server in a child process while /health is polled every 10 ms and a search is
 * sent every 50 ms from here; then a batch of 40 texts of 25,000 characters the same way; then a short memory
 * over HTTP, and the same with the CLI (`cascade add`, a new process, as a script would) after the big one and
 * on an empty store; then the same megabyte without full stops or line breaks (one "sentence") added with the
 * CLI, and a short memory after it. Reported: each write's time, time per MB, and the longest and median /health
 * and search answers while it ran and how many took over 100 ms (how long the server's one thread was held), and
 * one search sent right after the batch has answered.
 *
 *   npm run build && node dist/bench/big-write.js
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { bigText } from "./big-text.js";
import { spawnServer } from "./spawn-server.js";

const CLI = new URL("../src/surfaces/cli/main.js", import.meta.url).pathname;
const BIG = 975_000;

async function post(url: string, path: string, body: unknown): Promise<number> {
  const res = await fetch(url + path, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
  await res.arrayBuffer();
  if (res.status >= 300) throw new Error(`${path}: ${res.status}`);
  return res.status;
}

/**
 * Runs `write` while polling /health (every 10 ms) and search (every 50 ms): the write's time, the longest and
 * median answers, and how many answers took over 100 ms (the longest alone is one sample of a loaded machine).
 */
async function whileWriting(url: string, write: () => Promise<unknown>) {
  let running = true;
  const times: Record<"health" | "search", number[]> = { health: [], search: [] };
  const poll = async (every: number, send: () => Promise<unknown>, key: "health" | "search") => {
    while (running) {
      const t = performance.now();
      await send();
      times[key].push(performance.now() - t);
      await new Promise((r) => setTimeout(r, every));
    }
  };
  const polls = [
    poll(10, async () => (await fetch(`${url}/health`)).arrayBuffer(), "health"),
    poll(50, () => post(url, "/v1/search", { query: "Lisbon trip moved" }), "search"),
  ];
  const t0 = performance.now();
  await write();
  const took = performance.now() - t0;
  running = false;
  await Promise.all(polls);
  const max = (a: number[]) => Math.round(Math.max(0, ...a));
  const median = (a: number[]) => Math.round([...a].sort((x, y) => x - y)[Math.floor(a.length / 2)] ?? 0);
  const over = (a: number[]) => a.filter((ms) => ms > 100).length;
  const { health, search } = times;
  return {
    took_ms: Math.round(took),
    health_max_ms: max(health),
    search_max_ms: max(search),
    health_answers: health.length,
    health_median_ms: median(health),
    health_over_100ms: over(health),
    search_answers: search.length,
    search_median_ms: median(search),
    search_over_100ms: over(search),
  };
}

function cliAdd(db: string, text: string): number {
  const t0 = performance.now();
  const r = spawnSync(process.execPath, [CLI, "add", text, "--db", db], { encoding: "utf8" });
  if (r.status !== 0) throw new Error(r.stderr);
  return Math.round(performance.now() - t0);
}

const dir = mkdtempSync(join(tmpdir(), "cascade-big-write-"));
const db = join(dir, "big.db");
const short = "Marcus Okafor moved the quarterly review to Thursday, March 3.";
const report: Record<string, unknown> = {};
try {
  report.cli_add_empty_store_ms = cliAdd(join(dir, "empty.db"), short);
  const { child, url } = await spawnServer(db);
  try {
    await post(url, "/v1/memories", { text: "Priya moved the Lisbon trip to Friday." });
    await post(url, "/v1/search", { query: "Lisbon" });
    const text = bigText(BIG);
    const big = await whileWriting(url, () => post(url, "/v1/memories", { text }));
    report.big = { chars: text.length, ...big, ms_per_mb: Math.round(big.took_ms / (text.length / 1e6)) };
    const texts = Array.from({ length: 40 }, (_, i) => bigText(25_000, 100 + i));
    report.batch_40x25k = await whileWriting(url, () => post(url, "/v1/memories:batch", { memories: texts.map((t) => ({ text: t })) }));
    // a search right after the batch: it does not wait for the pyramid's refresh of so large a write (its summaries
    // come back marked stale), only for that of a small one (pyramid/keeper.ts settleSmall)
    const s0 = performance.now();
    await post(url, "/v1/search", { query: "Lisbon trip moved" });
    report.search_after_batch_ms = Math.round(performance.now() - s0);
    const t0 = performance.now();
    await post(url, "/v1/memories", { text: short });
    report.http_add_after_ms = Math.round(performance.now() - t0);
  } finally {
    child.kill("SIGTERM");
    await new Promise((r) => child.once("exit", r));
  }
  report.cli_add_after_big_ms = cliAdd(db, "Grace Liu postponed the team offsite to Monday, May 4.");
  // the same text without a full stop or a line break: one "sentence" of a megabyte
  const flat = join(dir, "flat.txt");
  writeFileSync(flat, bigText(BIG).replace(/[\n.!?]+/g, " "));
  const flatDb = join(dir, "flat.db");
  const t0 = performance.now();
  const r = spawnSync(process.execPath, [CLI, "add", "--file", flat, "--db", flatDb], { encoding: "utf8" });
  if (r.status !== 0) throw new Error(r.stderr);
  report.cli_add_unpunctuated_ms = Math.round(performance.now() - t0);
  report.cli_add_after_unpunctuated_ms = cliAdd(flatDb, "Grace Liu postponed the team offsite to Monday, May 4.");
} finally {
  rmSync(dir, { recursive: true, force: true });
}
console.log(JSON.stringify(report, null, 2));
