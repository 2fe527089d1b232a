import assert from "node:assert/strict";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { MemorySpace, parseInstant } from "../src/index.js";
import { startHttpServer, type RunningServer } from "../src/surfaces/http/serve.js";
import { tempDir } from "./helpers.js";

const TOKEN = "metrics-token";
const NOW = "2026-06-20T09:00:00Z";

/** The value of one sample line of a Prometheus text scrape (0 when the series is absent). */
function sample(scrape: string, name: string, labels: Record<string, string> = {}): number {
  const wanted = Object.entries(labels).map(([k, v]) => `${k}="${v}"`);
  for (const line of scrape.split("\n")) {
    if (line.startsWith("#")) continue;
    const m = /^([a-zA-Z_:][\w:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!m || m[1] !== name) continue;
    const have = (m[2] ?? "").split(",").filter(Boolean);
    if (wanted.every((w) => have.includes(w)) && have.length === wanted.length) return Number(m[3]);
  }
  return 0;
}

describe("GET /metrics on a real loopback server", () => {
  let server: RunningServer;
  const auth = { authorization: `Bearer ${TOKEN}`, "content-type": "application/json" };
  const post = (path: string, body: unknown, headers: Record<string, string> = auth) =>
    fetch(server.url + path, { method: "POST", headers, body: JSON.stringify(body) }).then(async (r) => ({ status: r.status, json: (await r.json()) as any }));
  const scrape = async () => {
    const res = await fetch(`${server.url}/metrics`, { headers: { authorization: `Bearer ${TOKEN}` } });
    assert.equal(res.status, 200);
    assert.match(res.headers.get("content-type") ?? "", /^text\/plain; version=0\.0\.4/);
    return res.text();
  };

  before(async () => {
    server = await startHttpServer(new MemorySpace(join(tempDir(), "metrics.db"), { now: parseInstant("now", NOW) }), { host: "127.0.0.1", port: 0, token: TOKEN });
  });
  after(() => server.close());

  test("behind the token like the API", async () => {
    const res = await fetch(`${server.url}/metrics`);
    assert.equal(res.status, 401);
    assert.equal(((await res.json()) as any).error.code, "UNAUTHORIZED");
  });

  test("counts equal the requests a load run made, scraped while it ran and after", async () => {
    const WRITES = 24;
    const SEARCHES = 40;
    const REFUSED = 5;
    const TEAM = 7;
    const topics = ["billing", "deploys", "oncall", "search"];
    // writes first, some to a second namespace, then searches and refusals all at once with a scrape among them
    const writes = await Promise.all(
      Array.from({ length: WRITES }, (_, i) => post("/v1/memories", { text: `Note ${i} about ${topics[i % 4]}: the ${topics[(i + 1) % 4]} rota changed on day ${i}.`, at: "2026-06-01" })),
    );
    assert.deepEqual(new Set(writes.map((w) => w.status)), new Set([201]));
    for (let i = 0; i < TEAM; i++) {
      assert.equal((await post("/v1/memories", { text: `Team note ${i} on the release train.` }, { ...auth, "x-cascade-namespace": "team" })).status, 201);
    }
    const during: Promise<string>[] = [];
    const load = await Promise.all([
      ...Array.from({ length: SEARCHES }, (_, i) => {
        if (i === SEARCHES / 2) during.push(scrape());
        return post("/v1/search", { query: `${topics[i % 4]} rota`, k: 3, channels: ["bm25", "dense"] });
      }),
      ...Array.from({ length: REFUSED }, () => post("/v1/search", { query: "x" }, { "content-type": "application/json" })),
    ]);
    assert.equal(load.filter((r) => r.status === 200).length, SEARCHES);
    assert.equal(load.filter((r) => r.status === 401).length, REFUSED);
    const mid = await during[0];
    assert.ok(sample(mid, "cascade_http_requests_total", { route: "/v1/search", method: "POST", status: "200" }) <= SEARCHES);

    const text = await scrape();
    const count = (route: string, method: string, status: string) => sample(text, "cascade_http_requests_total", { route, method, status });
    assert.equal(count("/v1/memories", "POST", "201"), WRITES + TEAM);
    assert.equal(count("/v1/search", "POST", "200"), SEARCHES);
    // refused by the token guard: counted under the route they asked for
    assert.equal(count("/v1/search", "POST", "401"), REFUSED);
    assert.equal(count("/metrics", "GET", "200"), 1, "the scrape taken during the load; this one counts after it answers");
    // the latency of every answer on the route, refusals included
    assert.equal(sample(text, "cascade_http_request_duration_seconds_count", { route: "/v1/search", method: "POST" }), SEARCHES + REFUSED);
    assert.equal(sample(text, "cascade_http_request_duration_seconds_count", { route: "/v1/memories", method: "POST" }), WRITES + TEAM);
    // one observation per channel per search, and only the channels asked for
    assert.equal(sample(text, "cascade_search_channel_duration_seconds_count", { channel: "bm25" }), SEARCHES);
    assert.equal(sample(text, "cascade_search_channel_duration_seconds_count", { channel: "dense" }), SEARCHES);
    assert.equal(sample(text, "cascade_search_channel_duration_seconds_count", { channel: "colbert" }), 0);
    // the store figures of each open namespace
    assert.equal(sample(text, "cascade_memories", { namespace: "default" }), WRITES);
    assert.equal(sample(text, "cascade_memories", { namespace: "team" }), TEAM);
    assert.ok(sample(text, "cascade_chunks", { namespace: "default" }) >= WRITES);
    assert.ok(sample(text, "cascade_store_bytes", { namespace: "default" }) > 0);
    assert.match(text, /^cascade_pyramid_dirty_windows\{namespace="default"\} \d+$/m);
    assert.match(text, /^cascade_enrichment_failures\{namespace="default"\} 0$/m);
    assert.match(text, /^# TYPE cascade_http_request_duration_seconds histogram$/m);
  });
});
