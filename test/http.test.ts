import assert from "node:assert/strict";
import { spawnServer } from "../bench/spawn-server.js";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { MemorySpace, openMemory, parseInstant } from "../src/index.js";
import { startHttpServer, type RunningServer } from "../src/surfaces/http/serve.js";
import { tempDir } from "./helpers.js";

const TOKEN = "s3cret-token";
const NOW = "2026-06-20T09:00:00Z";

describe("HTTP API on a real loopback server", () => {
  let server: RunningServer;
  const base = join(tempDir(), "http.db");
  const call = async (method: string, path: string, body?: unknown, headers: Record<string, string> = {}) => {
    const res = await fetch(server.url + path, {
      method,
      headers: { authorization: `Bearer ${TOKEN}`, "content-type": "application/json", ...headers },
      body: body === undefined ? undefined : typeof body === "string" ? body : JSON.stringify(body),
    });
    return { status: res.status, json: (await res.json()) as any, headers: res.headers };
  };

  before(async () => {
    server = await startHttpServer(new MemorySpace(base, { now: parseInstant("now", NOW) }), { host: "127.0.0.1", port: 0, token: TOKEN, maxBodyBytes: 64 * 1024, maxBatch: 100 });
  });
  after(() => server.close());

  test("health is open; everything else needs the token", async () => {
    assert.deepEqual(await (await fetch(`${server.url}/health`)).json(), { ok: true });
    const res = await fetch(`${server.url}/v1/search`, { method: "POST", body: JSON.stringify({ query: "x" }) });
    assert.equal(res.status, 401);
    assert.equal(((await res.json()) as any).error.code, "UNAUTHORIZED");
    assert.equal((await call("POST", "/v1/search", { query: "x" }, { authorization: "Bearer wrong" })).status, 401);
  });

  test("every endpoint's happy path", async () => {
    const feb = await call("POST", "/v1/memories", { text: "Connection pool size is 50 in the service config.", topic: "ops.config", at: "2026-02-01" });
    assert.equal(feb.status, 201);
    assert.match(feb.json.id, /^m_/);
    const batch = await call("POST", "/v1/memories:batch", { memories: [{ text: "The connection pool size in the service config is smaller now.", topic: "ops.config", at: "2026-06-01" }, { text: "" }] });
    assert.equal(batch.status, 200);
    assert.equal(batch.json.imported, 1);
    assert.deepEqual(batch.json.failed.map((f: any) => f.index), [1]);
    const june = batch.json.ids[0];
    assert.equal((await call("GET", `/v1/memories/${feb.json.id}`)).json.topic, "ops.config");
    const edge = await call("POST", "/v1/supersede", { new: june, old: feb.json.id, reason: "reverted" });
    assert.equal(edge.status, 201);
    assert.equal(edge.json.from, june);
    const search = await call("POST", "/v1/search", { query: "connection pool size", k: 5, channels: ["bm25", "dense"], rrf_k: 30 });
    assert.equal(search.status, 200);
    assert.equal(search.json.rrf_k, 30);
    // the wait in line and the search itself, as Server-Timing (the search's figure is its took_ms)
    const timing = /^queue;dur=(\d+\.\d{3}), search;dur=([\d.]+)$/.exec(search.headers.get("server-timing") ?? "");
    assert.ok(timing, `Server-Timing: ${search.headers.get("server-timing")}`);
    assert.equal(Number(timing[2]), search.json.took_ms);
    assert.ok(Number(timing[1]) >= 0);
    assert.equal(search.json.hits[0].id, june);
    assert.equal(search.json.hits.find((h: any) => h.id === feb.json.id).status, "superseded");
    // the summaries of the first hit's windows come beside the hits; "pyramid": false leaves them out
    assert.ok(search.json.context.length > 0 && search.json.context.every((c: any) => c.hits.includes(june) && c.id.startsWith("p_")));
    assert.deepEqual((await call("POST", "/v1/search", { query: "connection pool size", pyramid: false })).json.context, []);
    const asOf = await call("POST", "/v1/search", { query: "connection pool size", as_of: "2026-03-01" });
    assert.deepEqual(asOf.json.hits.map((h: any) => h.id), [feb.json.id]);
    const history = await call("GET", `/v1/memories/${feb.json.id}/history`);
    assert.deepEqual(history.json.chain.map((c: any) => c.id), [feb.json.id, june]);
    assert.deepEqual((await call("GET", "/v1/topics?under=ops")).json, { topics: [{ path: "ops", count: 0, total: 2, description: null }, { path: "ops.config", count: 2, total: 2, description: null }] });
    assert.equal((await call("POST", `/v1/edges/${edge.json.id}/retract`)).json.retracted_at, NOW);
    // detection saw a weak cue ("now") on the same subject and suggested the revision that was then recorded by
    // hand ("Pool size goes to 20 from June", a value and the date it takes effect, is an edge on its own)
    const suggestions = (await call("GET", "/v1/suggestions")).json.suggestions;
    assert.deepEqual(suggestions.map((x: any) => [x.from, x.to]), [[june, feb.json.id]]);
    assert.equal((await call("POST", `/v1/suggestions/${suggestions[0].id}`, { decision: "rejected" })).json.status, "rejected");
    assert.deepEqual((await call("GET", "/v1/suggestions")).json, { suggestions: [] });
    assert.equal((await call("POST", "/v1/topics", { path: "ops.runbooks", description: "How to run things" })).status, 201);
    assert.deepEqual((await call("POST", "/v1/topics:move", { from: "ops", to: "platform" })).json, { from: "ops", to: "platform", memories: 2 });
    assert.equal((await call("POST", "/v1/topics:merge", { from: "platform.runbooks", to: "platform.config" })).json.memories, 0);
    assert.equal((await call("DELETE", "/v1/topics/platform.config")).status, 400);
    assert.equal((await call("POST", "/v1/topics", { path: "a..b" })).status, 400);
    // every write kept the pyramid current: a build finds nothing to do
    const built = await call("POST", "/v1/pyramid:build");
    assert.deepEqual(built.json.recomputed, { day: 0, week: 0, month: 0 });
    const pyramid = await call("GET", "/v1/pyramid?level=day");
    assert.deepEqual(pyramid.json.nodes.map((n: any) => [n.id, n.children]), [["p_day_2026-02-01", 1], ["p_day_2026-06-01", 1]]);
    assert.equal((await call("GET", "/v1/pyramid?level=decade")).status, 400);
    const summaries = await call("POST", "/v1/search", { query: "pool size in June 2026", kinds: ["summary"], now: NOW });
    assert.equal(summaries.json.hits[0].id, "p_month_2026-06");
    assert.deepEqual(summaries.json.hits[0].window, { start: "2026-06-01T00:00:00Z", end: "2026-07-01T00:00:00Z" });
    assert.deepEqual((await call("DELETE", `/v1/memories/${june}`)).json, { id: june, forgotten: true, summaries_rebuilt: 3 });
    const doc = await call("GET", "/openapi.json");
    assert.equal(doc.json.openapi, "3.1.0");
    assert.ok(doc.json.paths["/v1/search"].post.requestBody.content["application/json"].schema.properties.query);
  });

  test("validation errors: 400 with the field, 404 for unknown ids and routes, 413 for big bodies", async () => {
    const cases: [string, string, unknown, number, RegExp][] = [
      ["POST", "/v1/search", "{not json", 400, /body: not valid JSON/],
      ["POST", "/v1/search", { k: 3 }, 400, /query: required/],
      ["POST", "/v1/search", { query: "x", colour: 1 }, 400, /unknown field/],
      ["POST", "/v1/search", { query: "x", k: 0 }, 400, /^k: /],
      ["POST", "/v1/search", { query: "x", since: "yesterday" }, 400, /since: /],
      ["POST", "/v1/memories", { text: "" }, 400, /text: cannot be empty/],
      ["POST", "/v1/memories", { text: "x", at: "soon" }, 400, /^at: /],
      ["POST", "/v1/memories:batch", { memories: Array.from({ length: 101 }, () => ({ text: "x" })) }, 400, /at most 100 per batch/],
      ["POST", "/v1/supersede", { new: "m_a" }, 400, /old: /],
      ["POST", "/v1/supersede", { new: "m_a", old: "m_b" }, 404, /no memory with id "m_a"/],
      ["GET", "/v1/memories/m_nope", undefined, 404, /no memory with id "m_nope"/],
      ["DELETE", "/v1/memories/m_nope", undefined, 404, /no memory/],
      ["GET", "/v1/nothing-here", undefined, 404, /no route/],
      ["POST", "/v1/memories", { text: "x".repeat(70 * 1024) }, 413, /larger than 65536 bytes/],
    ];
    for (const [method, path, body, status, message] of cases) {
      const r = await call(method, path, body);
      assert.equal(r.status, status, `${method} ${path}: ${JSON.stringify(r.json)}`);
      assert.match(r.json.error.message, message);
      assert.ok(r.json.error.code);
    }
    // the field at fault travels beside the message, spelled as the wire spells it (as_of, not the SDK's asOf)
    assert.deepEqual((await call("POST", "/v1/search", { query: "x", as_of: "whenever" })).json.error.field, "as_of");
    assert.deepEqual((await call("POST", "/v1/search", { query: "x", k: 0 })).json.error.field, "k");
    assert.equal((await call("GET", "/v1/nothing-here")).json.error.field, undefined);
    const ns = await call("POST", "/v1/search", { query: "x" }, { "x-cascade-namespace": "../etc" });
    assert.equal(ns.status, 400);
    assert.match(ns.json.error.message, /^namespace: /);
  });

  test("60 concurrent searches and writes all succeed", async () => {
    const requests = Array.from({ length: 60 }, (_, i) =>
      i % 2 === 0
        ? call("POST", "/v1/memories", { text: `Concurrent note number ${i} about the deploy pipeline.` })
        : call("POST", "/v1/search", { query: "deploy pipeline note", k: 5 }),
    );
    const results = await Promise.all(requests);
    for (const r of results) assert.ok(r.status === 200 || r.status === 201, JSON.stringify(r.json));
    const after = await call("POST", "/v1/search", { query: "concurrent note deploy pipeline", k: 50, channels: ["bm25"] });
    assert.equal(after.json.hits.filter((h: any) => /^Concurrent note/.test(h.text)).length, 30);
  });

  test("namespaces never see each other", async () => {
    const a = await call("POST", "/v1/memories", { text: "The launch code word is Bluebird." }, { "x-cascade-namespace": "alice" });
    const b = await call("POST", "/v1/memories", { text: "The launch code word is Redwing." }, { "x-cascade-namespace": "bob" });
    const inA = await call("POST", "/v1/search", { query: "launch code word" }, { "x-cascade-namespace": "alice" });
    assert.deepEqual(inA.json.hits.map((h: any) => h.id), [a.json.id]);
    const inB = await call("POST", "/v1/search", { query: "launch code word" }, { "x-cascade-namespace": "bob" });
    assert.deepEqual(inB.json.hits.map((h: any) => h.id), [b.json.id]);
    const inDefault = await call("POST", "/v1/search", { query: "launch code word Bluebird Redwing" });
    assert.ok(!inDefault.json.hits.some((h: any) => h.id === a.json.id || h.id === b.json.id));
    assert.equal((await call("GET", `/v1/memories/${a.json.id}`, undefined, { "x-cascade-namespace": "bob" })).status, 404);
    // the SDK sees the same isolation
    const sdk = await openMemory({ path: base, namespace: "alice" });
    assert.deepEqual((await sdk.recall("launch code word")).hits.map((h) => h.id), [a.json.id]);
    await sdk.close();
  });

  test("refuses to listen beyond loopback without a token", async () => {
    await assert.rejects(startHttpServer(new MemorySpace(join(tempDir(), "x.db")), { host: "0.0.0.0", port: 0 }), /not loopback: set --token/);
  });
});

