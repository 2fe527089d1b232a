/**
 * @module channels/graph
 * The graph channel: spreading activation (two steps of a personalized PageRank walk) over the memory graph,
 * for questions whose answer is spread over memories that share no words with the question but share an
 * entity with a memory that does.
 *
 * Seeds: the query's own entities (extracted as at ingest, resolved through aliases) and the other channels'
 * best hits (their RRF fusion, the first `seeds`, weighted 1/rank). A seed keeps `restart` of its activation;
 * the rest flows memory → entity (in proportion to the entity's IDF: a rare name says more than a speaker who
 * is in every turn) → memory (divided by the entity's degree, as a random walk does), and along typed edges
 * between memories that count at the query's (asOf, knownAt). Entities mentioned by more than `maxFanout`
 * memories are hubs and conduct nothing. A memory that is superseded passes everything it collected on to
 * its current successor instead of keeping it. Only ranks leave the channel; fusion never sees these scores.
 */
import { fuse } from "../fuse/rrf.js";
import { currentSuccessors, edgeCounts } from "../graph/status.js";
import type { Edge, GraphTime } from "../model/graph.js";
import type { ChannelName, Ranked, SearchFilter } from "../model/types.js";
import type { EntityInfo } from "../model/entity.js";
import type { Store } from "../ports/store.js";
import type { ChannelQuery } from "./channel.js";
import { memoryPassesFilter } from "../model/matching.js";

export interface GraphChannelOptions {
  /** How many of the other channels' fused best hits seed the walk. */
  seeds: number;
  /** Share of its activation a seed keeps (the walk's restart probability). */
  restart: number;
  /** Entities mentioned by more memories than this conduct nothing (speakers, "the team"). */
  maxFanout: number;
  /** ...and so are those held by more than this share of the chunks (in a small store, a word in 3 of 4 is a hub). */
  maxShare: number;
  /** Memories read per conducting entity (most recently written first). */
  perEntity: number;
  /** Share of a seed's outgoing activation that flows along typed memory–memory edges (the rest via entities). */
  edgeShare: number;
  /** Activation each entity named in the query starts with, relative to a whole seed memory. */
  queryEntityWeight: number;
  /**
   * Also walk through concepts: the seeds' indexed words held by at most `maxFanout` chunks (read from the body
   * index at query time, so they cost nothing at ingest). Named entities alone are too sparse in chat.
   */
  concepts: boolean;
  /** The most activated concepts whose memories are read. */
  maxConcepts: number;
  /** Seeds whose words become concepts (the best ones; each seed's words cost a lookup per word). */
  conceptSeeds: number;
}

export const defaultGraphChannel: Readonly<GraphChannelOptions> = Object.freeze({
  // seeds, restart and maxFanout (and the channel's RRF weight, 0.5) were chosen by leave-one-conversation-out on
  // LoCoMo over weight {0.5, 1, 1.5} × seeds {10, 20} × restart {0, 0.5} × maxFanout {50, 200}: this setting was
  // picked for 3 of the 6 held-out conversations, and every pick had restart 0 (bench/graph-cv.ts)
  seeds: 20,
  restart: 0, // the seeds' own order is already in the fused list; the channel's job is what they lead to
  maxFanout: 50, // a name or word in more than 50 memories identifies little (and costs a long read)
  maxShare: 0.1,
  perEntity: 20,
  edgeShare: 0.5, // an explicit relation is as strong as all shared entities together
  queryEntityWeight: 1,
  concepts: true,
  conceptSeeds: 10,
  maxConcepts: 10, // each is one FTS5 lookup: 30 cost ~8 ms a query at 20,000 memories, 10 keep the channel near 2 ms
});

/** Relations a walk follows in both directions; `supersedes` is handled as a hand-over, not a path. */
const CONDUCTING = new Set(["contradicts", "refines", "derived_from", "summarizes", "relates_to"]);

export interface GraphChannel {
  readonly name: "graph";
  run(query: ChannelQuery, others: Partial<Record<ChannelName, Ranked[]>>, time: GraphTime, rrf: { k: number; hits: number }): Promise<Ranked[]>;
}

