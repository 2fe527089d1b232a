/**
 * @module graph/detect
 * Revision detection on ingest: for a new memory, find earlier memories it may replace (its nearest
 * neighbours that happened before it, in its scope, on the same topic when both have one), ask the judge, and
 * sort the verdicts into edges (confident), suggestions (plausible) and nothing. Scope is never crossed: Bob's
 * "no longer prefers window seats" says nothing about Alice (model/scope.ts).
 */
import type { EdgeDraft, Suggestion } from "../model/graph.js";
import { isUnscoped, sameScope, type Scope } from "../model/scope.js";
import type { RevisionJudge } from "../ports/judge.js";
import type { Ranked } from "../model/types.js";
import type { Store } from "../ports/store.js";
import { judgeStatements, type StatementVerdict } from "./statements.js";

export interface DetectionOptions {
  enabled: boolean;
  edgeThreshold: number;
  suggestThreshold: number;
  candidates: number;
}

export const defaultDetection: Readonly<DetectionOptions> = Object.freeze({
  enabled: true,
  /** At or above: the edge is added (provenance heuristic or llm). */
  edgeThreshold: 0.8,
  /** At or above (and below edgeThreshold): recorded as a suggestion for a person to accept or reject. */
  suggestThreshold: 0.5,
  /** Earlier neighbours judged per new memory. */
  candidates: 5,
});


export interface NewMemory extends Scope {
  id: string;
  text: string;
  at: string;
  topic: string | null;
  /** Who said it: only the same speaker's earlier memories (or ones without a speaker) can be revised by it. */
  speaker: string | null;
  vector: Float32Array;
}

export async function detectRevisions(
  store: Store,
  judge: RevisionJudge,
  memories: NewMemory[],
  opts: DetectionOptions,
  recordedAt: number,
): Promise<{ edges: EdgeDraft[]; suggestions: Omit<Suggestion, "id" | "status">[] }> {
  const edges: EdgeDraft[] = [];
  const suggestions: Omit<Suggestion, "id" | "status">[] = [];
  // the judge's own cheap test of a text worth judging (none: every memory is judged)
  const mayRevise = (text: string) => judge.mayRevise?.(text) ?? true;
  const judged = memories.filter((m) => mayRevise(m.text));
  if (judged.length === 0) return { edges, suggestions };
  const near = await nearestInScope(store, judged, opts.candidates * 4);
  const neighbours = judged.map((m, i) => [...new Set(near[i].map((n) => n.memoryId))].filter((id) => id !== m.id));
  const all = [...new Set(neighbours.flat())];
  // summaries restate memories; they are never beliefs to revise
  const summaries = new Set((await store.pyramidNodes({ ids: all })).map((n) => n.id));
  const times = await store.eventTimes(all.filter((id) => !summaries.has(id)));
  for (const [i, m] of judged.entries()) {
    const at = Date.parse(m.at);
    // two memories told at one instant (an import without times, a fixed --now) came in the order they were
    // written, which their ids keep (ingest/prepare.ts): the plan written first is the one the second revises
    const before = (id: string) => {
      const t = times.get(id) ?? Infinity;
      return t < at || (t === at && id < m.id);
    };
    const earlier = neighbours[i].filter((id) => !summaries.has(id) && before(id));
    let taken = 0;
    for (const id of earlier) {
      if (taken === opts.candidates) break;
      const older = await store.getMemory(id);
      // another scope's memory does not count as a candidate (an unscoped one may sit among an unscoped memory's);
      // nor does another speaker's: a person revises their own statements, so an assistant's reply never replaces
      // what the user said, nor one friend's plan another's (notes have no speaker and are compared as before)
      if (!older || !sameScope(older, m) || (older.speaker && m.speaker && older.speaker !== m.speaker)) continue;
      taken++;
      // only topics people chose keep two memories apart: an automatic placement may be wrong
      const olderTopic = older.metadata.placement ? null : older.topic;
      if (m.topic && olderTopic && m.topic !== olderTopic) continue;
      const olderJudged = { text: older.text, at: older.at };
      const newerJudged = { text: m.text, at: m.at };
      // a rule-based judge reads statements, so a long memory is judged sentence by sentence (graph/statements.ts);
      // a model reads the whole texts
      const verdict: StatementVerdict = judge.provenance === "heuristic" ? await judgeStatements(judge, olderJudged, newerJudged, mayRevise) : await judge.judge(olderJudged, newerJudged);
      if (verdict.confidence >= opts.edgeThreshold) {
        edges.push({
          type: "supersedes",
          from: m.id,
          to: id,
          validFrom: at,
          validTo: null,
          recordedAt,
          provenance: judge.provenance,
          confidence: verdict.confidence,
          reason: verdict.reason,
          statement: verdict.statement ?? null,
        });
      } else if (verdict.confidence >= opts.suggestThreshold) {
        suggestions.push({ from: m.id, to: id, confidence: verdict.confidence, reason: verdict.reason, createdAt: recordedAt });
      }
    }
  }
  return { edges, suggestions };
}

/**
 * The nearest chunks of each memory, unfiltered, then "earlier" in memory: a time-filtered scan would read every
 * older chunk. Unscoped memories are searched in one batch call, so that a store can search them on every core,
 * and other scopes' memories are skipped afterwards; a scoped memory is searched within its scope, since in a store
 * shared by many users its own earlier memories may be none of the nearest of all.
 */
async function nearestInScope(store: Store, memories: NewMemory[], depth: number): Promise<Ranked[][]> {
  const unscoped = memories.filter(isUnscoped);
  const batch = unscoped.length ? await store.nearestChunksMany({ vectors: unscoped.map((m) => m.vector), depth }) : [];
  let next = 0;
  const out: Ranked[][] = [];
  for (const m of memories) {
    out.push(isUnscoped(m) ? batch[next++] : await store.nearestChunks({ vector: m.vector, depth, filter: { scope: { user: m.user, agent: m.agent } } }));
  }
  return out;
}
