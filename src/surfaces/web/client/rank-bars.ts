/**
 * @module web/client/rank-bars
 * One hit's per-channel ranks as a small bar chart, and its RRF arithmetic as a tooltip that shows on hover and
 * on keyboard focus (the chart is focusable and describes itself to screen readers). The arithmetic is the
 * contract's: rrf = Σ weight[c] / (rrf_k + rank[c]) over the channels that found the hit; score = rrf × factors
 * + deltas. The page recomputes it from the ranks and weights the API reported and shows the API's figures beside.
 */
import { h } from "./dom.js";

export interface HitJson {
  id: string;
  kind: string;
  level: string | null;
  text: string;
  title: string | null;
  topic: string | null;
  at: string;
  speaker?: string | null;
  ranks: Record<string, number>;
  sources_hit: string[];
  rrf: number;
  score: number;
  adjustments: ({ reason: string; factor: number } | { reason: string; delta: number })[];
  status: string;
  superseded_by: string[];
  supersedes: string[];
  chunk?: { text: string };
  /** A summary written before the latest memories of its window (absent otherwise). */
  stale?: true;
}

export interface ChannelsJson {
  [name: string]: { weight: number; candidates: number; ms: number };
}

const fmt = (n: number) => n.toFixed(6).replace(/0+$/, "0");

/** The arithmetic, one line per term, exactly as the score is built. */
export function rrfArithmetic(hit: HitJson, channels: ChannelsJson, rrfK: number): string {
  const lines = ["rrf = Σ weight / (rrf_k + rank)"];
  let sum = 0;
  for (const c of hit.sources_hit) {
    const w = channels[c]?.weight ?? 0;
    const r = hit.ranks[c];
    const term = w / (rrfK + r);
    sum += term;
    lines.push(`  ${c.padEnd(8)} ${w} / (${rrfK} + ${r}) = ${fmt(term)}`);
  }
  if (hit.sources_hit.length === 0) lines.push("  (no channel found it: brought in as a current successor)");
  lines.push(`    = ${fmt(sum)}   (API rrf ${fmt(hit.rrf)}${Math.abs(sum - hit.rrf) < 1e-9 ? " ✓" : " ✗"})`);
  let score = hit.rrf;
  for (const a of hit.adjustments) {
    if ("factor" in a) {
      score *= a.factor;
      lines.push(`  × ${fmt(a.factor)}   ${a.reason}`);
    } else {
      score += a.delta;
      lines.push(`  + ${fmt(a.delta)}   ${a.reason}`);
    }
  }
  lines.push(`score = ${fmt(score)}   (API score ${fmt(hit.score)}${Math.abs(score - hit.score) < 1e-9 ? " ✓" : " ✗"})`);
  return lines.join("\n");
}

let tipCount = 0;

export function rankBars(hit: HitJson, channels: ChannelsJson, rrfK: number): HTMLElement {
  const names = Object.keys(channels);
  const best = Math.max(...names.map((c) => channels[c].weight / (rrfK + 1)), 1e-12);
  const arithmetic = rrfArithmetic(hit, channels, rrfK);
  const tipId = `rrf-tip-${++tipCount}`;
  const rows = names.map((c) => {
    const rank = hit.ranks[c];
    const part = rank === undefined ? 0 : channels[c].weight / (rrfK + rank);
    return h(
      "div",
      { class: "bar-row", "data-channel": c },
      h("span", {}, c),
      h("span", { class: "bar-track" }, h("span", { class: "bar-fill", style: `display:block;width:${((100 * part) / best).toFixed(1)}%;background:var(--${c}, #555)` })),
      h("span", { class: "rank" }, rank === undefined ? "—" : `#${rank}`),
    );
  });
  const summary = hit.sources_hit.map((c) => `${c} rank ${hit.ranks[c]}`).join(", ") || "no channel";
  return h(
    "div",
    { class: "bars", tabindex: 0, role: "group", "aria-label": `Channel ranks: ${summary}. RRF ${fmt(hit.rrf)}, score ${fmt(hit.score)}.`, "aria-describedby": tipId, title: arithmetic },
    rows,
    h("div", { class: "tip", role: "tooltip", id: tipId }, arithmetic),
  );
}
