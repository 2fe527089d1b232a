/**
 * The dense channel's approximate search, measured apart from the engine: reads the chunk vectors of an existing
 * store (read-only), makes the bench corpus' query vectors both ways the engine does (the embedder's sentence
 * vector, which `cascade bench` checks recall with, and the dense channel's store-weighted IDF vector), finds the
 * exact top 10 by brute force once, then builds HNSW graphs (usearch, vectors minus their mean, cosine) with the
 * given quantization / connectivity / build expansion and sweeps the search-time knobs on each: search expansion,
 * candidates re-scored exactly, and the query sent to the graph (q − α·mean; the engine sends α = 1).
 *
 * Per setting: recall@10 against exact search (summary chunks left out on both sides, as searches leave them out),
 * per-query p50/p95 ms on one thread (graph search + exact re-scoring), build seconds and the graph's size. The
 * search settings take turns query by query, so that a shared machine's slow spells fall on all alike.
 *
 *   npm run build && node dist/bench/ann-sweep.js --db /tmp/big/big-1000000.db --sample 300000 \
 *     --builds I8:16:128,F16:16:128,I8:32:128 --ef 256,512,1024,2048 --rescore 100,400,1000 --alpha 1 [--keep DIR]
 */
import { createRequire } from "node:module";
import { existsSync, mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Database from "better-sqlite3";
import type * as UsearchModule from "usearch";
import { defaultGloveEmbedder } from "../src/index.js";
import { syntheticCorpus } from "../src/bench/corpus.js";
import { idfQueryVector } from "../src/channels/dense-query.js";
import { parseTimeExpressions } from "../src/time/expressions.js";
import { distinctContentWords } from "../src/text/tokenize.js";
import { VectorMatrix } from "../src/vectors/matrix.js";
import { percentiles } from "../src/bench/run.js";

const { Index, MetricKind, ScalarKind } = createRequire(import.meta.url)("usearch") as typeof UsearchModule;

function flag(name: string, fallback: string): string {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : fallback;
}
const list = (s: string) => s.split(",").filter(Boolean).map(Number);

const dbPath = flag("db", "/tmp/big/big-1000000.db");
const sample = Number(flag("sample", "0"));
const queryCount = Number(flag("queries", "200"));
const corpusSize = Number(flag("corpus", "1000000"));
const threads = Number(flag("threads", "2"));
const keep = flag("keep", "") || null;
const builds = flag("builds", "I8:16:128").split(",");
const efs = list(flag("ef", "256,512,1024,2048"));
const rescores = list(flag("rescore", "100,400,1000"));
/** The query sent to the graph is q − α·mean: 1 is what the engine sends (the graph's vectors are centred), 0 the raw query. */
const alphas = list(flag("alpha", "1"));
const log = (...a: unknown[]) => console.error(new Date().toISOString().slice(11, 19), ...a);

// ---- the store's vectors, read-only
const db = new Database(dbPath, { readonly: true, fileMustExist: true });
const total = db.prepare("SELECT count(*) FROM chunks").pluck().get() as number;
const n = sample > 0 ? Math.min(sample, total) : total;
const dims = (db.prepare("SELECT length(vector) FROM chunks LIMIT 1").pluck().get() as number) / 4;
const matrix = new VectorMatrix(dims, n + 1);
const summary = new Set<number>();
let t0 = performance.now();
for (const [id, blob, kind] of db
  .prepare("SELECT c.id, c.vector, m.kind FROM chunks c JOIN memories m ON m.rowid = c.memory_rowid ORDER BY c.id LIMIT ?")
  .raw()
  .iterate(n) as Iterable<[number, Buffer, string]>) {
  matrix.add(id, blob);
  if (kind === "summary") summary.add(id);
}
log(`read ${matrix.count} vectors (${summary.size} summary chunks) of ${total}, ${dims} dims, ${((performance.now() - t0) / 1000).toFixed(1)} s`);

// ---- the bench's queries, as `cascade bench` embeds them and as the dense channel weights them
const embedder = defaultGloveEmbedder();
const corpus = syntheticCorpus({ memories: corpusSize, queries: queryCount, seed: 42, vocabulary: [...embedder.vocabulary()] });
corpus.memories = [];
const plain = await embedder.embed(corpus.queries);
const chunkCountRow = db.prepare("SELECT value FROM meta WHERE key = 'chunk_count'").pluck().get() as string;
const termDf = db.prepare("SELECT df FROM terms WHERE term = ?").pluck();
const idfVectors = corpus.queries.map((q) => {
  const lexical = parseTimeExpressions(q, Date.UTC(2026, 0, 1), "UTC").text;
  const words = distinctContentWords(lexical);
  const df = new Map(words.map((w) => [w, (termDf.get(w) as number | undefined) ?? 0]));
  return idfQueryVector(lexical, { chunks: Number(chunkCountRow), df }, embedder);
});
db.close();
const querySets: Record<string, Float32Array[]> = { plain, idf: idfVectors };

// ---- exact top 10 (summary chunks left out), one pass over the rows for every query
const { keys, data } = matrix.rows();
const exact: Record<string, Set<number>[]> = {};
t0 = performance.now();
{
  const all = Object.values(querySets).flat();
  const tops = all.map(() => ({ keys: new Float64Array(10).fill(-1), scores: new Float64Array(10).fill(-Infinity) }));
  for (let row = 0; row < keys.length; row++) {
    if (summary.has(keys[row])) continue;
    const base = row * dims;
    for (let qi = 0; qi < all.length; qi++) {
      const q = all[qi];
      let s = 0;
      for (let i = 0; i < dims; i++) s += q[i] * data[base + i];
      const top = tops[qi];
      if (s <= top.scores[9]) continue;
      let j = 9;
      while (j > 0 && top.scores[j - 1] < s) {
        top.scores[j] = top.scores[j - 1];
        top.keys[j] = top.keys[j - 1];
        j--;
      }
      top.scores[j] = s;
      top.keys[j] = keys[row];
    }
  }
  let at = 0;
  for (const [name, qs] of Object.entries(querySets)) exact[name] = qs.map(() => new Set(Array.from(tops[at++].keys)));
}
log(`exact top 10 for ${Object.values(querySets).flat().length} queries: ${((performance.now() - t0) / 1000).toFixed(1)} s`);

const center = new Float32Array(dims);
for (let row = 0; row < keys.length; row++) for (let i = 0; i < dims; i++) center[i] += data[row * dims + i];
for (let i = 0; i < dims; i++) center[i] /= keys.length;

const dir = mkdtempSync(join(tmpdir(), "ann-sweep-"));
const results: Record<string, unknown>[] = [];
try {
  for (const spec of builds) {
    const [quant, m, add] = spec.split(":");
    const quantization = { I8: ScalarKind.I8, F16: ScalarKind.F16, F32: ScalarKind.F32 }[quant as "I8" | "F16" | "F32"];
    // expansion_search 1: the search's beam is then max(1, k), so asking for `beam` results searches with that beam
    const index = new Index({ dimensions: dims, metric: MetricKind.Cos, quantization, connectivity: Number(m), expansion_add: Number(add), expansion_search: 1, multi: false });
    // --keep DIR: a graph built by an earlier run over the same vectors is loaded from DIR instead of built again
    const kept = keep ? join(keep, `${spec.replace(/:/g, "-")}-${keys.length}.usearch`) : null;
    (globalThis as { gc?: () => void }).gc?.();
    const rssBefore = process.memoryUsage().rss;
    t0 = performance.now();
    let buildS = NaN;
    if (kept && existsSync(kept)) {
      index.load(kept);
      log(`loaded ${kept} (${((performance.now() - t0) / 1000).toFixed(1)} s)`);
    } else {
      const BATCH = 50_000;
      for (let start = 0; start < keys.length; start += BATCH) {
        const end = Math.min(keys.length, start + BATCH);
        const batch = data.slice(start * dims, end * dims);
        for (let j = 0; j < batch.length; j++) batch[j] -= center[j % dims];
        index.add(BigUint64Array.from(keys.subarray(start, end), (k) => BigInt(k)), batch, threads);
      }
      buildS = (performance.now() - t0) / 1000;
    }
    const rssMb = (process.memoryUsage().rss - rssBefore) / 1e6;
    const file = kept ?? join(dir, "graph.usearch");
    if (!kept || !existsSync(kept)) index.save(file);
    const fileMb = statSync(file).size / 1e6;
    if (!kept) rmSync(file);
    log(`build ${spec}: ${buildS.toFixed(1)} s, +${rssMb.toFixed(0)} MB RSS, saved ${fileMb.toFixed(0)} MB`);

    // search settings: (query mode, beam = max(ef, rescore)); each (ef, rescore) reads a prefix of a beam's answer
    const beams = [...new Set(efs.flatMap((e) => rescores.map((r) => Math.max(e, r))))].sort((a, b) => a - b);
    const scratch = new Float32Array(dims);
    const stats = new Map<string, { ms: number[]; found: number; total: number }>();
    const stat = (k: string) => stats.get(k) ?? stats.set(k, { ms: [], found: 0, total: 0 }).get(k)!;
    const searchMs = new Map<string, number[]>();
    // warm-up
    for (const q of plain.slice(0, 20)) index.search(q, beams[beams.length - 1], 1);
    for (let qi = 0; qi < queryCount; qi++) {
      for (const [setName, qs] of Object.entries(querySets)) {
        const q = qs[qi];
        for (const mode of alphas) {
          for (let i = 0; i < dims; i++) scratch[i] = q[i] - mode * center[i];
          for (const beam of beams) {
            const ts = performance.now();
            const found = index.search(scratch, beam, 1);
            const sMs = performance.now() - ts;
            const cands = Array.from(found.keys as BigUint64Array, Number);
            for (const e of efs) {
              for (const r of rescores) {
                if (Math.max(e, r) !== beam) continue;
                const tr = performance.now();
                const top = matrix.nearestAmong(q, cands.slice(0, r), 40).filter((x) => !summary.has(x.key)).slice(0, 10);
                const rMs = performance.now() - tr;
                const st = stat(`${setName}|${mode}|${e}|${r}`);
                st.ms.push(sMs + rMs);
                for (const x of top) if (exact[setName][qi].has(x.key)) st.found++;
                st.total += exact[setName][qi].size;
              }
            }
            const key = `${setName}|${mode}|${beam}`;
            (searchMs.get(key) ?? searchMs.set(key, []).get(key)!).push(sMs);
          }
        }
      }
    }
    for (const [k, st] of stats) {
      const [queries, mode, ef, rescore] = k.split("|");
      const p = percentiles(st.ms);
      results.push({ build: spec, build_s: +buildS.toFixed(1), graph_mb: +fileMb.toFixed(0), rss_mb: +rssMb.toFixed(0), queries, alpha: +mode, ef: +ef, rescore: +rescore, "recall@10": +(st.found / st.total).toFixed(4), p50_ms: +p.p50.toFixed(2), p95_ms: +p.p95.toFixed(2) });
    }
    for (const r of results.filter((x) => x.build === spec)) console.error(JSON.stringify(r));
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
console.log(JSON.stringify({ db: dbPath, vectors: matrix.count, summary_chunks: summary.size, queries: queryCount, threads, results }, null, 1));
