/**
 * Single requests that stalled the server: a body's depth and
 * entry counts are refused on its text, before JSON.parse builds it (a body that is also invalid JSON shows the
 * order: the shape error, not the syntax one); a browser's cross-site GET without an Origin is refused; doctor runs
 * in a thread of its own, once for every request waiting on it, and is ended when no one waits any more; OPTIONS
 * tells nothing without a token; /health answers while a 1 MB memory is written.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import Database from "better-sqlite3";
import { MemorySpace, openMemory, parseInstant } from "../src/index.js";
import { doctorInThread } from "../src/backends/sqlite/doctor-thread.js";
import { sharedJobs } from "../src/surfaces/http/shared-jobs.js";
import { startHttpServer, type RunningServer } from "../src/surfaces/http/serve.js";
import { sendHttp as send, tempDir } from "./helpers.js";
import { bigText } from "../bench/big-text.js";


const JSON_TYPE = { "content-type": "application/json" };

describe("a served store", () => {
  let server: RunningServer;
  before(async () => {
    server = await startHttpServer(new MemorySpace(join(tempDir(), "stall.db")), { host: "127.0.0.1", port: 0, token: "s3cret" });
  });
  after(() => server.close());
  const auth = { authorization: "Bearer s3cret" };

  test("a body nested a million levels is refused for its depth before it is parsed", async () => {
    const deep = "[".repeat(1_000_000) + "x"; // invalid JSON too: JSON.parse would have said so
    const r = await send(server.url, "POST", "/v1/search", { ...JSON_TYPE, ...auth }, deep);
    assert.equal(r.status, 400);
    assert.equal(r.json.error.code, "INVALID_INPUT");
    assert.equal(r.json.error.message, "body: nested deeper than 64 levels");
  });

  test("a batch of 20,000 entries is refused for its count before it is parsed", async () => {
    const many = `{"memories": [${Array(20_000).fill("{}").join(",")}], oops`;
    const r = await send(server.url, "POST", "/v1/memories:batch", { ...JSON_TYPE, ...auth }, many);
    assert.equal(r.status, 400);
    assert.equal(r.json.error.message, "body: an array or object holds more than 10000 entries");
  });

  test("bodies within the bounds pass: metadata 16 levels deep, strings full of brackets and commas", async () => {
    let metadata: unknown = { leaf: true };
    for (let i = 1; i < 16; i++) metadata = { level: metadata };
    const text = `Brackets [[[ { and commas ${",".repeat(20_000)} inside a string`;
    const r = await send(server.url, "POST", "/v1/memories:batch", { ...JSON_TYPE, ...auth }, JSON.stringify({ memories: [{ text: "Nested metadata note", metadata }, { text }] }));
    assert.equal(r.status, 200, r.text);
    assert.equal(r.json.imported, 2);
  });

  test("a browser's cross-site GET without an Origin (an <img>) is 403; same-origin, typed URLs and non-browsers pass", async () => {
    for (const site of ["cross-site", "same-site"]) {
      const r = await send(server.url, "GET", "/v1/doctor", { ...auth, "sec-fetch-site": site, "sec-fetch-dest": "image" });
      assert.equal(r.status, 403, site);
      assert.equal(r.json.error.code, "FORBIDDEN_ORIGIN");
    }
    for (const headers of [{ "sec-fetch-site": "same-origin" }, { "sec-fetch-site": "none" }, {}] as Record<string, string>[]) {
      const r = await send(server.url, "GET", "/v1/stats", { ...auth, ...headers });
      assert.equal(r.status, 200, JSON.stringify(headers));
    }
  });

  test("/health answers while a memory of 975,000 characters of varied English is written", async () => {
    // extraction, detection and summaries of a long text pause for I/O (entities/extract, graph/detect): it held
    // the server's thread for seconds before
    let done = false;
    const write = send(server.url, "POST", "/v1/memories", { ...JSON_TYPE, ...auth }, JSON.stringify({ text: bigText(975_000) })).finally(() => (done = true));
    let answeredMeanwhile = 0;
    while (!done) {
      const h = await send(server.url, "GET", "/health", {});
      if (!done) {
        assert.equal(h.status, 200);
        answeredMeanwhile++;
      }
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    assert.equal((await write).status, 201);
    assert.ok(answeredMeanwhile >= 1, "/health answered while the write was in flight");
  });

  test("doctor over HTTP answers its checks", async () => {
    const r = await send(server.url, "GET", "/v1/doctor", auth);
    assert.equal(r.status, 200, r.text);
    assert.equal(r.json.ok, true);
    assert.ok(r.json.checks.some((c: { name: string }) => c.name === "sqlite integrity"));
  });

  test("OPTIONS without a token answers alike for a namespace that exists and one that does not", async () => {
    await send(server.url, "POST", "/v1/memories", { ...JSON_TYPE, ...auth, "x-cascade-namespace": "real" }, JSON.stringify({ text: "a memory in real" }));
    const answers = [];
    for (const ns of ["real", "ghost"]) {
      const r = await send(server.url, "OPTIONS", "/v1/stats", { "x-cascade-namespace": ns });
      answers.push({ status: r.status, text: r.text });
    }
    assert.deepEqual(answers[0], { status: 204, text: "" });
    assert.deepEqual(answers[1], answers[0]);
  });
});

test("doctor's thread leaves the event loop free and ends when its caller gives up", async () => {
  const path = join(tempDir(), "memory.db");
  const engine = await openMemory({ path, now: parseInstant("now", "2026-06-03T10:00:00Z") });
  await engine.remember({ text: "A memory to check" });
  await engine.close();
  // another connection holds the file exclusively: the thread's reads wait for it (up to the busy timeout)
  const holder = new Database(path);
  holder.pragma("locking_mode = EXCLUSIVE");
  holder.exec("BEGIN EXCLUSIVE; INSERT INTO meta (key, value) VALUES ('held', '1'); COMMIT");
  try {
    const controller = new AbortController();
    let settled = false;
    const run = doctorInThread(path, 100, controller.signal).finally(() => (settled = true));
    run.catch(() => {});
    await new Promise((resolve) => setTimeout(resolve, 200)); // a timer fires: the loop is free
    assert.equal(settled, false, "still reading in its thread");
    controller.abort();
    await assert.rejects(run, /doctor was cancelled/);
  } finally {
    holder.close();
  }
});

test("requests that ask while a job runs share it; the job is aborted once every one of them has gone", async () => {
  let starts = 0;
  let aborted = false;
  let finish!: (v: string) => void;
  const run = sharedJobs((_key: string, signal) => {
    starts++;
    signal.addEventListener("abort", () => (aborted = true));
    return new Promise<string>((resolve) => (finish = resolve));
  });
  const clients = [new AbortController(), new AbortController(), new AbortController()];
  const waits = clients.map((c) => run("ns", c.signal));
  assert.equal(starts, 1);
  clients[0].abort();
  clients[1].abort();
  assert.equal(aborted, false, "one client still waits");
  clients[2].abort();
  assert.equal(aborted, true);
  finish("done");
  assert.deepEqual(await Promise.all(waits), ["done", "done", "done"]);
  const later = run("ns", new AbortController().signal); // a request after the run ended starts a new one
  assert.equal(starts, 2);
  finish("again");
  assert.equal(await later, "again");
});
