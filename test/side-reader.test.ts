/**
 * The SQLite store's reader threads (backends/sqlite/side-reader.ts): FTS5's reads on their own connections in
 * workers, so that a search's lexical and vector work run side by side. The threshold is lowered to 0 chunks here.
 * What must hold: the same answers as one thread (every channel, fused, filtered; with one reader thread or two),
 * writes and forgets seen at once, a dead thread's reads taken back by the store's own connection, a statement's
 * error reported, an idle thread never keeping a process alive.
 */
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { fileURLToPath } from "node:url";
import { Engine } from "../src/api/engine.js";
import { defaultGloveEmbedder } from "../src/api/open.js";
import { SideReader } from "../src/backends/sqlite/side-reader.js";
import { SqliteStore, type SqliteStoreOptions } from "../src/backends/sqlite/store.js";
import type { SearchResult } from "../src/model/types.js";
import { tempDir } from "./helpers.js";

const now = "2026-07-01T00:00:00Z";
const WORDS = "garden tomato harvest river bridge concert violin recipe pasta hiking mountain winter budget invoice meeting project deadline doctor appointment birthday cake painting museum train ticket holiday beach novel chapter".split(" ");

function notes(n: number): string[] {
  let s = 11;
  const next = () => (s = (s * 1103515245 + 12345) % 2147483648) / 2147483648;
  return Array.from({ length: n }, () => Array.from({ length: 4 + Math.floor(next() * 5) }, () => WORDS[Math.floor(next() * WORDS.length)]).join(" "));
}

async function engineAt(path: string, options: SqliteStoreOptions): Promise<Engine> {
  const embedder = defaultGloveEmbedder();
  const engine = await Engine.create({ store: new SqliteStore(path, options), embedder, tokens: embedder });
  await engine.rememberMany(
    notes(300).map((text, i) => ({ text, at: new Date(Date.UTC(2026, 0, 1) + i * 3_600_000).toISOString(), topic: i % 3 ? "home" : "work" })),
    { detect: false },
  );
  await engine.settlePyramid(); // 300 memories: past what a search waits for, and the two stores' searches are compared
  return engine;
}

// the two stores name their memories differently: a hit is its text, where it ranked and who found it
const answer = (r: SearchResult) => r.hits.map((h) => [h.text, h.at, h.chunk.ord, h.rrf, h.sources_hit.join("+")]);

/** Counts the statements sent to reader threads while `fn` runs. */
async function sent<T>(fn: () => Promise<T>): Promise<{ value: T; statements: number }> {
  const { raw, pluck } = SideReader.prototype;
  let statements = 0;
  SideReader.prototype.raw = function (...args) {
    statements++;
    return raw.apply(this, args);
  };
  SideReader.prototype.pluck = function (...args) {
    statements++;
    return pluck.apply(this, args);
  };
  try {
    return { value: await fn(), statements };
  } finally {
    Object.assign(SideReader.prototype, { raw, pluck });
  }
}

for (const threads of [1, 2] as const) {
  test(`a store reading on ${threads} reader thread(s) answers as one that does not: fused, each lexical channel, filtered`, async () => {
    const dir = tempDir();
    const threaded = await engineAt(join(dir, "threaded.db"), { sideReader: { minChunks: 0, threads } });
    const single = await engineAt(join(dir, "single.db"), { sideReader: false });
    const queries = notes(25).map((q) => q.split(" ").slice(0, 3).join(" "));
    const asks = [{}, { channels: ["bm25" as const] }, { channels: ["colbert" as const] }, { under: "work" }];
    const { statements } = await sent(async () => {
      for (const q of queries) {
        for (const ask of asks) {
          const [a, b] = [await threaded.recall(q, { ...ask, now }), await single.recall(q, { ...ask, now })];
          assert.deepEqual(answer(a), answer(b), `${q} ${JSON.stringify(ask)}`);
        }
      }
    });
    assert.ok(statements >= queries.length * 3, `the reader threads ran the lexical reads (${statements} statements)`);
    await threaded.close();
    await single.close();
  });
}

