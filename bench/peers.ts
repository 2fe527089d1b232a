/**
 * Peers in the same run: LanceDB 0.31.0 (full-text, vector, hybrid with its RRF reranker) and Orama
 * (full-text, vector, hybrid) on the same LoCoMo data (and, with --beam, the same BEAM chats) and the same
 * synthetic corpus as Cascade, with the same text (speaker written in front, as Cascade indexes it) and the same
 * vectors (Cascade's default embedder). Conversations, questions and evidence come from the readers of
 * `cascade eval`, and quality is scored by the same functions (update_first too, for BEAM's knowledge updates);
 * latency is measured query by query in turns with Cascade in this process, and reported as medians, p95s and
 * ratios Cascade/peer (this machine is noisy).
 *
 *   node dist/bench/peers.js [LOCOMO_PATH] [--beam BEAM_PATH] [--no-speed] [--chunks 100000] [--queries 200]
 *
 * devDependencies only: nothing here ships in the package.
 */
process.env.LANCE_CPU_THREADS ??= "2"; // LanceDB's full-text index build hangs on 2 cores without it

import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { create, insertMultiple, search, type AnyOrama } from "@orama/orama";
import { DATASET_READERS, Engine, SqliteStore, defaultGloveEmbedder, scoreQuestion, updateFirst, type EvalConversation, type Metrics } from "../src/index.js";
import { MetricsAccumulator } from "../src/eval/metrics.js";
import { syntheticCorpus } from "../src/bench/corpus.js";
import { percentiles, type Percentiles } from "../src/bench/run.js";
import { words } from "../src/text/tokenize.js";

const lancedb = await import("@lancedb/lancedb");
type Table = Awaited<ReturnType<Awaited<ReturnType<typeof lancedb.connect>>["createTable"]>>;

const embedder = defaultGloveEmbedder();
const K = 10;
export const PEER_CONFIGS = ["lancedb fts", "lancedb vector", "lancedb hybrid (RRF)", "orama fts", "orama vector", "orama hybrid"] as const;

interface Doc {
  key: string;
  text: string;
  vector: Float32Array;
}

/** Lance's full-text parser has its own syntax: the query goes in as plain words, as Cascade's does. */
const plainWords = (q: string) => words(q).join(" ") || "nothing";

class Peers {
  private constructor(private readonly table: Table, private readonly orama: AnyOrama, private readonly rrf: InstanceType<typeof lancedb.rerankers.RRFReranker>, private readonly dir: string) {}

  static async build(docs: Doc[], onProgress?: (phase: string) => void): Promise<Peers & { buildMs: Record<string, number> }> {
    const dir = mkdtempSync(join(tmpdir(), "cascade-peers-"));
    const buildMs: Record<string, number> = {};
    let t0 = performance.now();
    const db = await lancedb.connect(dir);
    const table = await db.createTable("memories", docs.map((d) => ({ key: d.key, text: d.text, vector: Array.from(d.vector) })));
    await table.createIndex("text", { config: lancedb.Index.fts() });
    buildMs.lancedb = performance.now() - t0;
    onProgress?.("lancedb built");
    t0 = performance.now();
    const orama = create({ schema: { key: "string", text: "string", vector: `vector[${embedder.dimensions}]` } as const });
    await insertMultiple(orama, docs.map((d) => ({ key: d.key, text: d.text, vector: Array.from(d.vector) })), 1000);
    buildMs.orama = performance.now() - t0;
    onProgress?.("orama built");
    const peers = new Peers(table, orama, await lancedb.rerankers.RRFReranker.create(), dir);
    return Object.assign(peers, { buildMs });
  }

  /** The top-k keys of one peer configuration. */
  async query(config: (typeof PEER_CONFIGS)[number], text: string, vector: Float32Array): Promise<string[]> {
    const v = Array.from(vector);
    switch (config) {
      case "lancedb fts":
        return keys(await this.table.search(plainWords(text), "fts").limit(K).toArray());
      case "lancedb vector":
        return keys(await this.table.vectorSearch(v).distanceType("cosine").limit(K).toArray());
      case "lancedb hybrid (RRF)":
        return keys(await this.table.query().fullTextSearch(plainWords(text)).nearestTo(v).distanceType("cosine").rerank(this.rrf).limit(K).toArray());
      case "orama fts":
        return (await search(this.orama, { term: text, limit: K })).hits.map((h) => String(h.document.key));
      case "orama vector":
        return (await search(this.orama, { mode: "vector", vector: { value: v, property: "vector" }, similarity: 0.01, limit: K })).hits.map((h) => String(h.document.key));
      case "orama hybrid":
        return (await search(this.orama, { mode: "hybrid", term: text, vector: { value: v, property: "vector" }, similarity: 0.01, limit: K })).hits.map((h) => String(h.document.key));
    }
  }

  close(): void {
    rmSync(this.dir, { recursive: true, force: true });
  }
}

const keys = (rows: Record<string, unknown>[]) => rows.map((r) => String(r.key));

async function docsOf(items: { key: string; text: string; speaker?: string }[]): Promise<Doc[]> {
  const vectors = await embedder.embed(items.map((i) => i.text));
  return items.map((item, i) => ({ key: item.key, text: item.speaker ? `${item.speaker}: ${item.text}` : item.text, vector: vectors[i] }));
}