export function graphChannel(store: Store, options: Partial<GraphChannelOptions> = {}): GraphChannel {
  const o: GraphChannelOptions = { ...defaultGraphChannel, ...options };
  return {
    name: "graph",
    async run(q, others, time, rrf) {
      const activation = new Map<string, number>();
      const chunkOf = new Map<string, number>();
      const give = (id: string, a: number) => activation.set(id, (activation.get(id) ?? 0) + a);

      // seeds: the other channels' consensus, weighted 1/rank and normalised to a total of 1
      const weights = Object.fromEntries(Object.keys(others).map((c) => [c, 1]));
      const fused = fuse(others, weights, rrf.k);
      const seedHits = fused.slice(0, o.seeds);
      const norm = seedHits.reduce((s, _, i) => s + 1 / (i + 1), 0);
      const seed = new Map<string, number>();
      seedHits.forEach((h, i) => {
        seed.set(h.memoryId, 1 / (i + 1) / norm);
        chunkOf.set(h.memoryId, h.chunkId);
      });
      for (const [id, w] of seed) if (o.restart > 0) give(id, w * o.restart);

      // node activation: the query's own entities, then each seed's entities and concepts by IDF
      const nodeAct = new Map<string, number>(); // "e:<entity id>" or "w:<word>"
      // what each seed put into each node: a memory never collects its own activation back (no self-loops)
      const nodeFrom = new Map<string, Map<string, number>>();
      const degree = new Map<string, number>();
      if (q.entities.length) {
        const found = q.entities.filter((e) => e.memories <= Math.min(o.maxFanout, Math.max(2, Math.floor(o.maxShare * Math.max(q.stats.chunks, 1)))));
        for (const e of found) {
          nodeAct.set(`e:${e.id}`, (nodeAct.get(`e:${e.id}`) ?? 0) + o.queryEntityWeight / found.length);
          degree.set(`e:${e.id}`, e.memories);
        }
      }
      const total = Math.max(q.stats.chunks, 1);
      const idf = (df: number) => Math.log(1 + total / Math.max(df, 1));
      const hub = Math.min(o.maxFanout, Math.max(2, Math.floor(o.maxShare * total)));
      const seedIds = [...seed.keys()];
      // the seeds' entities with their counts over the whole store: counting each within a scope costs a read of every
      // mention of a hub (a speaker in thousands of turns) per search; a global count only makes a hub conduct less
      // the three reads are independent: side by side, a networked store answers them in one round trip's time
      const [mentions, words, seedEdges] = await Promise.all([
        seed.size ? store.entities.mentionsOf(seedIds) : new Map<string, EntityInfo[]>(),
        // concepts come from the first `conceptSeeds` seeds only: their words' counts are one lookup each
        seed.size && o.concepts ? store.entities.wordsOf(seedIds.slice(0, o.conceptSeeds)) : new Map<string, { word: string; df: number }[]>(),
        seed.size ? store.edgesTouching(seedIds).then((edges) => edgesWithin(store, seed, q.filter, edges.filter((e) => CONDUCTING.has(e.type) && edgeCounts(e, time)))) : [],
      ]);
      for (const [id, w] of seed) {
        const out = w * (1 - o.restart);
        const edges = seedEdges.filter((e) => e.from === id || e.to === id);
        const viaEdges = edges.length ? out * o.edgeShare : 0;
        for (const e of edges) give(e.from === id ? e.to : e.from, viaEdges / edges.length);
        const nodes: [string, number][] = [];
        for (const e of mentions.get(id) ?? []) if (e.memories <= hub) nodes.push([`e:${e.id}`, e.memories]);
        for (const { word, df } of words.get(id) ?? []) if (df >= 2 && df <= hub) nodes.push([`w:${word}`, df]);
        const sum = nodes.reduce((s, [, df]) => s + idf(df), 0);
        for (const [node, df] of nodes) {
          const a = ((out - viaEdges) * idf(df)) / sum;
          nodeAct.set(node, (nodeAct.get(node) ?? 0) + a);
          if (!nodeFrom.has(node)) nodeFrom.set(node, new Map());
          nodeFrom.get(node)!.set(id, a);
          degree.set(node, df);
        }
      }

      // node → memory, divided by the node's degree (a random walk's step); only the most active concepts are read.
      // Both reads at once (neither depends on the other), then applied in the same order as ever.
      const entityIds = [...nodeAct.keys()].filter((k) => k.startsWith("e:")).map((k) => k.slice(2));
      const concepts = [...nodeAct.entries()].filter(([k]) => k.startsWith("w:")).sort((a, b) => b[1] - a[1]).slice(0, o.maxConcepts);
      const [mentioning, holding] = await Promise.all([
        entityIds.length ? store.entities.mentioning({ entityIds, limit: o.perEntity, filter: q.filter }) : [],
        concepts.length ? store.entities.holdingWords({ words: concepts.map(([k]) => k.slice(2)), limit: o.perEntity, filter: q.filter }) : [],
      ]);
      for (const r of mentioning) {
        const node = `e:${r.entityId}`;
        give(r.memoryId, (nodeAct.get(node)! - (nodeFrom.get(node)?.get(r.memoryId) ?? 0)) / Math.max(degree.get(node) ?? 1, 1));
        if (!chunkOf.has(r.memoryId)) chunkOf.set(r.memoryId, r.chunkId);
      }
      const reached = new Set<string>();
      for (const r of holding) {
        const node = `w:${r.word}`;
        if (reached.has(`${node}>${r.memoryId}`)) continue;
        reached.add(`${node}>${r.memoryId}`);
        give(r.memoryId, (nodeAct.get(node)! - (nodeFrom.get(node)?.get(r.memoryId) ?? 0)) / Math.max(degree.get(node) ?? 1, 1));
        if (!chunkOf.has(r.memoryId)) chunkOf.set(r.memoryId, r.chunkId);
      }
      for (const e of seedEdges) for (const id of [e.from, e.to]) if (!chunkOf.has(id)) chunkOf.set(id, -1);

      // a superseded memory hands what it collected to its current successor
      let ranked = [...activation.entries()].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1)).slice(0, 2 * q.depth);
      const successors = await currentSuccessors(store, ranked.map(([id]) => id), time);
      if (successors.size) {
        for (const [old, successor] of successors) {
          give(successor, activation.get(old) ?? 0);
          activation.delete(old);
          if (!chunkOf.has(successor)) chunkOf.set(successor, -1);
        }
        ranked = [...activation.entries()].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1)).slice(0, 2 * q.depth);
      }
      const missing = ranked.map(([id]) => id).filter((id) => (chunkOf.get(id) ?? -1) < 0);
      if (missing.length) {
        // memories reached only through edges or a hand-over: their first chunk, if they pass the filter
        const [first, found] = await Promise.all([store.firstChunkIds(missing), store.getMemories(missing)]);
        for (const id of missing) {
          const m = found.get(id);
          chunkOf.set(id, m && first.has(id) && memoryPassesFilter(m, q.filter) ? first.get(id)! : -1);
        }
      }
      // the seeds are ranked already by the channels that found them: counting them again here would let one
      // channel's find look like two channels agreeing (the graph's job is what the seeds lead to)
      return ranked
        .filter(([id]) => (chunkOf.get(id) ?? -1) >= 0 && !seed.has(id))
        .slice(0, q.depth)
        .map(([memoryId, score]) => ({ memoryId, chunkId: chunkOf.get(memoryId)!, score }));
    },
  };
}

/**
 * The seeds' edges whose other end passes the search's filter. An edge out of the searched scope conducts nothing:
 * the memory at its end could not be shown, and it must not pass what it collected on to one that could (a
 * superseded memory hands its activation to its successor).
 */
async function edgesWithin(store: Store, seeds: Map<string, number>, filter: SearchFilter, edges: Edge[]): Promise<Edge[]> {
  const ends = [...new Set(edges.flatMap((e) => [e.from, e.to]).filter((id) => !seeds.has(id)))];
  const inside = new Set<string>();
  for (const id of ends) {
    const m = await store.getMemory(id);
    if (m && memoryPassesFilter(m, filter)) inside.add(id);
  }
  return edges.filter((e) => (seeds.has(e.from) || inside.has(e.from)) && (seeds.has(e.to) || inside.has(e.to)));
}
