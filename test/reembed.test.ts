/**
 * Moving a store to another embedder (api/reembed, `cascade reembed`): through the SDK on SQLite and PGlite with
 * two offline hashing embedders of different sizes, stopped mid-way and resumed, with a write landing during the
 * rebuild; and through the CLI to an OpenAI-compatible server this test starts on loopback, killed mid-way
 * (SIGKILL), the store still searching on its old embedder, then resumed to the end.
 */
import assert from "node:assert/strict";
import { execFile, spawn } from "node:child_process";
import { createHash } from "node:crypto";
import { writeFileSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { promisify } from "node:util";
import { after, before, test } from "node:test";
import { CascadeError, openMemory, reembedStore, type Embedder, type ReembedProgress } from "../src/index.js";
import { rememberHere, tempDir } from "./helpers.js";

const NOW = Date.parse("2026-03-01T00:00:00Z");

/** A bag of words hashed into `dims` dimensions (`salt` picks another space): texts sharing words are near. */
function hashing(id: string, dims: number, salt: string): Embedder & { texts: number } {
  const e = {
    id,
    dimensions: dims,
    texts: 0,
    embed: async (texts: string[]) => {
      e.texts += texts.length;
      return texts.map((t) => {
        const v = new Float32Array(dims);
        for (const w of t.toLowerCase().match(/[a-z]+/g) ?? []) v[createHash("md5").update(salt + w).digest().readUInt16LE(0) % dims] += 1;
        const norm = Math.hypot(...v);
        return norm ? v.map((x) => x / norm) : v;
      });
    },
  };
  return e;
}

const W = ["apple", "river", "mountain", "piano", "garden", "rocket", "castle", "violin", "forest", "harbor", "desert", "planet", "window", "ladder", "candle", "bridge", "island", "meadow", "tunnel", "lantern"];
const notes = (n: number) =>
  Array.from({ length: n }, (_, i) => ({ text: `${W[i % 20]} ${W[(i * 7 + 3) % 20]} ${W[(i * 11 + 5) % 20]} near the ${W[(i * 13 + 1) % 20]} number${i}`, at: new Date(NOW - (n - i) * 60_000).toISOString() }));

for (const backend of ["sqlite", "pglite"] as const) {
  test(`SDK on ${backend}: stopped mid-way the store stays on the old embedder; re-run resumes, catches up a write, switches`, async () => {
    const dir = tempDir();
    const path = backend === "sqlite" ? join(dir, "m.db") : `pglite:${join(dir, "pg")}`;
    const oldE = hashing("hash-a-32", 32, "a");
    const newE = hashing("hash-b-48", 48, "b");
    const opts = { path, now: NOW } as const;
    let engine = await openMemory({ ...opts, embedder: oldE });
    await engine.rememberMany([...notes(60), { text: "The billing service moved to DynamoDB", at: new Date(NOW).toISOString() }]);
    const chunks = (await engine.stats()).chunks;
    await engine.close();

    // stopped after three batches of 8: the vectors made so far are kept, the store is untouched
    const stop = new AbortController();
    const seen: ReembedProgress[] = [];
    await assert.rejects(
      reembedStore({ path, embedder: newE, batch: 8, signal: stop.signal, onProgress: (p) => (seen.push(p), p.done >= 24 && stop.abort(new Error("stopped"))) }),
      /stopped/,
    );
    assert.equal(seen[0].done, 0);
    assert.equal(seen[0].total, chunks);
    assert.ok(seen.at(-1)!.rate > 0 && seen.at(-1)!.eta_s !== null);
    engine = await openMemory({ ...opts, embedder: oldE });
    assert.match((await engine.recall("billing DynamoDB", { k: 1 })).hits[0].text, /DynamoDB/, "still searches on the old embedder");
    // a write during the rebuild, made with the old embedder
    await engine.remember({ text: "Kayak trip planned for the lake in June", at: new Date(NOW).toISOString() });
    await engine.close();
    await assert.rejects(openMemory({ ...opts, embedder: newE }), (e: unknown) => e instanceof CascadeError && e.code === "EMBEDDER_MISMATCH" && /cascade reembed --embedder/.test(e.message));

    newE.texts = 0;
    // SQLite: another connection writes while the rebuild is under way (inside its second embedder call)
    const writer = backend === "sqlite" ? await openMemory({ ...opts, embedder: oldE }) : null;
    const embed = newE.embed;
    let calls = 0;
    newE.embed = async (texts) => {
      if (++calls === 2 && writer) await writer.remember({ text: "Sailing lessons booked for the autumn", at: new Date(NOW).toISOString() });
      return embed(texts);
    };
    const report = await reembedStore({ path, embedder: newE, batch: 8 });
    const during = writer ? 1 : 0;
    if (writer) {
      // a process still holding the store with the old embedder is told what happened, not that the store is damaged
      await assert.rejects(writer.recall("billing DynamoDB", { k: 1 }), (e: unknown) => e instanceof CascadeError && e.code === "EMBEDDER_MISMATCH" && /moved to another embedder \(cascade reembed\)/.test(e.message));
    }
    await writer?.close();
    assert.equal(report.switched, true);
    assert.equal(report.resumed, 24);
    assert.equal(report.chunks, chunks + 1 + during);
    assert.equal(report.embedded, chunks + 1 + during - 24, "the done chunks are not embedded again");
    assert.equal(newE.texts, report.embedded);
    assert.deepEqual(report.from, { id: "hash-a-32", dimensions: 32 });
    assert.deepEqual(report.to, { id: "hash-b-48", dimensions: 48 });

    await assert.rejects(openMemory({ ...opts, embedder: oldE }), (e: unknown) => e instanceof CascadeError && e.code === "EMBEDDER_MISMATCH");
    engine = await openMemory({ ...opts, embedder: newE });
    const kayak = (await engine.recall("kayak lake June", { k: 1 })).hits[0];
    assert.match(kayak.text, /Kayak/, "the write made during the rebuild has its new vector");
    assert.ok(kayak.sources_hit.includes("dense"));
    assert.match((await engine.recall("billing DynamoDB", { k: 1 })).hits[0].text, /DynamoDB/);
    if (during) assert.match((await engine.recall("sailing lessons autumn", { k: 1 })).hits[0].text, /Sailing/, "written during the rebuild: caught up");
    // the same command again: nothing to do
    const again = await reembedStore({ path, embedder: newE });
    assert.equal(again.switched, false);
    await engine.close();
  });
}

// ---- the CLI against an OpenAI-compatible server on loopback, killed mid-way ----

const CLI = new URL("../src/surfaces/cli/main.js", import.meta.url).pathname;
const run = promisify(execFile);
const DIMS = 64;
let texts = 0;
const server = createServer((req, res) => {
  let raw = "";
  req.on("data", (c) => (raw += c));
  req.on("end", () => {
    const body = JSON.parse(raw) as { input: string[] };
    texts += body.input.length;
    const embedding = (t: string) => {
      const v = new Array(DIMS).fill(0);
      for (const w of t.toLowerCase().match(/[a-z]+/g) ?? []) v[createHash("md5").update(w).digest()[0] % DIMS] += 1;
      return v;
    };
    // slow enough that the client is killed mid-way
    setTimeout(() => {
      res.writeHead(200, { "content-type": "application/json" });
      res.end(JSON.stringify({ data: body.input.map((t, index) => ({ index, embedding: embedding(t) })) }));
    }, 40);
  });
});
let baseURL = "";
before(async () => {
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  baseURL = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
});
after(() => new Promise<void>((r) => server.close(() => r())));

const env = { ...process.env, CASCADE_EMBED_API_KEY: "sk-test", CASCADE_EMBED_URL: "", CASCADE_EMBED_MODEL: "", CASCADE_EMBED_DIMENSIONS: "" };
const cascade = async (args: string[]) => JSON.parse((await run(process.execPath, [CLI, ...args, "--json"], { env })).stdout);

test("cascade reembed to an OpenAI-compatible server: killed mid-way, the store searches on glove; re-run resumes and switches", async () => {
  const dir = tempDir();
  const db = join(dir, "m.db");
  writeFileSync(join(dir, "in.jsonl"), [...notes(200), { text: "The billing service moved to DynamoDB", at: new Date(NOW).toISOString() }].map((m) => JSON.stringify(m)).join("\n"));
  const imported = await cascade(["--db", db, "--now", new Date(NOW).toISOString(), "import", join(dir, "in.jsonl")]);
  assert.equal(imported.imported, 201);
  const before = await cascade(["--db", db, "stats"]);
  const spec = JSON.stringify({ provider: "openai-compatible", baseURL, model: "tiny", dimensions: DIMS, batchSize: 8 });

  // killed (SIGKILL: no cleanup of any kind) once some batches are kept
  const child = spawn(process.execPath, [CLI, "--db", db, "reembed", "--embedder", spec, "--batch", "8", "--json"], { env });
  let events = "";
  const killedAt = await new Promise<number>((resolve, reject) => {
    child.stderr.on("data", (d) => {
      events += d;
      const done = events.split("\n").filter(Boolean).map((l) => JSON.parse(l) as { event: string; done: number; total: number });
      const last = done.at(-1)!;
      assert.equal(last.event, "progress");
      assert.equal(last.total, before.chunks);
      if (last.done >= 40 && child.exitCode === null && !child.killed) {
        child.kill("SIGKILL");
        resolve(last.done);
      }
    });
    child.on("exit", (code) => code !== null && reject(new Error(`reembed ended by itself (${code}) before it was killed: ${events}`)));
  });
  await new Promise((r) => child.on("close", r));
  assert.ok(killedAt < before.chunks);

  // still on glove, and searching
  const stats = await cascade(["--db", db, "stats"]);
  assert.equal(stats.embedder, before.embedder);
  const found = await cascade(["--db", db, "search", "billing DynamoDB"]);
  assert.match(found.hits[0].text, /DynamoDB/);

  texts = 0;
  const report = await cascade(["--db", db, "reembed", "--embedder", spec, "--batch", "8"]);
  assert.equal(report.switched, true);
  assert.ok(report.resumed >= killedAt, `kept ${report.resumed}, killed at ${killedAt}`);
  assert.equal(report.embedded + report.resumed, before.chunks);
  assert.equal(texts, report.embedded, "only the chunks not done were sent");

  // no flag: the store reopens with the embedder it moved to, and its dense channel answers
  assert.equal((await cascade(["--db", db, "stats"])).embedder, `openai-compatible:tiny:${DIMS}`);
  const after = await cascade(["--db", db, "search", "billing DynamoDB"]);
  assert.match(after.hits[0].text, /DynamoDB/);
  assert.ok(after.hits[0].sources_hit.includes("dense"));
  const doctor = await cascade(["--db", db, "doctor"]);
  assert.equal(doctor.ok, true);
});

test("cascade reembed refuses a spec it cannot read, in one line, exit 2", async () => {
  const dir = tempDir();
  const db = join(dir, "m.db");
  await rememberHere(db, [{ text: "a note" }]); // the store, written in this process
  for (const bad of ["{not json", JSON.stringify({ provider: "openai-compatible", baseURL, model: "tiny" })]) {
    const r = await run(process.execPath, [CLI, "--db", db, "reembed", "--embedder", bad], { env }).catch((e) => e);
    assert.equal(r.code, 2, r.stderr);
    assert.equal(r.stderr.trim().split("\n").length, 1);
    assert.match(r.stderr, /embedder/);
  }
});