test("SIGTERM during a batch import loses no acknowledged memory", async () => {
  const db = join(tempDir(), "sigterm.db");
  const { child, url } = await spawnServer(db);
  const acknowledged: string[] = [];
  let sent = 0;
  const batch = (n: number) => Array.from({ length: 200 }, (_, i) => ({ text: `Batch ${n} memory ${i}: the quarterly numbers look fine.` }));
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  const importer = (async () => {
    for (let n = 0; n < 50; n++) {
      let res: Response;
      try {
        sent++;
        res = await fetch(`${url}/v1/memories:batch`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ memories: batch(n) }) });
      } catch {
        return; // the server stopped accepting: nothing was acknowledged for this batch
      }
      if (res.status !== 200) return;
      const r = (await res.json()) as { ids: string[] };
      acknowledged.push(...r.ids);
    }
  })();
  while (acknowledged.length < 400) await new Promise((r) => setTimeout(r, 20));
  child.kill("SIGTERM");
  await importer;
  assert.equal(await exited, 0);
  assert.ok(sent > 2);
  const engine = await openMemory({ path: db });
  for (const id of acknowledged) await engine.show(id); // throws NOT_FOUND if an acknowledged memory was lost
  assert.ok((await engine.stats()).memories >= acknowledged.length);
  await engine.close();
});
