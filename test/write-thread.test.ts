/**
 * The SQLite store's write thread (backends/sqlite/write-thread.ts): a large batch of new memories is written in
 * one transaction on another connection in a worker, so that the caller's thread answers other requests meanwhile.
 * What must hold: the same rows and answers as a write on the store's own connection; a memory stored whole or not
 * at all when the transaction fails, when the thread is stopped mid-write, or when the process is killed mid-write
 * (and the store takes the write again afterwards); a reader during the write sees the store before it or after
 * it, never half a memory; the vector matrix takes the new chunks without reading the table again.
 * The threshold is lowered to 1 chunk where a test needs the thread for a small write. No timings are asserted.
 */
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import Database from "better-sqlite3";
import { bigText } from "../bench/big-text.js";
import { Engine } from "../src/api/engine.js";
import { defaultGloveEmbedder } from "../src/api/open.js";
import { SqliteStore, type SqliteStoreOptions } from "../src/backends/sqlite/store.js";
import { PART_CHUNKS, WriteThread } from "../src/backends/sqlite/write-thread.js";
import { CascadeError } from "../src/errors.js";
import { tempDir } from "./helpers.js";

const now = "2026-07-01T00:00:00Z";
const TEXT = bigText(120_000, 7);

async function engineAt(path: string, options: SqliteStoreOptions): Promise<{ engine: Engine; store: SqliteStore }> {
  const embedder = defaultGloveEmbedder();
  const store = new SqliteStore(path, options);
  const engine = await Engine.create({ store, embedder, tokens: embedder });
  await engine.remember({ text: "Priya moved the Lisbon trip to Friday.", at: "2026-01-01T00:00:00Z" });
  return { engine, store };
}

/** Counts the batches sent to write threads while `fn` runs, and calls `during` once each is sent. */
async function threaded<T>(fn: () => Promise<T>, during?: (write: Promise<unknown>) => void): Promise<{ value: T; writes: number }> {
  const { write } = WriteThread.prototype;
  let writes = 0;
  WriteThread.prototype.write = function (...args) {
    writes++;
    const sent = write.apply(this, args);
    during?.(sent);
    return sent;
  };
  try {
    return { value: await fn(), writes };
  } finally {
    WriteThread.prototype.write = write;
  }
}

/** Memories, chunks and FTS rows as a separate connection sees them (committed state only). */
function counts(path: string): { memories: number; chunks: number; fts: number } {
  const db = new Database(path, { readonly: true });
  try {
    const one = (sql: string) => db.prepare(sql).pluck().get() as number;
    return { memories: one("SELECT count(*) FROM memories"), chunks: one("SELECT count(*) FROM chunks"), fts: one("SELECT count(*) FROM chunks_fts_docsize") };
  } finally {
    db.close();
  }
}

/** Memories holding exactly `text`, and their chunks (summaries the pyramid writes meanwhile are not counted). */
function held(path: string, text: string): { memories: number; chunks: number[] } {
  const db = new Database(path, { readonly: true });
  try {
    const chunks = db.prepare("SELECT count(c.id) FROM memories m LEFT JOIN chunks c ON c.memory_rowid = m.rowid WHERE m.text = ? GROUP BY m.rowid").pluck().all(text) as number[];
    return { memories: chunks.length, chunks };
  } finally {
    db.close();
  }
}

const answer = (r: Awaited<ReturnType<Engine["recall"]>>) => r.hits.map((h) => [h.text, h.chunk.ord, h.rrf, h.sources_hit.join("+")]);

test("a large memory written on the write thread is stored as on the store's own connection: rows, mentions, answers", async () => {
  const dir = tempDir();
  const a = await engineAt(join(dir, "thread.db"), {});
  const b = await engineAt(join(dir, "own.db"), { writeThread: false });
  const input = { text: TEXT, at: "2026-02-01T00:00:00Z", title: "Travel notes", tags: ["travel"] };
  const { value: viaThread, writes } = await threaded(() => a.engine.remember(input));
  assert.equal(writes, 1, "the big memory went to the write thread");
  const { writes: none } = await threaded(() => b.engine.remember(input));
  assert.equal(none, 0);
  // the pyramid's summaries of the new memory are written after it, by each engine in its own time
  await a.engine.settlePyramid();
  await b.engine.settlePyramid();
  const [ca, cb] = [counts(join(dir, "thread.db")), counts(join(dir, "own.db"))];
  assert.deepEqual(ca, cb);
  assert.ok(ca.chunks > 128, `${ca.chunks} chunks`);
  assert.deepEqual(await a.store.stats().then(({ bytes: _, ...s }) => s), await b.store.stats().then(({ bytes: _, ...s }) => s));
  const stored = await a.store.getMemory(viaThread.id);
  assert.equal(stored?.text, TEXT);
  // the dense index is among the parts the store loads on first use (store-parts.ts)
  const { vectors } = await (a.store as unknown as { parts(): Promise<{ vectors: { loads: number } }> }).parts();
  const loads = vectors.loads;
  for (const q of ["Lisbon trip", "quarterly budget review", "Marcus invoice", "Travel notes"]) {
    assert.deepEqual(answer(await a.engine.recall(q, { now })), answer(await b.engine.recall(q, { now })), q);
  }
  assert.equal(vectors.loads, loads, "the matrix took the thread's chunks without reading the table");
  await a.engine.close();
  await b.engine.close();
});

