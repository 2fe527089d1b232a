/**
 * The web inspector's speed: first paint of the search page on loopback, the search round trip in the
 * page (submit → answer → hits in the DOM) at 100,000 memories, and the page's total transfer, gzipped. The store
 * is the `cascade bench` synthetic corpus (seed 42, one chunk per memory, bulk-loaded without revision detection);
 * the server is `cascade serve` in a child process; the browser is Debian's headless Chromium. Timings are reported,
 * never asserted.
 *
 *   node dist/bench/inspector.js [--memories 100000] [--paints 7] [--queries 50] [--db PATH (reuse a store)]
 */
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { defaultGloveEmbedder, openMemory } from "../src/index.js";
import { syntheticCorpus } from "../src/bench/corpus.js";
import { percentiles } from "../src/bench/run.js";
import { launchChromium } from "./chromium.js";
import { spawnServer } from "./spawn-server.js";

function flag(name: string, fallback: number): number {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? Number(process.argv[i + 1]) : fallback;
}
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

const memories = flag("memories", 100_000);
const paints = flag("paints", 7);
const queries = flag("queries", 50);
const dbFlag = process.argv.indexOf("--db");
const work = mkdtempSync(join(tmpdir(), "cascade-inspector-bench-"));
const db = dbFlag > 0 ? process.argv[dbFlag + 1] : join(work, "bench.db");

const embedder = defaultGloveEmbedder();
const corpus = syntheticCorpus({ memories, queries: queries + 5, seed: 42, vocabulary: [...embedder.vocabulary()] });
if (!existsSync(db)) {
  const engine = await openMemory({ path: db, embedder });
  const started = performance.now();
  for (let i = 0; i < memories; i += 2000) await engine.rememberMany(corpus.memories.slice(i, i + 2000), { batchSize: 2000, detect: false });
  process.stderr.write(`built ${memories} memories in ${((performance.now() - started) / 1000).toFixed(1)} s\n`);
  await engine.close();
}

const { child, url } = await spawnServer(db);
try {
  // First paint, cold: a fresh Chromium profile (empty cache) each time.
  const paint: { fp: number; fcp: number; dcl: number; transfer: number; body: number; requests: number }[] = [];
  for (let i = 0; i < paints; i++) {
    const browser = await launchChromium(mkdtempSync(join(work, "profile-")));
    const page = await browser.newPage();
    await page.goto(`${url}/#search`);
    await page.locator("#query").waitFor({ state: "visible" });
    await page.waitForLoadState("networkidle");
    paint.push(
      (await page.evaluate(`(() => {
        const p = Object.fromEntries(performance.getEntriesByType("paint").map((e) => [e.name, e.startTime]));
        const nav = performance.getEntriesByType("navigation")[0];
        const all = [nav, ...performance.getEntriesByType("resource")];
        return { fp: p["first-paint"], fcp: p["first-contentful-paint"], dcl: nav.domContentLoadedEventEnd,
          transfer: all.reduce((s, e) => s + e.transferSize, 0), body: all.reduce((s, e) => s + e.encodedBodySize, 0), requests: all.length };
      })()`)) as (typeof paint)[number],
    );
    await browser.close();
  }

  // The search round trip, in one warm page: the first queries load the dense matrix and are left out.
  const browser = await launchChromium(mkdtempSync(join(work, "profile-")));
  const page = await browser.newPage();
  await page.goto(`${url}/#search`);
  const trips: number[] = [];
  const server: number[] = [];
  const fetched: number[] = [];
  for (const [i, q] of corpus.queries.entries()) {
    await page.locator("#query").fill(q);
    await page.locator("#query").press("Enter");
    const ms = Number(await page.locator("#results[data-roundtrip-ms]").getAttribute("data-roundtrip-ms"));
    const summary = (await page.locator("#search-summary").textContent()) ?? "";
    if (i >= 5) {
      trips.push(ms);
      server.push(Number(/server ([\d.]+) ms/.exec(summary)?.[1]));
      fetched.push(Number(/in the page ([\d.]+) ms/.exec(summary)?.[1]));
    }
  }
  await browser.close();

  const round = (x: number) => Math.round(x * 10) / 10;
  console.log(
    JSON.stringify(
      {
        memories,
        first_paint_ms: { median: round(median(paint.map((p) => p.fp))), runs: paint.map((p) => round(p.fp)) },
        first_contentful_paint_ms: { median: round(median(paint.map((p) => p.fcp))) },
        dom_content_loaded_ms: { median: round(median(paint.map((p) => p.dcl))) },
        transfer_bytes: { with_headers: paint[0].transfer, bodies_gzipped: paint[0].body, requests: paint[0].requests },
        search_round_trip_ms: { ...percentiles(trips), queries: trips.length },
        // took_ms inside the engine; the fetch (HTTP + JSON) as the page saw it; the rest of the trip is drawing
        server_took_ms: percentiles(server),
        page_fetch_ms: percentiles(fetched),
        page_overhead_ms_p50: round(median(trips.map((t, i) => t - server[i]))),
      },
      null,
      2,
    ),
  );
} finally {
  child.kill("SIGTERM");
  rmSync(work, { recursive: true, force: true }); // profiles, and the store unless --db named one
}