/** Recall@k etc. of each peer configuration, scored exactly as `cascade eval` scores Cascade on the same conversations. */
export async function peerQuality(conversations: EvalConversation[], log: (s: string) => void = () => {}): Promise<{ questions: number; by_config: Record<string, Metrics & { update_first?: number }> }> {
  const totals = new Map<string, MetricsAccumulator>(PEER_CONFIGS.map((c) => [c, new MetricsAccumulator()]));
  const updates = new Map<string, number[]>(PEER_CONFIGS.map((c) => [c, []]));
  for (const conv of conversations) {
    const peers = await Peers.build(await docsOf(conv.turns.map((t) => ({ key: t.id, text: t.input.text, speaker: t.input.speaker }))));
    for (const q of conv.questions) {
      if (q.evidence.length === 0) continue;
      const [vector] = await embedder.embed([q.question]);
      for (const config of PEER_CONFIGS) {
        const ranked = await peers.query(config, q.question, vector);
        totals.get(config)!.add(scoreQuestion(ranked, new Set(q.evidence)));
        const first = q.update ? updateFirst(ranked, q.update) : null;
        if (first !== null) updates.get(config)!.push(first);
      }
    }
    peers.close();
    log(`peers: ${conv.name} done`);
  }
  const share = (xs: number[]) => (xs.length ? { update_first: Math.round((xs.reduce((a, b) => a + b, 0) / xs.length) * 10000) / 10000 } : {});
  return { questions: totals.get(PEER_CONFIGS[0])!.count, by_config: Object.fromEntries([...totals].map(([c, a]) => [c, { ...a.mean(), ...share(updates.get(c)!) }])) };
}

export interface PeerSpeed {
  chunks: number;
  queries: number;
  build_s: Record<string, number>;
  latency_ms: Record<string, Percentiles>;
  /** Cascade's fused p50 and p95 divided by each peer configuration's (below 1: Cascade is faster). */
  ratio_cascade_over_peer: Record<string, { p50: number; p95: number }>;
}

/** Latency on the synthetic corpus Cascade's own bench uses, every system answering each query in turn. */
export async function peerSpeed(chunks: number, queries: number, log: (s: string) => void = () => {}): Promise<PeerSpeed> {
  const corpus = syntheticCorpus({ memories: chunks, queries, seed: 42, vocabulary: [...embedder.vocabulary()] });
  const dir = mkdtempSync(join(tmpdir(), "cascade-peer-speed-"));
  const engine = await Engine.create({ store: new SqliteStore(join(dir, "cascade.db")), embedder, tokens: embedder }, { detection: { enabled: false } });
  try {
    let t0 = performance.now();
    for (let i = 0; i < corpus.memories.length; i += 2000) await engine.rememberMany(corpus.memories.slice(i, i + 2000), { batchSize: 2000, detect: false });
    await engine.settlePyramid(); // the summaries are part of the build (a search does not wait for them)
    await engine.recall(corpus.queries[0]);
    const cascadeBuild = performance.now() - t0;
    log("peers: cascade built");
    const peers = await Peers.build(await docsOf(corpus.memories.map((m, i) => ({ key: String(i), text: m.text, speaker: m.speaker }))), log);
    const systems: [string, (q: string) => Promise<unknown>][] = [
      ["cascade fused", (q) => engine.recall(q, { k: K })],
      ...PEER_CONFIGS.map((c): [string, (q: string) => Promise<unknown>] => [c, async (q) => peers.query(c, q, (await embedder.embed([q]))[0])]),
    ];
    const samples = new Map<string, number[]>(systems.map(([n]) => [n, []]));
    for (const q of corpus.queries.slice(0, 20)) for (const [, run] of systems) await run(q);
    for (const q of corpus.queries) {
      for (const [name, run] of systems) {
        t0 = performance.now();
        await run(q);
        samples.get(name)!.push(performance.now() - t0);
      }
    }
    peers.close();
    const latency = Object.fromEntries([...samples].map(([n, xs]) => [n, percentiles(xs)]));
    const fused = latency["cascade fused"];
    const ratio = Object.fromEntries(
      PEER_CONFIGS.map((c) => [c, { p50: Math.round((fused.p50 / latency[c].p50) * 100) / 100, p95: Math.round((fused.p95 / latency[c].p95) * 100) / 100 }]),
    );
    const seconds = (ms: number) => Math.round(ms / 100) / 10;
    return {
      chunks,
      queries,
      build_s: { cascade: seconds(cascadeBuild), lancedb: seconds(peers.buildMs.lancedb), orama: seconds(peers.buildMs.orama) },
      latency_ms: latency,
      ratio_cascade_over_peer: ratio,
    };
  } finally {
    await engine.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  const args = process.argv.slice(2);
  const flag = (name: string, fallback: number) => (args.includes(name) ? Number(args[args.indexOf(name) + 1]) : fallback);
  const path = args.find((a, i) => !a.startsWith("--") && !args[i - 1]?.startsWith("--")) ?? "../shared/data/locomo";
  const beam = args.includes("--beam") ? args[args.indexOf("--beam") + 1] : undefined;
  const log = (s: string) => process.stderr.write(s + "\n");
  const quality = await peerQuality(DATASET_READERS.locomo(path), log);
  const beamQuality = beam ? await peerQuality(DATASET_READERS.beam(beam), log) : undefined;
  const speed = args.includes("--no-speed") ? undefined : await peerSpeed(flag("--chunks", 100_000), flag("--queries", 200), log);
  process.stdout.write(JSON.stringify({ quality, ...(beamQuality ? { beam_quality: beamQuality } : {}), ...(speed ? { speed } : {}) }, null, 2) + "\n");
}
