/**
 * @module surfaces/cli/format
 * Human-readable renderings of engine results for a terminal.
 */
import type { Memory, SearchResult } from "../../index.js";

const oneLine = (s: string, max: number) => {
  const flat = s.replace(/\s+/g, " ").trim();
  return flat.length > max ? flat.slice(0, max - 1) + "…" : flat;
};

export function formatSearch(r: SearchResult): string {
  if (r.hits.length === 0) return `No memories match ${JSON.stringify(r.query)}.`;
  const lines = r.hits.map((h, i) => {
    const channels = h.sources_hit.map((c) => `${c}#${h.ranks[c]}`).join(" ");
    const where = [h.at.slice(0, 10), h.topic, h.kind, h.speaker].filter(Boolean).join("  ");
    const head = h.title ? `${h.title} — ` : h.speaker ? `${h.speaker}: ` : "";
    return `${String(i + 1).padStart(2)}. ${h.score.toFixed(4)}  [${channels}]  ${where}  ${h.id}\n    ${oneLine(head + h.chunk.text, 150)}`;
  });
  const timing = Object.entries(r.channels)
    .map(([c, rep]) => `${c} ${rep!.candidates} in ${rep!.ms.toFixed(1)} ms`)
    .join(", ");
  return `${lines.join("\n")}\n(${r.took_ms.toFixed(1)} ms; ${timing})`;
}

export function formatMemory(m: Memory): string {
  const rows: [string, string | null][] = [
    ["id", m.id],
    ["kind", m.kind],
    ["at", m.at],
    ["recorded", m.recordedAt],
    ["title", m.title],
    ["description", m.description],
    ["tags", m.tags.length ? m.tags.join(", ") : null],
    ["topic", m.topic],
    ["speaker", m.speaker],
    ["role", m.role],
    ["session", m.session],
    ["chunks", String(m.chunks)],
    ["metadata", Object.keys(m.metadata).length ? JSON.stringify(m.metadata) : null],
  ];
  const head = rows.filter(([, v]) => v !== null).map(([k, v]) => `${k.padEnd(12)}${v}`);
  return `${head.join("\n")}\n\n${m.text}`;
}
