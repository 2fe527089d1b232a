/**
 * @module surfaces/cli/format
 * Human-readable renderings of engine results for a terminal.
 */
import { CHILD_NOUN, countOf, sentenceLine, STALE_SUMMARY_NOTE, supersededMark, withSpeaker, type ShownSentence } from "../../light.js";
import type { BenchReport, PyramidBenchReport, TopicBenchReport, FilterBenchReport, TopicJson, EvalReport, HistoryJson, ListedMemory, Metrics, PyramidNodeJson, SearchResult } from "../../index.js";

/**
 * A text on one line, cut at `max` characters. A line break becomes " · " after a line that ends no sentence,
 * so that joined memories ("…on flights" / "Sam is…") never read as one sentence.
 */
export function oneLine(s: string, max: number): string {
  const lines = s.split("\n").map((l) => l.replace(/\s+/g, " ").trim()).filter(Boolean);
  const flat = lines.map((l, i) => (i < lines.length - 1 && !/[.!?…:;,。！？]["'”’)\]]*$/.test(l) ? `${l} ·` : l)).join(" ");
  return flat.length > max ? flat.slice(0, max - 1) + "…" : flat;
}

/** A factor, confidence or similarity as a person reads it: at most two decimals (1.2493319063221888 → 1.25). */
export const rounded = (x: number): string => String(Number(x.toFixed(2)));

export function formatSearch(r: SearchResult): string {
  const note = r.time_note ? `time: ${r.time_note}\n` : "";
  if (r.hits.length === 0) return `${note}No memories match ${JSON.stringify(r.query)}.`;
  const lines = r.hits.map((h, i) => {
    const channels = h.sources_hit.map((c) => `${c}#${h.ranks[c]}`).join(" ");
    const kind = h.level && h.window ? `${h.level} summary ${h.window.start.slice(0, 10)}..${h.window.end.slice(0, 10)}` : h.kind;
    const where = [h.level ? null : h.at.slice(0, 10), h.topic, kind, h.speaker].filter(Boolean).join("  ");
    const shown = h.title ? `${h.title} — ${h.chunk.text}` : withSpeaker(h.speaker, h.chunk.text);
    const status = h.status === "superseded" ? `  SUPERSEDED by ${h.superseded_by.join(", ")}` : h.supersedes.length ? `  (supersedes ${h.supersedes.join(", ")})` : "";
    const revised = h.revised.map((r) => `\n    partly revised: "${oneLine(r.statement, 100)}" replaced by ${r.by}`).join("");
    const adjusted = h.adjustments.map((a) => `${a.reason}${"factor" in a ? ` ×${rounded(a.factor)}` : ` +${a.delta.toFixed(4)}`}`).join("; ");
    // a summary whose window was written to since it was computed says so (Hit.stale), on a line of its own
    const stale = h.stale ? `\n    ${STALE_SUMMARY_NOTE}` : "";
    return `${String(i + 1).padStart(2)}. ${h.score.toFixed(4)}  [${channels || "no channel"}]  ${where}  ${h.id}${status}${adjusted ? `\n    adjusted: ${adjusted}` : ""}${revised}${stale}\n    ${oneLine(shown, 150)}`;
  });
  const timing = Object.entries(r.channels)
    .map(([c, rep]) => `${c} ${rep!.candidates} in ${rep!.ms.toFixed(1)} ms${rep!.agreement ? ` (weight ${rounded(rep!.agreement.base)} × ${rep!.agreement.factor}: ${rep!.agreement.shared}/${rep!.agreement.of} of its top shared)` : ""}`)
    .join(", ");
  // context: each summary's level and window, then its sentences, one a line
  const context = (r.context ?? []).map((c) => `  ${c.level} ${c.window.start.slice(0, 10)}${c.level === "turn" ? "" : `..${c.window.end.slice(0, 10)}`}  ${c.id}${c.stale ? `  (${STALE_SUMMARY_NOTE})` : ""}\n${c.sentences.map((s) => `    ${sentence(s)}`).join("\n")}`);
  const contextBlock = context.length ? `\ncontext (summaries of the top hits' windows):\n${context.join("\n")}` : "";
  return `${note}${lines.join("\n")}${contextBlock}\n(${r.took_ms.toFixed(1)} ms; ${timing}${stepsNote(r)})`;
}

/** The read-time steps that changed the ranking and those switched off (the JSON's `steps` has every step). */
function stepsNote(r: SearchResult): string {
  const named = (report: string) => Object.entries(r.steps ?? {}).filter(([, v]) => v === report).map(([s]) => s);
  const changed = named("changed");
  const off = named("off");
  return `${changed.length ? `; changed by ${changed.join(", ")}` : ""}${off.length ? `; off: ${off.join(", ")}` : ""}`;
}

/** A summary sentence cut to fit a line, its superseded mark never cut off. */
const sentence = (s: ShownSentence) => [oneLine(withSpeaker(s.speaker, s.text), 150), supersededMark(s)].filter(Boolean).join("  ");

export function formatHistory(h: HistoryJson): string {
  const chain = h.chain.map((c) => `${c.id === h.id ? "*" : " "} ${c.valid_from} → ${c.valid_to ?? "now"}  ${c.status.padEnd(10)} ${c.id}\n    ${oneLine(c.text, 140)}`);
  const edges = h.edges.map((e) => `  ${e.id}: ${e.from} ${e.type} ${e.to} from ${e.valid_from} (${e.provenance}, ${rounded(e.confidence)}${e.retracted_at ? `, retracted ${e.retracted_at}` : ""})${e.reason ? ` — ${e.reason}` : ""}`);
  const revisions = h.revisions.map((r) => `  before the correction of ${r.recorded_at}: ${oneLine(r.text, 120)}`);
  return `${chain.join("\n")}\n\nedges:\n${edges.join("\n") || "  none"}${revisions.length ? `\n\ncorrections:\n${revisions.join("\n")}` : ""}`;
}

/** The topic tree drawn with box-drawing lines: each node with "direct/total" counts and its description. */
export function formatTopicTree(topics: TopicJson[]): string {
  if (topics.length === 0) return "no topics";
  const byPath = new Map(topics.map((t) => [t.path, t]));
  const parentOf = (path: string) => {
    const labels = path.split(".");
    for (let i = labels.length - 1; i > 0; i--) {
      const p = labels.slice(0, i).join(".");
      if (byPath.has(p)) return p;
    }
    return null;
  };
  const children = new Map<string | null, TopicJson[]>();
  for (const t of topics) {
    const p = parentOf(t.path);
    children.set(p, [...(children.get(p) ?? []), t]);
  }
  const lines: string[] = [];
  const draw = (t: TopicJson, prefix: string, last: boolean, root: boolean) => {
    const parent = parentOf(t.path);
    const label = parent ? t.path.slice(parent.length + 1) : t.path;
    const counts = t.count === t.total ? `${t.total}` : `${t.count} here, ${t.total} in all`;
    lines.push(`${root ? "" : prefix + (last ? "└── " : "├── ")}${label}  (${counts})${t.description ? `  — ${oneLine(t.description, 80)}` : ""}`);
    const kids = children.get(t.path) ?? [];
    kids.forEach((k, i) => draw(k, root ? "" : prefix + (last ? "    " : "│   "), i === kids.length - 1, false));
  };
  for (const r of children.get(null) ?? []) draw(r, "", true, true);
  return lines.join("\n");
}

export function formatPyramid(r: { zone: string; dirty: number; nodes: PyramidNodeJson[] }): string {
  // the start of each summary, then any sentence a later memory replaced, so that a stale one is never missed
  const lines = r.nodes.map((n) => {
    const stale = n.sentences.filter((s) => s.status === "superseded").map((s) => `\n    ${sentence(s)}`);
    const whose = n.user !== null ? `  user ${n.user}` : n.agent !== null ? `  agent ${n.agent}` : "";
    return `${n.level.padEnd(6)} ${n.start.slice(0, 10)}..${n.end.slice(0, 10)}  ${countOf(n.children, CHILD_NOUN[n.level]).padStart(13)}  ${n.id}${whose}\n    ${oneLine(n.text, 150)}${stale.join("")}`;
  });
  const state = r.dirty ? `${countOf(r.dirty, "window")} changed since the last build: run cascade pyramid build` : "up to date";
  return `${lines.join("\n") || "no summary nodes yet (cascade pyramid build)"}\n(${countOf(r.nodes.length, "node")}, time zone ${r.zone}, ${state})`;
}

/**
 * `show`: the memory's fields, its status first (a superseded memory must not read as current), its scope
 * (user, agent, session, and the namespace when not the default one), then its text (a summary's as its sentences
 * read now: one whose source was superseded since is marked).
 */
export function formatMemory(m: ListedMemory & { children?: string[]; sentences?: ShownSentence[] }, namespace?: string): string {
  const rows: [string, string | null][] = [
    ["id", m.id],
    ["status", m.status === "superseded" ? `SUPERSEDED by ${m.superseded_by.join(", ")}` : m.revised.length ? "partly current: the rest still stands" : "current"],
    ...m.revised.map((r): [string, string] => ["replaced", `"${oneLine(r.statement, 120)}" by ${r.by}`]),
    ["supersedes", m.supersedes.length ? m.supersedes.join(", ") : null],
    ["kind", m.kind],
    ["at", m.at],
    ["recorded", m.recorded_at],
    ["title", m.title],
    ["description", m.description],
    ["tags", m.tags.length ? m.tags.join(", ") : null],
    ["topic", m.topic],
    ["placement", placementLine(m.metadata.placement)],
    ["user", m.user],
    ["agent", m.agent],
    ["namespace", namespace ?? null],
    ["speaker", m.speaker],
    ["role", m.role],
    ["session", m.session],
    ["chunks", String(m.chunks)],
    ["metadata", Object.keys(m.metadata).length ? JSON.stringify(m.metadata) : null],
    ["children", m.children ? `${m.children.length}: ${m.children.join(", ")}` : null],
  ];
  const head = rows.filter(([, v]) => v !== null).map(([k, v]) => `${k.padEnd(12)}${v}`);
  // a summary's text as its sentences read now: one whose source was superseded since is marked
  return `${head.join("\n")}\n\n${m.sentences?.length ? m.sentences.map(sentenceLine).join("\n") : m.text}`;
}

/**
 * What automatic placement decided, from `metadata.placement`: the confidence of a placement, or — when no topic
 * fitted — that the memory was not placed, with the nearest topic and its similarity. A memory placed before
 * abstention has no `abstained` field; its `unsorted` topic meant the same. Null when nothing was recorded.
 */
export function placementLine(recorded: unknown): string | null {
  if (!recorded || typeof recorded !== "object") return null;
  const p = recorded as { topic?: unknown; abstained?: unknown; confidence?: unknown; similarity?: unknown; nearest?: unknown };
  const num = (v: unknown) => (typeof v === "number" && Number.isFinite(v) ? rounded(v) : null);
  const similarity = num(p.similarity);
  const abstained = p.abstained === true || (p.abstained === undefined && (p.topic === "unsorted" || p.topic === null));
  if (abstained) {
    const nearest = typeof p.nearest === "string" ? `nearest ${p.nearest}${similarity !== null ? `, similarity ${similarity}` : ""}` : "no topic fitted";
    return `not placed: ${nearest}`;
  }
  const confidence = num(p.confidence);
  const parts = ["automatic", typeof p.topic === "string" ? `to ${p.topic}` : null, confidence !== null ? `confidence ${confidence}` : null, similarity !== null ? `similarity ${similarity}` : null];
  return parts.filter(Boolean).join(", ");
}

const METRICS: (keyof Metrics)[] = ["recall@5", "recall@10", "hit@10", "ndcg@10", "mrr"];

/** A Markdown table of metrics, one row per configuration; evidence@N columns when any row was measured with them. */
export function metricsTable(rows: [string, Metrics][]): string {
  const budgets = [...new Set(rows.flatMap(([, m]) => Object.keys(m).filter((k) => k.startsWith("evidence@"))))];
  const columns = [...METRICS, ...budgets] as (keyof Metrics)[];
  const cell = (v: number | undefined) => (v === undefined ? "" : v.toFixed(3));
  const head = `| configuration | ${columns.join(" | ")} |\n|---|${columns.map(() => "---:").join("|")}|`;
  return [head, ...rows.map(([name, m]) => `| ${name} | ${columns.map((k) => cell(m[k])).join(" | ")} |`)].join("\n");
}

export function formatEval(r: EvalReport): string {
  const extra = (m: Record<string, number>) => ("update_first" in m ? ` (update_first ${m.update_first.toFixed(3)})` : "");
  return [
    `${r.dataset}: ${countOf(r.conversations, "conversation")}, ${countOf(r.questions, "question")} scored, ${r.without_evidence} without evidence not scored (${r.took_s} s)${extra(r.overall)}`,
    ...(r.changes ? [`labelled updates linked by an edge: ${r.changes.linked} of ${r.changes.labelled} (recall ${r.changes.recall.toFixed(3)}), among ${countOf(r.changes.edges, "supersedes or refines edge")} drawn`] : []),
    "",
    metricsTable([["all channels", r.overall], ...(r.sessions ? [["sessions (all channels)", r.sessions] as [string, Metrics]] : []), ...Object.entries(r.by_channel)]),
    "",
    metricsTable(Object.entries(r.by_category).map(([c, m]) => [`category ${c}${extra(m)}`, m])),
  ].join("\n");
}

export function formatBench(r: BenchReport): string {
  const lat = Object.entries(r.latency_ms)
    .map(([c, p]) => `| ${c} | ${p.p50.toFixed(2)} | ${p.p95.toFixed(2)} | ${p.p99.toFixed(2)} |`)
    .join("\n");
  return [
    `${countOf(r.chunks, "chunk")}, ${countOf(r.queries, "query")} per configuration`,
    `summary pyramid ${r.pyramid ? `on: kept current during ingest (${countOf(r.summary_nodes, "node")}), context in every fused search` : "off"}`,
    `ingest ${r.ingest_per_s} chunks/s (bulk, no revision detection); index build ${r.build_s} s; store ${r.store_mb} MB; peak RSS ${r.peak_rss_mb} MB${r.heap_growth_percent === undefined ? "" : ` (heap growth ${r.heap_growth_percent === null ? "V8's own" : `${r.heap_growth_percent}%`})`}; dense recall@10 ${r["ann_recall@10"]}`,
    `revision detection adds ${r.detect_ms_per_memory} ms per memory at ingest; fused_with_edges and supersession_annotation (its part of the fused time): after ${r.edges} supersedes edges`,
    `work budgets cut: ${Object.entries(r.budget_cuts).map(([c, n]) => `${c} in ${n}`).join(", ") || "none"} of ${r.queries} fused queries`,
    "",
    "| query | p50 ms | p95 ms | p99 ms |\n|---|---:|---:|---:|",
    lat,
  ].join("\n");
}

export function formatPyramidBench(r: PyramidBenchReport): string {
  return [
    `${countOf(r.turns, "turn")} over ${countOf(r.days, "day")}`,
    `ingest with the pyramid kept current: ${r.ingest_s} s (${r.ingest_per_s}/s); pyramid off: ${r.ingest_off_s} s (${r.ingest_off_per_s}/s)`,
    `full rebuild: ${r.build_s} s for ${countOf(r.nodes.day, "day")}, ${countOf(r.nodes.week, "week")}, ${countOf(r.nodes.month, "month")}`,
    `a write of ${countOf(r.refresh_turns, "new turn")} with its refresh: ${r.refresh_s} s (${countOf(r.refresh_windows, "window")} recomputed)`,
  ].join("\n");
}

export function formatTopicBench(r: TopicBenchReport): string {
  const p = (x: { p50: number; p95: number; p99: number }) => `${x.p50.toFixed(2)} / ${x.p95.toFixed(2)} / ${x.p99.toFixed(2)}`;
  return [
    `${countOf(r.memories, "memory")} over ${countOf(r.topics, "topic")}; --under ${r.under} holds ${(r.under_share * 100).toFixed(1)}%; ${countOf(r.queries, "query")} each way, taking turns`,
    "",
    "| measured | p50 / p95 / p99 ms |\n|---|---|",
    `| fused query | ${p(r.fused_ms)} |`,
    `| fused query --under ${r.under} | ${p(r.fused_under_ms)} |`,
    `| whole tree with counts | ${p(r.tree_listing_ms)} |`,
    "",
    `--under adds ${r.under_added_p95_ms} ms to the fused p95.`,
  ].join("\n");
}

export function formatFilterBench(r: FilterBenchReport): string {
  const p = (x: { p50: number; p95: number; p99: number }) => `${x.p50.toFixed(2)} / ${x.p95.toFixed(2)} / ${x.p99.toFixed(2)}`;
  return [
    `${countOf(r.memories, "memory")}; ${countOf(r.queries, "query")} per configuration, taking turns`,
    "",
    "| filter | share of memories | fused p50 / p95 / p99 ms | p95 added | hits per query |\n|---|---:|---|---:|---:|",
    `| none | 100% | ${p(r.fused_ms)} | | |`,
    ...r.filtered.map((f) => `| \`${f.filter}\` | ${(f.share * 100).toFixed(1)}% | ${p(f.fused_ms)} | ${f.added_p95_ms} | ${f.hits_per_query} |`),
  ].join("\n");
}
