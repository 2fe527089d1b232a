/**
 * The bulk-ingest figure of `cascade bench` alone: the same seeded corpus, 10,000 memories a call written 2,000 a
 * transaction, revision detection off, the pyramid kept current and settled, generating the corpus left out of the
 * time; into a scratch namespace of a PostgreSQL server (deleted after) or a temporary SQLite file. For measuring
 * the write path without the bench's query phases.
 *
 *   node dist/bench/pg-ingest.js --store postgres://…/db|sqlite [--chunks 20000]
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { defaultGloveEmbedder, Engine } from "../src/index.js";
import { streamedCorpus } from "../src/bench/corpus.js";
import { INGEST_BATCH, INGEST_CALL } from "../src/bench/run.js";
import { openPostgresScratch } from "../src/backends/postgres/open.js";
import { SqliteStore } from "../src/backends/sqlite/store.js";

const arg = (name: string, fallback: string) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? process.argv[i + 1] : fallback;
};
const target = arg("store", "sqlite");
const chunks = Number(arg("chunks", "20000"));
const dir = target === "sqlite" ? mkdtempSync(join(tmpdir(), "cascade-ingest-")) : null;
const store = dir ? new SqliteStore(join(dir, "bench.db")) : await openPostgresScratch(target, "ingest");
const embedder = defaultGloveEmbedder();
const engine = await Engine.create({ store, embedder, tokens: embedder }, { pyramid: { enabled: true } });
try {
  const corpus = streamedCorpus({ memories: chunks, queries: 1, seed: 42, vocabulary: [...embedder.vocabulary()] });
  const calls = corpus.batches(INGEST_CALL);
  let generating = 0;
  const t0 = performance.now();
  for (;;) {
    const g0 = performance.now();
    const next = calls.next();
    generating += performance.now() - g0;
    if (next.done) break;
    const r = await engine.rememberMany(next.value, { batchSize: INGEST_BATCH, detect: false });
    if (r.failed.length) throw new Error(`${r.failed.length} memories failed: ${r.failed[0].error}`);
  }
  const written = performance.now();
  await engine.settlePyramid();
  const seconds = (performance.now() - t0 - generating) / 1000;
  console.log(JSON.stringify({ chunks, ingest_s: +seconds.toFixed(2), ingest_per_s: Math.round(chunks / seconds), pyramid_settle_s: +((performance.now() - written) / 1000).toFixed(2) }));
} finally {
  await engine.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
}
