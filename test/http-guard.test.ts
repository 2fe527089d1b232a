/**
 * Cross-site requests against `cascade serve` in its default no-token mode: a page the user visits must not be
 * able to plant or read memories, by a simple POST (text/plain, no preflight), from a foreign Origin, or by DNS
 * rebinding (a foreign Host). Requests are sent with node:http, which, unlike fetch, lets a test set Host.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { MemorySpace } from "../src/index.js";
import { startHttpServer, type RunningServer } from "../src/surfaces/http/serve.js";
import { bearerMatches } from "../src/surfaces/http/guard.js";
import { sendHttp as send, tempDir } from "./helpers.js";


const planted = JSON.stringify({ text: "planted by a web page" });

describe("no-token server on loopback", () => {
  let server: RunningServer;
  const count = async () => (await send(server.url, "POST", "/v1/search", { "content-type": "application/json" }, JSON.stringify({ query: "planted web page" }))).json.hits.filter((h: any) => h.text === "planted by a web page").length;
  before(async () => {
    server = await startHttpServer(new MemorySpace(join(tempDir(), "guard.db")), { host: "127.0.0.1", port: 0, allowOrigins: ["https://app.example"] });
  });
  after(() => server.close());

  test("a body that is not declared JSON is 415 and writes nothing", async () => {
    for (const type of ["text/plain", "application/x-www-form-urlencoded", "multipart/form-data; boundary=x", undefined]) {
      const r = await send(server.url, "POST", "/v1/memories", type ? { "content-type": type } : {}, planted);
      assert.equal(r.status, 415, String(type));
      assert.equal(r.json.error.code, "UNSUPPORTED_MEDIA_TYPE");
    }
    assert.equal(await count(), 0);
    const ok = await send(server.url, "POST", "/v1/memories", { "content-type": "application/json; charset=utf-8" }, JSON.stringify({ text: "a real memory" }));
    assert.equal(ok.status, 201);
  });

  test("a POST without a body needs no Content-Type: build the pyramid, retract an edge", async () => {
    const json = { "content-type": "application/json" };
    const ids = (await send(server.url, "POST", "/v1/memories:batch", json, JSON.stringify({ memories: [{ text: "Pool size is 50." }, { text: "Pool size is 20." }] }))).json.ids;
    const edge = (await send(server.url, "POST", "/v1/supersede", json, JSON.stringify({ new: ids[1], old: ids[0] }))).json.id;
    const built = await send(server.url, "POST", "/v1/pyramid:build", {});
    assert.equal(built.status, 200, JSON.stringify(built.json));
    assert.ok(built.json.recomputed);
    const retracted = await send(server.url, "POST", `/v1/edges/${edge}/retract`, {});
    assert.equal(retracted.status, 200, JSON.stringify(retracted.json));
    assert.equal(retracted.json.id, edge);
    assert.notEqual(retracted.json.retracted_at, null);
    // a route that reads a body still wants one
    const empty = await send(server.url, "POST", "/v1/search", {});
    assert.equal(empty.status, 400);
    assert.match(empty.json.error.message, /^body: not valid JSON/);
  });

  test("a foreign Origin is 403 and writes nothing; the server's own origin and configured ones pass", async () => {
    const evil = await send(server.url, "POST", "/v1/memories", { "content-type": "application/json", origin: "https://evil.example" }, planted);
    assert.equal(evil.status, 403);
    assert.equal(evil.json.error.code, "FORBIDDEN_ORIGIN");
    const evilRead = await send(server.url, "GET", "/v1/topics", { origin: "null" });
    assert.equal(evilRead.status, 403);
    assert.equal(await count(), 0);
    const own = await send(server.url, "GET", "/v1/topics", { origin: server.url });
    assert.equal(own.status, 200);
    const configured = await send(server.url, "GET", "/v1/topics", { origin: "https://app.example" });
    assert.equal(configured.status, 200);
    assert.equal(configured.headers["access-control-allow-origin"], "https://app.example");
    const preflight = await send(server.url, "OPTIONS", "/v1/memories", {
      origin: "https://app.example",
      "access-control-request-method": "POST",
      "access-control-request-headers": "content-type",
    });
    assert.equal(preflight.status, 204);
    assert.equal(preflight.headers["access-control-allow-origin"], "https://app.example");
  });

  test("a foreign Host (DNS rebinding) is 403 for reads and writes; loopback names pass", async () => {
    const port = new URL(server.url).port;
    for (const [method, path, body] of [["POST", "/v1/memories", planted], ["GET", "/v1/topics", undefined], ["POST", "/v1/search", '{"query":"x"}']] as const) {
      const r = await send(server.url, method, path, { host: `evil.example:${port}`, "content-type": "application/json" }, body);
      assert.equal(r.status, 403, `${method} ${path}`);
      assert.equal(r.json.error.code, "FORBIDDEN_HOST");
    }
    for (const host of [`localhost:${port}`, `127.0.0.1:${port}`, `[::1]:${port}`]) {
      assert.equal((await send(server.url, "GET", "/v1/topics", { host })).status, 200, host);
    }
    assert.equal(await count(), 0);
  });
});

describe("token mode", () => {
  let server: RunningServer;
  before(async () => {
    server = await startHttpServer(new MemorySpace(join(tempDir(), "token.db")), { host: "127.0.0.1", port: 0, token: "Tok-3n" });
  });
  after(() => server.close());

  test("the Bearer scheme is case-insensitive; the token is exact", async () => {
    for (const auth of ["Bearer Tok-3n", "bearer Tok-3n", "BEARER   Tok-3n"]) {
      assert.equal((await send(server.url, "GET", "/v1/topics", { authorization: auth })).status, 200, auth);
    }
    for (const auth of ["Bearer tok-3n", "Bearer Tok-3", "Bearer Tok-3n-and-more", "Basic Tok-3n", "Tok-3n", ""]) {
      assert.equal((await send(server.url, "GET", "/v1/topics", { authorization: auth })).status, 401, auth);
    }
    assert.equal((await send(server.url, "GET", "/health", {})).status, 200);
  });

  test("the token comparison hashes both sides (equal lengths for timingSafeEqual, whatever is sent)", () => {
    assert.equal(bearerMatches("Bearer x", "x"), true);
    assert.equal(bearerMatches("Bearer " + "x".repeat(10_000), "x"), false);
    assert.equal(bearerMatches(undefined, "x"), false);
  });
});