/** Every chunk row of the memories as text, in the order of their texts and ords (ids and rowids aside). */
function chunkRows(path: string): unknown[] {
  const db = new Database(path, { readonly: true });
  try {
    return db
      .prepare("SELECT m.text, m.title, c.ord, c.start, c.end, c.indexed_text, c.terms, c.context_chars, hex(c.vector) FROM memories m JOIN chunks c ON c.memory_rowid = m.rowid WHERE m.kind <> 'summary' ORDER BY m.text, c.ord")
      .raw()
      .all();
  } finally {
    db.close();
  }
}

test("a batch of more chunks than one message holds goes to the thread in parts and is stored as on the store's own connection", async () => {
  const dir = tempDir();
  const a = await engineAt(join(dir, "thread.db"), {});
  const b = await engineAt(join(dir, "own.db"), { writeThread: false });
  // one batch (within write-batches' characters): the first part ends inside the long memory, the second carries
  // its last chunks and the short memories after it
  const batch = [{ text: bigText(250_000, 8), title: "one" }, { text: "Noor booked the venue." }, { text: "Grace Liu postponed the offsite." }];
  const { writes } = await threaded(() => a.engine.rememberMany(batch));
  assert.equal(writes, 1);
  await b.engine.rememberMany(batch);
  const rows = chunkRows(join(dir, "thread.db"));
  assert.ok(rows.length > PART_CHUNKS + 2, `${rows.length} chunks: more than one part`);
  assert.deepEqual(rows, chunkRows(join(dir, "own.db")));
  // two writers at once: their parts may alternate on the way to the thread, each batch is still stored whole
  const [x, y] = [bigText(130_000, 21), bigText(130_000, 22)];
  const both = await threaded(() => Promise.all([a.engine.remember({ text: x }), a.engine.remember({ text: y })]));
  assert.equal(both.writes, 2);
  await b.engine.remember({ text: x });
  await b.engine.remember({ text: y });
  assert.deepEqual(chunkRows(join(dir, "thread.db")), chunkRows(join(dir, "own.db")));
  await a.engine.close();
  await b.engine.close();
});

test("a batch the write thread cannot store leaves nothing of it, and reports the error the store's own connection would", async () => {
  const dir = tempDir();
  const path = join(dir, "fail.db");
  const { engine } = await engineAt(path, { writeThread: { minChunks: 1 } });
  await engine.settlePyramid();
  const before = counts(path);
  // the edge is inserted after the memory's chunks, FTS rows and mentions: the whole transaction rolls back
  const { writes } = await threaded(async () => {
    await assert.rejects(engine.remember({ text: TEXT, supersedes: "no-such-memory" } as never), (err: unknown) => err instanceof CascadeError && err.isUsageError && err.field === "supersedes");
  });
  assert.equal(writes, 1);
  assert.deepEqual(counts(path), before);
  assert.equal((await engine.recall("Marcus invoice quarterly", { now })).hits.filter((h) => h.text !== "Priya moved the Lisbon trip to Friday.").length, 0);
  // a batch with one bad edge among good memories: the good ones are stored one by one, the bad one not
  const r = await engine.rememberMany([{ text: "Grace Liu postponed the offsite." }, { text: "Noor booked the venue.", supersedes: "nothing-here" }] as never);
  assert.equal(r.imported, 1);
  assert.deepEqual(r.failed.map((f) => f.index), [1]);
  await engine.close();
});

test("a search during a large write on the thread sees the store before it or after it, never half a memory", async () => {
  const dir = tempDir();
  const path = join(dir, "read.db");
  const { engine, store } = await engineAt(path, {});
  const seen: { chunks: number; memories: number; hits: number }[] = [];
  let inFlight = 0;
  let polling = true;
  // the big memory's rows as a separate connection sees them (the pyramid may write summaries meanwhile)
  const reader = new Database(path, { readonly: true });
  const own = reader.prepare("SELECT count(DISTINCT m.rowid) AS memories, count(c.id) AS chunks FROM memories m LEFT JOIN chunks c ON c.memory_rowid = m.rowid WHERE length(m.text) = ?");
  const poll = async () => {
    while (polling) {
      // the store's own connection answers a search while the thread writes
      const hits = (await engine.recall("Marcus invoice", { now, channels: ["bm25"] })).hits.length;
      if (inFlight > 0) seen.push({ ...(own.get(TEXT.length) as { chunks: number; memories: number }), hits });
      await new Promise((r) => setImmediate(r));
    }
  };
  const polled = poll();
  const { writes } = await threaded(
    () => engine.remember({ text: TEXT }),
    (sent) => {
      inFlight++;
      sent.finally(() => inFlight--).catch(() => {});
    },
  );
  polling = false;
  await polled;
  const after = own.get(TEXT.length) as { chunks: number; memories: number };
  reader.close();
  assert.equal(writes, 1);
  assert.equal(after.memories, 1);
  assert.ok(seen.length > 0, "the store answered searches while the thread wrote");
  for (const s of seen) assert.ok((s.memories === 0 && s.chunks === 0) || (s.memories === 1 && s.chunks === after.chunks), `a reader saw ${JSON.stringify(s)} (whole: ${after.chunks} chunks)`);
  const whole = counts(path);
  assert.equal(whole.chunks, whole.fts);
  assert.ok((await engine.recall("Marcus invoice", { now, channels: ["bm25"] })).hits.length > 0);
  void store;
  await engine.close();
});

