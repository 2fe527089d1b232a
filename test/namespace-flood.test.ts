/**
 * A header value is free to invent: reads of an unknown namespace must not create it, the server keeps a
 * bounded number of stores open (closing only idle ones), and a cap stops the creation of new namespaces.
 */
import assert from "node:assert/strict";
import { existsSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { MemorySpace } from "../src/index.js";
import { startHttpServer } from "../src/surfaces/http/serve.js";
import { cli, cliHere, tempDir } from "./helpers.js";

async function call(url: string, method: string, path: string, namespace: string, body?: unknown) {
  const res = await fetch(url + path, {
    method,
    headers: { "content-type": "application/json", "x-cascade-namespace": namespace },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.status, json: (await res.json()) as any };
}

test("reads of unknown namespaces create nothing; open stores stay bounded; the cap refuses new ones", async () => {
  const base = join(tempDir(), "flood.db");
  const space = new MemorySpace(base, { limits: { openStores: 3, maxNamespaces: 12 } });
  const server = await startHttpServer(space, { host: "127.0.0.1", port: 0 });
  try {
    for (let i = 0; i < 50; i++) {
      const reads = await Promise.all([
        call(server.url, "POST", "/v1/search", `ghost${i}`, { query: "anything" }),
        call(server.url, "GET", "/v1/topics", `ghost${i}`),
        call(server.url, "GET", "/v1/memories/m_x", `ghost${i}`),
      ]);
      for (const r of reads) assert.equal(r.status, 404, JSON.stringify(r.json));
    }
    assert.equal(existsSync(`${base}.ns`), false, "not one namespace file was created by a read");

    // 10 namespaces written in parallel, 5 requests each, through a cache of 3: every request succeeds
    const writes = await Promise.all(
      Array.from({ length: 50 }, (_, i) => call(server.url, "POST", "/v1/memories", `team${i % 10}`, { text: `note ${i} of team ${i % 10}` })),
    );
    for (const w of writes) assert.equal(w.status, 201, JSON.stringify(w.json));
    assert.ok(space.openCount <= 3, `${space.openCount} stores open`);
    for (let t = 0; t < 10; t++) {
      const r = await call(server.url, "POST", "/v1/search", `team${t}`, { query: `team ${t}`, k: 20, channels: ["bm25"] });
      assert.equal(r.status, 200);
      assert.equal(r.json.hits.length, 5, `team${t} holds its five notes after being closed and reopened`);
    }

    assert.equal((await call(server.url, "POST", "/v1/memories", "team10", { text: "eleventh" })).status, 201);
    assert.equal((await call(server.url, "POST", "/v1/memories", "team11", { text: "twelfth" })).status, 201);
    const over = await call(server.url, "POST", "/v1/memories", "team12", { text: "one too many" });
    assert.equal(over.status, 400);
    assert.match(over.json.error.message, /maximum of 12 namespaces/);
    assert.equal((await call(server.url, "POST", "/v1/memories", "team3", { text: "existing ones still take writes" })).status, 201);
    assert.equal(readdirSync(`${base}.ns`).filter((f) => f.endsWith(".db")).length, 12);
  } finally {
    await server.close();
  }
});

test("a store opened while every other open one is in use is not closed before its own lease is taken", async () => {
  const space = new MemorySpace(join(tempDir(), "leased.db"), { limits: { openStores: 3, maxNamespaces: 12 } });
  try {
    // 50 uses of 10 namespaces begun at once: the fourth store opens while the first three are leased, and the
    // cap's eviction used to pick it, the store just opened, whose caller had not yet taken its lease
    const uses = await Promise.allSettled(
      Array.from({ length: 50 }, async (_, i) => {
        const lease = await space.acquire(`team${i % 10}`, { create: true });
        try {
          return await lease.engine.remember({ text: `note ${i} of team ${i % 10}` });
        } finally {
          lease.release();
        }
      }),
    );
    const failed = uses.filter((u) => u.status === "rejected").map((u) => String((u as PromiseRejectedResult).reason));
    assert.deepEqual(failed, []);
    assert.ok(space.openCount <= 3, `${space.openCount} stores open once every lease is released`);
  } finally {
    await space.close();
  }
});

test("the CLI too: a read of an unknown namespace is exit 2 and creates nothing; a write creates it", async () => {
  const db = join(tempDir(), "cli-ns.db");
  for (const args of [["search", "anything"], ["stats"], ["topics"]]) {
    const r = await cliHere(["--db", db, "--namespace", "ghost", ...args, "--json"]);
    assert.equal(r.status, 2, r.stderr);
    assert.equal(r.json.error.code, "NOT_FOUND");
  }
  assert.equal(existsSync(`${db}.ns`), false);
  assert.equal(cli(["--db", db, "--namespace", "team", "add", "hello"]).status, 0);
  assert.equal((await cliHere(["--db", db, "--namespace", "team", "stats", "--json"])).json.memories, 1);
});
