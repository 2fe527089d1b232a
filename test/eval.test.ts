import assert from "node:assert/strict";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { defaultGloveEmbedder, scratchStores, evaluate, loadLocomo, openMemory, parseInstant } from "../src/index.js";
import { cli, cliHere, tempDir } from "./helpers.js";
import { tinyLocomo as fixture } from "./fixtures/tiny-locomo.js";


test("eval on a LoCoMo-shaped fixture gives the exact expected numbers", async () => {
  const dir = tempDir();
  writeFileSync(join(dir, "conv-1.json"), JSON.stringify(fixture));
  const e = defaultGloveEmbedder();
  const report = await evaluate("locomo", loadLocomo(dir), { embedder: e, tokens: e, stores: scratchStores() }, { channels: ["bm25"], ablation: false });
  assert.equal(report.questions, 3); // the question without evidence is not a query
  // bm25 finds each gold turn at rank 1. For the cello question the gold turns come 1st and 3rd: D1:3 is 2nd,
  // because it is indexed with the turn before it (Ben's cello news) as conversational context.
  const celloNdcg = (1 + 1 / Math.log2(4)) / (1 + 1 / Math.log2(3));
  assert.deepEqual(report.overall, { "recall@5": 1, "recall@10": 1, "hit@10": 1, "ndcg@10": Math.round(((2 + celloNdcg) / 3) * 10000) / 10000, mrr: 1 });
  assert.deepEqual(Object.keys(report.by_category), ["1", "4"]);

  const cliReport = cli(["eval", "locomo", dir, "--json"]);
  assert.equal(cliReport.status, 0, cliReport.stderr);
  assert.equal(cliReport.json.questions, 3);
  assert.deepEqual(Object.keys(cliReport.json.by_channel), ["bm25", "dense", "curated", "recency", "colbert", "time", "graph", "-bm25", "-dense", "-curated", "-recency", "-colbert", "-time", "-graph"]);
  assert.deepEqual(cliReport.json.by_channel.recency, { "recall@5": 0, "recall@10": 0, "hit@10": 0, "ndcg@10": 0, mrr: 0 });

  // the same evaluation with every conversation in PostgreSQL (PGlite) gives the same figures
  const onPostgres = await cliHere(["eval", "locomo", dir, "--store", "pglite", "--json"]);
  assert.equal(onPostgres.status, 0, onPostgres.stderr);
  assert.deepEqual(onPostgres.json.overall, cliReport.json.overall);
  assert.deepEqual(onPostgres.json.by_channel, cliReport.json.by_channel);
  const refused = await cliHere(["eval", "locomo", dir, "--store", "mysql"]);
  assert.equal(refused.status, 2);
  assert.match(refused.stderr, /--store/);
});

/**
 * What an import stored, read in this process: `search --json` and `show --json` print the SDK's hits and memory
 * as they are, so a CLI process per read would add its start-up (0.6 s of CPU) and nothing these tests look at; the
 * imports (and the add) under test are CLI processes, and search and show have CLI tests of their own (cli.test).
 */
async function readStore<T>(db: string, read: (engine: Awaited<ReturnType<typeof openMemory>>) => Promise<T>, now?: string): Promise<T> {
  const engine = await openMemory({ path: db, create: false, ...(now ? { now: parseInstant("now", now) } : {}) });
  try {
    return await read(engine);
  } finally {
    await engine.close();
  }
}

test("import --format locomo keeps speaker, session date, dia_id and captions, never the event annotations", async () => {
  const dir = tempDir();
  const file = join(dir, "conv.json");
  writeFileSync(file, JSON.stringify(fixture));
  const db = join(dir, "m.db");
  assert.equal(cli(["import", file, "--format", "locomo", "--db", db, "--json"]).json.imported, 5);
  await readStore(db, async (engine) => {
    const hit = (await engine.recall("whiteboard billing")).hits[0];
    assert.equal(hit.speaker, "Ana");
    assert.equal(hit.at, "2023-05-08T13:56:02Z");
    assert.match(hit.text, /\[shares a photo of a whiteboard\]/);
    assert.equal((await engine.show(hit.id)).metadata?.dia_id, "D1:3");
    assert.equal((await engine.recall("zebra", { channels: ["bm25"] })).hits.length, 0);
  });
});

test("hits carry the source's own id: a LoCoMo import keeps conversation#dia_id as ref; two conversations do not collide", async () => {
  const dir = tempDir();
  const db = join(dir, "m.db");
  writeFileSync(join(dir, "conv-1.json"), JSON.stringify(fixture));
  writeFileSync(join(dir, "conv-2.json"), JSON.stringify(fixture));
  for (const name of ["conv-1", "conv-2"]) assert.equal((await cliHere(["--db", db, "--json", "import", join(dir, `${name}.json`), "--format", "locomo"])).status, 0);
  const again = JSON.parse((await cliHere(["--db", db, "--json", "import", join(dir, "conv-1.json"), "--format", "locomo"])).stdout);
  assert.equal(again.imported, 0, "a second import of the same file stores nothing");
  assert.equal(again.skipped, 5);
  const r = await readStore(db, (engine) => engine.recall("greyhound Pixel adopted", { k: 2, channels: ["bm25"] }), "2023-07-01T00:00:00Z");
  assert.deepEqual(r.hits.map((h) => h.ref).sort(), ["conv-1#D1:1", "conv-2#D1:1"]);
  assert.equal((await cliHere(["--db", db, "add", "Ticket closed", "--metadata", '{"ref":"T-42"}'])).status, 0);
  await readStore(db, async (engine) => {
    assert.equal((await engine.recall("ticket closed", { channels: ["bm25"] })).hits[0].ref, "T-42");
    assert.equal((await engine.recall("cello teacher", { channels: ["bm25"], k: 1 })).hits[0].ref?.endsWith("#D2:1"), true);
  });
});