test("a write thread stopped mid-write leaves the memory whole or absent; the store then writes on its own connection", async () => {
  const dir = tempDir();
  const path = join(dir, "stopped.db");
  const { engine, store } = await engineAt(path, {});
  // the store's threads are among the parts it loads on first use (store-parts.ts); the writer starts with the write
  const { threads } = await (store as unknown as { parts(): Promise<{ threads: { writer: { thread: { worker: { terminate(): Promise<number> } } } } }> }).parts();
  const { value: outcome } = await threaded(
    () => engine.remember({ text: TEXT }).then(() => "stored", (err: unknown) => (err instanceof CascadeError ? err.code : String(err))),
    () => void threads.writer.thread.worker.terminate(),
  );
  const mid = held(path, TEXT);
  if (outcome !== "stored") assert.equal(outcome, "STORE_ERROR");
  else assert.equal(mid.memories, 1);
  // the thread is gone: the next large write is stored on the store's own connection
  const { writes } = await threaded(() => engine.remember({ text: TEXT }));
  assert.equal(writes, 0);
  const after = held(path, TEXT);
  assert.equal(after.memories, mid.memories + 1);
  // whole: as many chunks as the copy written on the store's own connection
  assert.equal(new Set(after.chunks).size, 1, `chunks per copy ${after.chunks}`);
  const c = counts(path);
  assert.equal(c.chunks, c.fts);
  await engine.close();
});

test("a process killed while its write thread writes leaves the memory whole or absent, and the store takes it again", async () => {
  const dir = tempDir();
  const path = join(dir, "killed.db");
  const { engine } = await engineAt(path, {});
  await engine.close();
  const textFile = join(dir, "text.txt");
  writeFileSync(textFile, TEXT);
  const script = join(dir, "writer.mjs");
  const src = (p: string) => JSON.stringify(new URL(p, import.meta.url).href);
  writeFileSync(
    script,
    `import { readFileSync } from "node:fs";
import { Engine } from ${src("../src/api/engine.js")};
import { defaultGloveEmbedder } from ${src("../src/api/open.js")};
import { SqliteStore } from ${src("../src/backends/sqlite/store.js")};
import { WriteThread } from ${src("../src/backends/sqlite/write-thread.js")};
const { write } = WriteThread.prototype;
WriteThread.prototype.write = function (...args) { const sent = write.apply(this, args); process.stdout.write("sent\\n"); return sent; };
const embedder = defaultGloveEmbedder();
const engine = await Engine.create({ store: new SqliteStore(process.argv[2]), embedder, tokens: embedder });
await engine.remember({ text: readFileSync(process.argv[3], "utf8") });
process.stdout.write("done\\n");
await engine.close();
`,
  );
  const stored: number[] = [];
  for (const delay of [0, 20, 60]) {
    const child = spawn(process.execPath, [script, path, textFile], { stdio: ["ignore", "pipe", "inherit"] });
    let out = "";
    await new Promise<void>((resolve) => {
      child.stdout.on("data", (d) => {
        out += d;
        if (out.includes("sent")) setTimeout(() => child.kill("SIGKILL"), delay);
      });
      child.once("exit", () => resolve());
    });
    assert.ok(out.includes("sent"), "the child sent its write to the thread");
    const c = counts(path);
    assert.equal(c.chunks, c.fts, "every chunk has its FTS row");
    const db = new Database(path, { readonly: true });
    assert.equal(db.prepare("PRAGMA integrity_check").pluck().get(), "ok");
    db.close();
    stored.push(held(path, TEXT).memories);
  }
  // the store takes the write again after the kills; every copy a killed process left has all its chunks
  const again = await engineAt(path, {});
  const r = await again.engine.remember({ text: TEXT });
  assert.equal((await again.store.getMemory(r.id))?.text, TEXT);
  await again.engine.close();
  const after = held(path, TEXT);
  assert.equal(after.memories, stored[stored.length - 1] + 1);
  assert.equal(new Set(after.chunks).size, 1, `chunks per copy ${after.chunks} (kills left ${stored})`);
});
