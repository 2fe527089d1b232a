/**
 * @module fuse/agreement
 * Channel weights that adapt to the query: a channel whose top memories the other channels do not share on this
 * query counts less in fusion. Fixed weights are tuned on some conversations; on others (short casual messages,
 * slang) a channel can pull the right memory down on most queries, and which channel does so differs by store.
 * What the channels agree on is the signal every store and query carries without a model of either.
 *
 * For each channel with a list (recency aside, below), its agreement is the share of its top `top` memories that
 * are also in the top `top` of the fusion of the other channels (the same weighted RRF, that channel's
 * contribution taken out). Its weight is scaled by `floor + (1 - floor) · min(1, agreement / full)`, divided by the
 * same for the most agreeing channel, so that the channel the others agree with most keeps its configured weight
 * and none falls below `floor` of its own (RRF reads only the weights' ratios). With fewer than three channels
 * with a list nothing changes: two that disagree say nothing about which one is wrong. Only the lists already
 * computed are read: one more fusion and a sort per channel (bench/agreement-cost.ts).
 * Each change is explained: the report of every channel names its base weight, how many of its top memories the
 * others share and the factor applied.
 */
import type { ChannelName, Ranked } from "../model/types.js";
import { CHANNEL_NAMES } from "../model/types.js";
import { fuse } from "./rrf.js";

export interface AgreementOptions {
  /** How many of each list's first memories are compared (and of the others' fusion). */
  top: number;
  /** The factor of a channel that shares none of its top memories with the others (1: off). */
  floor: number;
  /** The share of its top memories at and above which a channel counts as fully backed (1: only all of them). */
  full: number;
}

/**
 * The middle of the grid measured (bench/grids/agreement.json). No setting of it helped a dataset held out of
 * LoCoMo, BEAM and MADial, so `search.agreement` is off by default (docs/benchmark-notes.md).
 */
export const defaultAgreement: Readonly<AgreementOptions> = Object.freeze({ top: 10, floor: 0.5, full: 1 });

/** Why a channel's weight is what it is on this query. */
export interface ChannelAgreement {
  /** The configured weight, before agreement. */
  base: number;
  /** How many of its top memories the others' fusion also has in its top, out of `of`. */
  shared: number;
  of: number;
  /** The weight used is base × factor. */
  factor: number;
}

/**
 * Recency orders the other channels' candidates by date: every one of them is shared by construction, and its
 * newest ten are not evidence to agree or disagree with. Damping it by agreement cost MADial 0.012 Recall@10,
 * where recency carries 0.12 (fused without it 0.339 against 0.458); it keeps its weight and stays out of the
 * others' fusion.
 */
const ORDERINGS: ReadonlySet<ChannelName> = new Set(["recency"]);

/** A list's first `n` distinct memories. */
function topMemories(list: readonly Ranked[], n: number): Set<string> {
  const out = new Set<string>();
  for (const r of list) {
    if (out.size >= n) break;
    out.add(r.memoryId);
  }
  return out;
}

/**
 * The weights to fuse with on this query, and for each channel that was compared, why. Channels without a list,
 * with an empty one or with weight 0 keep their weight and are not compared.
 */
export function agreementWeights(
  lists: Partial<Record<ChannelName, Ranked[]>>,
  weights: Readonly<Partial<Record<ChannelName, number>>>,
  k: number,
  o: AgreementOptions,
): { weights: Partial<Record<ChannelName, number>>; why: Partial<Record<ChannelName, ChannelAgreement>> } {
  const active = CHANNEL_NAMES.filter((c) => !ORDERINGS.has(c) && (lists[c]?.length ?? 0) > 0 && (weights[c] ?? 0) > 0);
  if (active.length < 3 || o.floor >= 1 || o.top < 1 || !(o.full > 0)) return { weights, why: {} };
  // one fusion of every compared list; each channel's "others" score is the whole less its own contribution
  const evidence: Partial<Record<ChannelName, Ranked[]>> = {};
  for (const c of active) evidence[c] = lists[c];
  const fused = fuse(evidence, weights, k);
  const measured = active.map((c) => {
    const w = weights[c]!;
    const others: { id: string; score: number; best: number }[] = [];
    for (const f of fused) {
      let best = Infinity;
      for (const d of f.sourcesHit) if (d !== c) best = Math.min(best, f.ranks[d]!);
      if (best === Infinity) continue;
      others.push({ id: f.memoryId, score: f.ranks[c] === undefined ? f.rrf : f.rrf - w / (k + f.ranks[c]!), best });
    }
    // fusion's own order: score, then best single rank, then id
    others.sort((a, b) => b.score - a.score || a.best - b.best || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
    const consensus = new Set(others.slice(0, o.top).map((x) => x.id));
    const mine = topMemories(lists[c]!, o.top);
    let shared = 0;
    for (const id of mine) if (consensus.has(id)) shared++;
    return { c, shared, of: mine.size, raw: o.floor + (1 - o.floor) * Math.min(1, shared / mine.size / o.full) };
  });
  const most = Math.max(...measured.map((m) => m.raw));
  const out: Partial<Record<ChannelName, number>> = { ...weights };
  const why: Partial<Record<ChannelName, ChannelAgreement>> = {};
  for (const m of measured) {
    // rounded before use, so that the weight shown is the weight fused with
    const factor = Math.round((m.raw / most) * 1000) / 1000;
    const base = weights[m.c]!;
    out[m.c] = base * factor;
    why[m.c] = { base, shared: m.shared, of: m.of, factor };
  }
  return { weights: out, why };
}
