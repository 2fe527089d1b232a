/**
 * @module surfaces/http/metrics
 * `GET /metrics` in the Prometheus text format (prom-client), behind the same guards as the API (a token, when
 * the server has one). What it counts:
 *
 * - every request, by route (the pattern it matched, `/v1/memories/:id`, so ids never become label values),
 *   method and status, and its latency per route and method;
 * - each search's time per channel (what the search's `channels[name].ms` reports);
 * - per namespace the server holds open (the default one always): memories, chunks, the store's bytes on disk and
 *   the pyramid's lag (windows written to and not summarised again yet), read at scrape time.
 *
 * One registry per server, not prom-client's global one, so two servers in one process (tests) count apart.
 * With `serve --workers N` each worker keeps its own counts: a scrape is answered by one worker (named by the
 * `X-Cascade-Worker` header and the `worker` label of `cascade_worker_info`).
 */
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from "prom-client";
import { matchedRoutes } from "hono/route";
import type { MiddlewareHandler } from "hono";
import type { MemorySpace, SearchResult } from "../../index.js";

/** Seconds; a search over 100,000 chunks takes a few to a few tens of milliseconds, an import batch seconds. */
const REQUEST_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];
const CHANNEL_BUCKETS = [0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 1];

export interface ServerMetrics {
  /** Counts and times every request; goes before every other middleware so refused requests count too. */
  middleware: MiddlewareHandler;
  /** Records one search's per-channel times. */
  observeSearch(result: SearchResult): void;
  /** The scrape: store figures read now, then the whole registry as text. */
  scrape(): Promise<{ contentType: string; body: string }>;
}

export function createServerMetrics(space: MemorySpace): ServerMetrics {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry, prefix: "cascade_process_" });
  new Gauge({ name: "cascade_worker_info", help: "The process answering this scrape (serve --workers: each worker counts its own)", labelNames: ["worker"], registers: [registry] }).set({ worker: String(process.pid) }, 1);
  const requests = new Counter({ name: "cascade_http_requests_total", help: "HTTP requests answered, by matched route, method and status", labelNames: ["route", "method", "status"], registers: [registry] });
  const latency = new Histogram({ name: "cascade_http_request_duration_seconds", help: "Time from a request's arrival to its response, by matched route and method", labelNames: ["route", "method"], buckets: REQUEST_BUCKETS, registers: [registry] });
  const channel = new Histogram({ name: "cascade_search_channel_duration_seconds", help: "Per search, from the start of the channel stage to this channel's answer", labelNames: ["channel"], buckets: CHANNEL_BUCKETS, registers: [registry] });
  const gauge = (name: string, help: string) => new Gauge({ name, help, labelNames: ["namespace"], registers: [registry] });
  const memories = gauge("cascade_memories", "Memories stored (summary nodes not counted), per open namespace");
  const chunks = gauge("cascade_chunks", "Chunks indexed, per open namespace");
  const bytes = gauge("cascade_store_bytes", "Bytes the store takes (SQLite: the namespace's database, write-ahead log and vector graph; PostgreSQL: Cascade's tables, which every namespace shares), per open namespace");
  const lag = gauge("cascade_pyramid_dirty_windows", "Pyramid windows written to and not summarised again yet, per open namespace");
  const enrichment = gauge("cascade_enrichment_failures", "Enrichment steps that failed on stored memories and wait for doctor --repair, per open namespace");
  const scrapeErrors = new Counter({ name: "cascade_metrics_namespace_errors_total", help: "Namespaces whose figures a scrape could not read (closed or removed meanwhile)", registers: [registry] });

  const middleware: MiddlewareHandler = async (c, next) => {
    const started = performance.now();
    try {
      await next();
    } finally {
      // the pattern of the route the request matched, also when a guard refused it before that route ran (the
      // middlewares match every method: "ALL"); "unmatched" when no route did (an unknown path)
      const handler = matchedRoutes(c).findLast((r) => r.method !== "ALL");
      const route = handler?.path ?? "unmatched";
      const method = c.req.method;
      requests.inc({ route, method, status: String(c.res.status) });
      latency.observe({ route, method }, (performance.now() - started) / 1000);
    }
  };

  const observeSearch = (result: SearchResult) => {
    for (const [name, report] of Object.entries(result.channels)) {
      if (report && !report.unsupported) channel.observe({ channel: name }, report.ms / 1000);
    }
  };

  const readStores = async () => {
    for (const g of [memories, chunks, bytes, lag, enrichment]) g.reset(); // a namespace closed since the last scrape drops out
    for (const namespace of space.openNamespaces()) {
      try {
        const lease = await space.acquire(namespace);
        try {
          const v = await lease.engine.vitals();
          memories.set({ namespace }, v.memories);
          chunks.set({ namespace }, v.chunks);
          bytes.set({ namespace }, v.bytes);
          lag.set({ namespace }, v.dirtyWindows);
          enrichment.set({ namespace }, v.enrichmentFailures);
        } finally {
          lease.release();
        }
      } catch {
        scrapeErrors.inc();
      }
    }
  };

  return {
    middleware,
    observeSearch,
    async scrape() {
      await readStores();
      return { contentType: registry.contentType, body: await registry.metrics() };
    },
  };
}
