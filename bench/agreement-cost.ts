/**
 * What agreement-adapted weights (fuse/agreement.ts) add to a search: the comparison against one fusion, on
 * seeded synthetic channel lists of the shape a fused search produces (five compared lists of `--depth` ranks over
 * `--memories` memories, and a recency list of 30 that is not compared). No store: the comparison reads only the
 * lists the channels already returned.
 *
 *   npm run build && node dist/bench/agreement-cost.js [--depth 100] [--memories 400] [--runs 2000]
 */
import { agreementWeights, defaultAgreement } from "../src/fuse/agreement.js";
import { fuse } from "../src/fuse/rrf.js";
import type { ChannelName, Ranked } from "../src/model/types.js";
import { numberFlag } from "./args.js";

const depth = numberFlag("--depth", 100);
const memories = numberFlag("--memories", 400);
const runs = numberFlag("--runs", 2000);
let seed = 7;
const random = () => (seed = (seed * 48271) % 2147483647) / 2147483647;
const list = (n: number): Ranked[] => Array.from({ length: n }, (_, i) => ({ memoryId: `m${Math.floor(random() * memories)}`, chunkId: i, score: n - i }));
const lists: Partial<Record<ChannelName, Ranked[]>> = { bm25: list(depth), dense: list(depth), colbert: list(depth), time: list(depth), graph: list(depth), recency: list(30) };
const weights = { bm25: 1, dense: 1, colbert: 1, time: 1, graph: 0.5, recency: 0.5 };

function time(name: string, f: () => unknown): void {
  for (let i = 0; i < runs / 10; i++) f();
  const t0 = performance.now();
  for (let i = 0; i < runs; i++) f();
  console.log(`${name.padEnd(22)} ${((performance.now() - t0) / runs).toFixed(3)} ms`);
}
time("fusion", () => fuse(lists, weights, 60));
time("agreement weights", () => agreementWeights(lists, weights, 60, defaultAgreement));
