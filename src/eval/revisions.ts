/**
 * @module eval/revisions
 * Scores a revision judge on labelled pairs (JSONL, one `{older, newer, revises, kind}` a line): precision and
 * recall of the edges it would add (confidence at or above the edge threshold) and of everything it would
 * detect (edges and suggestions), per set and per kind, with every wrong verdict and its reason.
 *
 *   cascade eval revisions test/fixtures/revisions-a.jsonl test/fixtures/revisions-b.jsonl
 */
import { readFileSync } from "node:fs";
import { basename } from "node:path";
import { z } from "zod";
import { resolveEngineConfig, type EngineConfig } from "../api/engine-config.js";
import { CascadeError } from "../errors.js";
import type { DetectionOptions } from "../graph/detect.js";
import type { RevisionJudge } from "../ports/judge.js";

export interface LabelledPair {
  older: string;
  newer: string;
  /** True when `newer` replaces what `older` says. */
  revises: boolean;
  /** What the pair tests: "reschedule", "cancellation"… for revisions, "question", "other-person"… for the rest. */
  kind: string;
}

const pairSchema = z.object({ older: z.string().min(1), newer: z.string().min(1), revises: z.boolean(), kind: z.string().min(1) }).strict();

/** One file's pairs; a bad line is one error naming the file, the line and the field. */
export function loadRevisionPairs(path: string): LabelledPair[] {
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch {
    throw new CascadeError("INVALID_INPUT", `eval: cannot read ${path}`, { field: "path" });
  }
  return text.split("\n").flatMap((line, i) => {
    if (!line.trim()) return [];
    let json: unknown;
    try {
      json = JSON.parse(line);
    } catch {
      throw new CascadeError("INVALID_INPUT", `eval: ${path} line ${i + 1} is not valid JSON`, { field: "path" });
    }
    const parsed = pairSchema.safeParse(json);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      throw new CascadeError("INVALID_INPUT", `eval: ${path} line ${i + 1}: ${issue.path.join(".") || "pair"}: ${issue.message}`, { field: "path" });
    }
    return [parsed.data];
  });
}

export interface PrecisionRecall {
  precision: number;
  recall: number;
  found: number;
  missed: number;
  false: number;
}

export interface KindScore {
  kind: string;
  revises: boolean;
  pairs: number;
  edges: number;
  suggestions: number;
}

export interface JudgedPair extends LabelledPair {
  confidence: number;
  reason: string;
}

export interface RevisionSetScore {
  set: string;
  pairs: number;
  /** Judged a revision with confidence ≥ the edge threshold: what detection links without asking. */
  edges: PrecisionRecall;
  /** Judged a revision with confidence ≥ the suggestion threshold: edges and suggestions. */
  detected: PrecisionRecall;
  kinds: KindScore[];
  /** Revisions left below the edge threshold and non-revisions at or above the suggestion threshold. */
  wrong: JudgedPair[];
}

export interface RevisionEvalReport {
  judge: string;
  edge_threshold: number;
  suggest_threshold: number;
  sets: RevisionSetScore[];
}

function precisionRecall(judged: JudgedPair[], threshold: number): PrecisionRecall {
  const found = judged.filter((p) => p.revises && p.confidence >= threshold).length;
  const missed = judged.filter((p) => p.revises && p.confidence < threshold).length;
  const wrong = judged.filter((p) => !p.revises && p.confidence >= threshold).length;
  const round = (x: number) => Math.round(x * 1000) / 1000;
  return { precision: round(found / Math.max(1, found + wrong)), recall: round(found / Math.max(1, found + missed)), found, missed, false: wrong };
}

export async function scoreRevisionSet(
  set: string,
  pairs: LabelledPair[],
  judge: RevisionJudge,
  thresholds: Pick<DetectionOptions, "edgeThreshold" | "suggestThreshold">,
): Promise<RevisionSetScore> {
  const at = "2026-01-01T00:00:00Z"; // the pairs carry no time: the judge reads the words only
  const judged: JudgedPair[] = [];
  for (const p of pairs) judged.push({ ...p, ...(await judge.judge({ text: p.older, at }, { text: p.newer, at })) });
  const kinds = new Map<string, KindScore>();
  for (const p of judged) {
    const k = kinds.get(p.kind) ?? { kind: p.kind, revises: p.revises, pairs: 0, edges: 0, suggestions: 0 };
    k.pairs++;
    if (p.confidence >= thresholds.edgeThreshold) k.edges++;
    else if (p.confidence >= thresholds.suggestThreshold) k.suggestions++;
    kinds.set(p.kind, k);
  }
  return {
    set,
    pairs: pairs.length,
    edges: precisionRecall(judged, thresholds.edgeThreshold),
    detected: precisionRecall(judged, thresholds.suggestThreshold),
    kinds: [...kinds.values()],
    wrong: judged.filter((p) => (p.revises ? p.confidence < thresholds.edgeThreshold : p.confidence >= thresholds.suggestThreshold)),
  };
}

/** Scores each file with the judge and thresholds `config` resolves to (by default the offline cue judge). */
export async function evaluateRevisions(paths: string[], config: EngineConfig = {}): Promise<RevisionEvalReport> {
  const { judge, detection: thresholds } = resolveEngineConfig(config);
  const sets: RevisionSetScore[] = [];
  for (const path of paths) sets.push(await scoreRevisionSet(basename(path, ".jsonl"), loadRevisionPairs(path), judge, thresholds));
  return { judge: judge.id, edge_threshold: thresholds.edgeThreshold, suggest_threshold: thresholds.suggestThreshold, sets };
}

const pct = (x: number) => (x * 100).toFixed(1);

/** The report for a person: each set's figures, each kind's share judged right, then what went wrong and why. */
export function formatRevisionEval(r: RevisionEvalReport): string {
  const lines = [`revision judge ${r.judge}: edge at confidence ≥ ${r.edge_threshold}, suggestion at ≥ ${r.suggest_threshold}`];
  for (const s of r.sets) {
    lines.push(
      "",
      `${s.set} (${s.pairs} pairs)`,
      `  edges:       precision ${pct(s.edges.precision)}%  recall ${pct(s.edges.recall)}%  (${s.edges.found} found, ${s.edges.missed} missed, ${s.edges.false} false)`,
      `  +suggestions: precision ${pct(s.detected.precision)}%  recall ${pct(s.detected.recall)}%  (${s.detected.found} found, ${s.detected.missed} missed, ${s.detected.false} false)`,
    );
    for (const k of s.kinds) {
      const right = k.revises ? k.edges : k.pairs - k.edges - k.suggestions;
      const label = k.revises ? "linked" : "left alone";
      lines.push(`    ${k.kind.padEnd(14)} ${String(k.pairs).padStart(3)} ${k.revises ? "revisions" : "others   "}  ${label} ${right}/${k.pairs}, suggested ${k.suggestions}`);
    }
    for (const w of s.wrong) lines.push(`  ${w.revises ? "missed" : "false "} [${w.kind}] ${w.confidence.toFixed(2)} "${w.newer}" (${w.reason})`);
  }
  return lines.join("\n");
}
