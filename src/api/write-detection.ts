/**
 * @module api/write-detection
 * Revision detection after a batch's commit (write-path.ts): what the new memories revise, judged in one go and,
 * when the judge fails on the batch, one memory at a time; the sure edges added, the unsure left as suggestions.
 * Apart from the pipeline because it is its own step: it runs on stored memories, and on a retry of failed
 * enrichment too.
 */
import { CascadeError } from "../errors.js";
import { detectRevisions } from "../graph/detect.js";
import { enrich, type EnrichmentLog } from "../ingest/enrichment.js";
import type { Edge } from "../model/graph.js";
import type { PreparedMemory } from "../model/types.js";
import type { Store } from "../ports/store.js";
import type { ResolvedEngineConfig } from "./engine-config.js";
import { isEnrichmentFailure } from "./write-failures.js";
import { pacer } from "../event-loop.js";

type DetectionConfig = Pick<ResolvedEngineConfig, "detection" | "judge">;

/**
 * Looks for what the new memories revise; returns the edges it added and whether it left suggestions. When the
 * judge fails on the batch, each memory is judged alone, so that one text it cannot read costs only its own
 * detection (a warning), never the others'.
 */
export async function detect(store: Store, config: DetectionConfig, memories: PreparedMemory[], now: number, indexes: number[], log: EnrichmentLog): Promise<{ edges: Edge[]; suggested: boolean }> {
  if (!config.detection.enabled || memories.length === 0) return { edges: [], suggested: false };
  let found: Awaited<ReturnType<typeof detectRevisions>>;
  try {
    found = await detectAll(store, config, memories, now);
  } catch (err) {
    if (!isEnrichmentFailure(err)) throw err;
    found = { edges: [], suggestions: [] };
    for (const [i, m] of memories.entries()) {
      const one = await enrich(log, indexes[i], "revisions", () => detectAll(store, config, [m], now), null);
      if (one) {
        found.edges.push(...one.edges);
        found.suggestions.push(...one.suggestions);
      }
    }
  }
  const added: Edge[] = [];
  // one transaction an edge, each with its cycle check: a batch of long memories found dozens (35-55 ms in one
  // stretch on a loaded machine), so other requests are let in every 10 ms
  const pause = pacer();
  for (const edge of found.edges) {
    await pause();
    try {
      added.push(...(await store.addEdges([edge])));
    } catch (err) {
      // a detected edge that would close a cycle (or duplicate one) is not worth failing an import for
      if (!(err instanceof CascadeError && err.isUsageError)) throw err;
    }
  }
  if (found.suggestions.length) await store.addSuggestions(found.suggestions);
  return { edges: added, suggested: found.suggestions.length > 0 };
}

function detectAll(store: Store, config: DetectionConfig, memories: PreparedMemory[], now: number): ReturnType<typeof detectRevisions> {
  return detectRevisions(
    store,
    config.judge,
    memories.map((p) => ({
      id: p.memory.id,
      text: p.memory.text,
      at: p.memory.at,
      topic: p.memory.metadata.placement ? null : p.memory.topic,
      user: p.memory.user,
      agent: p.memory.agent,
      speaker: p.memory.speaker,
      role: p.memory.role,
      session: p.memory.session,
      vector: p.chunks[0].vector,
    })),
    config.detection,
    now,
  );
}