test("the reader threads see a write and a forget at once", async () => {
  const engine = await engineAt(join(tempDir(), "s.db"), { sideReader: { minChunks: 0 } });
  await engine.recall("garden tomato", { now });
  const { id } = await engine.remember({ text: "The zeppelin hangar opens on Friday", at: "2026-06-01T00:00:00Z" });
  const { value: found, statements } = await sent(() => engine.recall("zeppelin hangar", { channels: ["bm25"], now }));
  assert.ok(statements > 0);
  assert.equal(found.hits[0]?.id, id);
  await engine.forget(id);
  assert.equal((await engine.recall("zeppelin hangar", { channels: ["bm25"], now })).hits.length, 0);
  await engine.close();
});

test("reader threads that die leave their reads to the store's own connection", async () => {
  const dir = tempDir();
  const store = new SqliteStore(join(dir, "s.db"), { sideReader: { minChunks: 0 } });
  const embedder = defaultGloveEmbedder();
  const engine = await Engine.create({ store, embedder, tokens: embedder });
  await engine.rememberMany(notes(50).map((text, i) => ({ text, at: new Date(Date.UTC(2026, 0, 1) + i * 60_000).toISOString() })), { detect: false });
  const before = answer(await engine.recall("river bridge concert", { now }));
  // the store keeps its threads in threads.ts, among the parts it loads on first use (store-parts.ts)
  const sides = (await (store as unknown as { parts(): Promise<{ threads: { sides: SideReader[] } }> }).parts()).threads.sides;
  assert.equal(sides.length, 2, "the first search started the threads");
  // the ranking thread first: the posting lists still go to theirs
  const kill = (side: SideReader) => (side as unknown as { thread: { worker: { terminate(): Promise<number> } } }).thread.worker.terminate();
  await kill(sides[0]);
  await new Promise((resolve) => setImmediate(resolve));
  assert.equal(sides[0].alive, false);
  const { value: half, statements: toLists } = await sent(() => engine.recall("river bridge concert", { now }));
  assert.deepEqual(answer(half), before);
  assert.ok(toLists > 0, "the live thread still reads the lists");
  await kill(sides[1]);
  await new Promise((resolve) => setImmediate(resolve));
  const { value: after, statements } = await sent(() => engine.recall("river bridge concert", { now }));
  assert.deepEqual(answer(after), before);
  assert.equal(statements, 0, "nothing is sent to a dead thread");
  assert.equal(sides.length, 2, "and none is started anew");
  await engine.close();
});

test("a statement the reader thread cannot run fails its caller with SQLite's message", async () => {
  const path = join(tempDir(), "s.db");
  const store = new SqliteStore(path);
  const side = new SideReader(path);
  await assert.rejects(side.raw("SELECT x FROM nowhere", [[]]), /no such table: nowhere/);
  assert.ok(side.alive, "a failed statement does not end the thread");
  assert.deepEqual(await side.raw("SELECT ? + 1", [[1], [41]]), [[[2]], [[42]]]);
  await side.close();
  await assert.rejects(side.raw("SELECT 1", [[]]), /closed/);
  await store.close();
});

test("an idle reader thread does not keep a process alive", () => {
  const dir = tempDir();
  const store = join(dir, "s.db");
  const module = (name: string) => JSON.stringify(fileURLToPath(new URL(name, import.meta.url)));
  const script = `
    const { Engine } = await import(${module("../src/api/engine.js")});
    const { defaultGloveEmbedder } = await import(${module("../src/api/open.js")});
    const { SqliteStore } = await import(${module("../src/backends/sqlite/store.js")});
    const embedder = defaultGloveEmbedder();
    const engine = await Engine.create({ store: new SqliteStore(${JSON.stringify(store)}, { sideReader: { minChunks: 0 } }), embedder, tokens: embedder });
    await engine.remember({ text: "The garden needs water", at: "2026-06-01T00:00:00Z" });
    const r = await engine.recall("garden water", { now: "2026-07-01T00:00:00Z" });
    console.log(r.hits.length);
  `;
  writeFileSync(join(dir, "search.mjs"), script);
  const child = spawnSync(process.execPath, [join(dir, "search.mjs")], { encoding: "utf8", timeout: 20_000 });
  assert.equal(child.status, 0, child.stderr);
  assert.equal(child.stdout.trim(), "1", "the search answered, and the process ended without closing the store");
});
