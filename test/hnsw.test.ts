/**
 * Approximate dense search on a real SQLite store with the threshold lowered to 100 chunks: the graph's
 * answers against exact search on the same data, exact scores, filtered searches exact, writes and deletes kept in
 * step (also another connection's), the graph saved and loaded rather than rebuilt, a stale graph file caught, and
 * a graph saved with other build settings (or in the first layout) rebuilt while search-time settings reuse it.
 */
import assert from "node:assert/strict";
import { copyFileSync, existsSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { SqliteStore } from "../src/backends/sqlite/store.js";
import type { Ranked } from "../src/model/types.js";
import { prepared, queryVector, stamp } from "./contract/fixture.js";
import { tempDir } from "./helpers.js";

const WORDS = "alpha bravo charlie delta echo foxtrot golf hotel india juliet kilo lima mike november oscar papa quebec romeo sierra tango uniform victor whiskey xray yankee zulu amber basil cedar dune ember fjord glade heron iris jade kelp lotus maple nectar".split(" ");

function texts(n: number, seed: number): string[] {
  let s = seed;
  const next = () => (s = (s * 1103515245 + 12345) % 2147483648) / 2147483648;
  return Array.from({ length: n }, () => Array.from({ length: 3 + Math.floor(next() * 4) }, () => WORDS[Math.floor(next() * WORDS.length)]).join(" "));
}

const AT = (i: number) => new Date(Date.UTC(2026, 0, 1) + i * 60_000).toISOString();
const small = { above: 100, threads: 1, connectivity: 8, expansionAdd: 64, expansionSearch: 64, queryCentring: 1, rescore: 40 };

async function filled(path: string, approximate: typeof small | false, n = 600): Promise<SqliteStore> {
  const store = new SqliteStore(path, { approximate });
  await store.writeMemories(await prepared(texts(n, 7).map((text, i) => ({ text, at: AT(i), topic: i % 2 ? "odd" : "even" }))), stamp);
  return store;
}

/** The record at the end of a saved graph file: JSON, then its length (u32 LE), then an 8-byte mark. */
function savedRecord(file: string): Record<string, unknown> {
  const data = readFileSync(file);
  const length = data.readUInt32LE(data.length - 12);
  return JSON.parse(data.subarray(data.length - 12 - length, data.length - 12).toString("utf8")) as Record<string, unknown>;
}

const near = (store: SqliteStore, text: string, filter = {}) => store.nearestChunks({ vector: queryVector(text), depth: 10, filter });
const ids = (list: Ranked[]) => list.map((r) => r.chunkId);

test("the graph finds what exact search finds, with exact scores; filtered searches stay exact", async () => {
  const dir = tempDir();
  const approx = await filled(join(dir, "a.db"), small);
  const exact = await filled(join(dir, "e.db"), false);
  let found = 0;
  const queries = texts(40, 99);
  for (const q of queries) {
    const [a, e] = [await near(approx, q), await near(exact, q)];
    const scoreOf = new Map(e.map((r) => [r.chunkId, r.score]));
    // re-scored from the matrix: a chunk both return has the same score in both
    for (const r of a) if (scoreOf.has(r.chunkId)) assert.ok(Math.abs(r.score - scoreOf.get(r.chunkId)!) < 1e-6);
    // ties are common with these vectors: count a hit when the score is among the exact top 10's scores
    const exactScores = e.map((r) => r.score);
    found += a.filter((r) => exactScores.some((s) => Math.abs(s - r.score) < 1e-6)).length;
    assert.deepEqual(ids(await near(approx, q, { topics: ["odd"] })), ids(await near(exact, q, { topics: ["odd"] })), "filtered: exact over the admitted rows");
  }
  const recall = found / (queries.length * 10);
  assert.ok(recall >= 0.9, `recall@10 against exact search ${recall}`);
  assert.ok(existsSync(join(dir, "a.db.hnsw")), "built on the first search and saved beside the store");
  assert.ok(!existsSync(join(dir, "e.db.hnsw")));
  await approx.close();
  await exact.close();
});

test("a batch of searches on two threads answers what one search at a time does, built or loaded from file", async () => {
  const dir = tempDir();
  const path = join(dir, "b.db");
  const twoThreads = { ...small, threads: 2 };
  const vectors = texts(30, 4242).map(queryVector);
  const store = await filled(path, twoThreads);
  const oneByOne = async (s: SqliteStore) => Promise.all(vectors.map((vector) => s.nearestChunks({ vector, depth: 20, filter: {} })));
  const expected = await oneByOne(store);
  assert.deepEqual(await store.nearestChunksMany({ vectors, depth: 20 }), expected);
  assert.deepEqual(await store.nearestChunksMany({ vectors: [vectors[3]], depth: 20 }), [expected[3]], "a batch of one");
  assert.deepEqual(await store.nearestChunksMany({ vectors: [], depth: 20 }), []);
  await store.close();
  // a graph loaded from its file (not built in this process) serves a batch on two threads too
  const reopened = new SqliteStore(path, { approximate: twoThreads });
  assert.deepEqual(await reopened.nearestChunksMany({ vectors, depth: 20 }), expected);
  await reopened.close();
});

test("writes and deletes reach the graph, from this connection and another; a saved graph is loaded, not rebuilt", async () => {
  const dir = tempDir();
  const path = join(dir, "s.db");
  const store = await filled(path, small);
  await near(store, "alpha bravo");
  const [added] = await prepared([{ text: "zebra quokka narwhal", at: AT(9999) }]);
  await store.writeMemories([added], stamp);
  assert.equal((await near(store, "zebra quokka narwhal"))[0].memoryId, added.memory.id, "a new chunk is found at once");
  const top = (await near(store, "alpha bravo charlie"))[0];
  await store.deleteMemory(top.memoryId);
  assert.ok(!ids(await near(store, "alpha bravo charlie")).includes(top.chunkId), "a deleted chunk is never returned");

  const other = new SqliteStore(path, { approximate: small });
  const [fromOther] = await prepared([{ text: "walrus ibex okapi", at: AT(10_000) }]);
  await other.writeMemories([fromOther], stamp);
  await other.close();
  assert.equal((await near(store, "walrus ibex okapi"))[0].memoryId, fromOther.memory.id, "another connection's write reaches this graph");
  await store.close();

  const saved = statSync(`${path}.hnsw`).mtimeMs;
  const reopened = new SqliteStore(path, { approximate: small });
  assert.equal((await near(reopened, "walrus ibex okapi"))[0].memoryId, fromOther.memory.id);
  await reopened.close();
  assert.equal(statSync(`${path}.hnsw`).mtimeMs, saved, "loaded from its file: no rebuild, nothing to save");
});

test("a graph file that does not describe the store is rebuilt; doctor reports and repairs it", async () => {
  const dir = tempDir();
  const first = await filled(join(dir, "one.db"), small);
  await near(first, "alpha");
  await first.close();
  // a store with the same chunk ids but other vectors: the first store's graph is wrong for it
  const second = new SqliteStore(join(dir, "two.db"), { approximate: small });
  await second.writeMemories(await prepared(texts(600, 12345).map((text, i) => ({ text, at: AT(i) }))), stamp);
  await second.close();
  copyFileSync(join(dir, "one.db.hnsw"), join(dir, "two.db.hnsw"));

  const reopened = new SqliteStore(join(dir, "two.db"), { approximate: small });
  const check = (await reopened.doctor(false)).find((c) => c.name === "approximate vector index")!;
  assert.equal(check.ok, false, check.detail);
  const repaired = (await reopened.doctor(true)).find((c) => c.name === "approximate vector index")!;
  assert.equal(repaired.repaired, true);
  const exact = new SqliteStore(join(dir, "two.db"), { approximate: false });
  const q = texts(1, 12345)[0];
  const [best, exactBest] = [(await near(reopened, q))[0].score, (await near(exact, q))[0].score];
  assert.ok(Math.abs(best - exactBest) < 1e-6, `rebuilt: the best match is the exact best (${best} vs ${exactBest})`);
  assert.equal((await reopened.doctor(false)).find((c) => c.name === "approximate vector index")!.ok, true);
  await exact.close();
  await reopened.close();
});

test("a graph saved with other build settings, or in the first layout, is rebuilt; search-time settings reuse it", async () => {
  const dir = tempDir();
  const path = join(dir, "g.db");
  const store = await filled(path, small);
  await near(store, "alpha");
  await store.close();
  const meta = () => savedRecord(`${path}.hnsw`) as { connectivity: number; quantization: string; center: number[] };
  assert.equal(meta().connectivity, 8);
  assert.equal(meta().quantization, "i8");

  // another query centring and search expansion: the saved graph serves them, loaded rather than rebuilt
  const saved = readFileSync(`${path}.hnsw`);
  const searchOnly = new SqliteStore(path, { approximate: { ...small, queryCentring: 0.5, expansionSearch: 200 } });
  assert.equal((await near(searchOnly, texts(1, 7)[0])).length, 10);
  await searchOnly.close();
  assert.ok(readFileSync(`${path}.hnsw`).equals(saved), "search-time settings: the same graph");

  // another connectivity: usearch would load the file as it was built, so the settings beside it say to rebuild
  const other = new SqliteStore(path, { approximate: { ...small, connectivity: 12 } });
  const check = (await other.doctor(false)).find((c) => c.name === "approximate vector index")!;
  assert.match(check.detail, /built with other settings: rebuilt on the first search/);
  await near(other, "alpha");
  await other.close();
  assert.equal(meta().connectivity, 12, "rebuilt with the settings asked for, and saved with them");

  // the earlier layouts (usearch's bytes alone, the centre in .hnsw.center or the settings in .hnsw.meta): rebuilt,
  // and the old files removed
  const { center, ...settings } = meta();
  const bytes = (savedRecord(`${path}.hnsw`) as { bytes: number }).bytes;
  writeFileSync(`${path}.hnsw`, readFileSync(`${path}.hnsw`).subarray(0, bytes));
  writeFileSync(`${path}.hnsw.meta`, JSON.stringify({ ...settings, format: 2, center }));
  writeFileSync(`${path}.hnsw.center`, new Uint8Array(Float32Array.from(center).buffer));
  const reopened = new SqliteStore(path, { approximate: small });
  await near(reopened, "alpha");
  await reopened.close();
  assert.equal(meta().connectivity, 8);
  assert.ok(!existsSync(`${path}.hnsw.center`) && !existsSync(`${path}.hnsw.meta`));
});
