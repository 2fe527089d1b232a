/**
 * @module ingest/enrichment
 * Entity extraction, topic placement and revision detection enrich a memory; they are not the memory. When one
 * of them fails on a text (a rule that meets input it was never written for, a model that answers nonsense), the
 * memory is stored without that enrichment and the write's answer carries a warning naming the step and why.
 */
import { CascadeError } from "../errors.js";
import type { EnrichmentStep } from "../ports/enrichment.js";

export type { EnrichmentStep };

export interface EnrichmentWarning {
  step: EnrichmentStep;
  reason: string;
}

/** Collects the warnings of one write call, by the index of the input they concern. */
export class EnrichmentLog {
  readonly byIndex = new Map<number, EnrichmentWarning[]>();

  note(index: number, step: EnrichmentStep, err: unknown): void {
    // a Cascade error by its stable code (PROVIDER_ERROR: …), another by its kind (TypeError: …)
    const kind = err instanceof CascadeError ? err.code : err instanceof Error && err.name !== "Error" ? err.name : null;
    const reason = `${kind ? `${kind}: ` : ""}${err instanceof Error ? err.message : String(err)}`;
    const list = this.byIndex.get(index) ?? [];
    list.push({ step, reason: reason.slice(0, 300) });
    this.byIndex.set(index, list);
  }

  /** Every warning as one list, in input order. */
  list(): (EnrichmentWarning & { index: number })[] {
    return [...this.byIndex].sort(([a], [b]) => a - b).flatMap(([index, ws]) => ws.map((w) => ({ index, ...w })));
  }
}

/** Runs an optional step; when it throws, the failure is noted and `fallback` stands in for its result. */
export async function enrich<T>(log: EnrichmentLog | undefined, index: number, step: EnrichmentStep, run: () => T | Promise<T>, fallback: T): Promise<T> {
  try {
    return await run();
  } catch (err) {
    if (!log) throw err;
    log.note(index, step, err);
    return fallback;
  }
}
