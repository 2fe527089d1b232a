/**
 * @module api/store-actions
 * The Engine's actions on the store as a whole: refusing a store built in another embedder's vector space, doctor
 * (the store's checks and the enrichment check after them) and vitals (figures for monitoring). Called by the
 * Engine, which wraps them in its span and, for doctor, waits for the pyramid first.
 */
import { CascadeError } from "../errors.js";
import type { Embedder } from "../ports/embedder.js";
import type { DoctorCheck, EmbedderStamp, Store, StoreStats } from "../ports/store.js";
import { enrichmentCheck } from "./enrichment-check.js";
import type { RetryReport } from "./write-path.js";

/** Throws EMBEDDER_MISMATCH when the store's stamp names another embedder (or size) than `embedder`. */
export function refuseOtherEmbedder(stamp: EmbedderStamp | null, embedder: Embedder): void {
  if (stamp && (stamp.id !== embedder.id || stamp.dimensions !== embedder.dimensions)) {
    throw new CascadeError(
      "EMBEDDER_MISMATCH",
      `this store was built with embedder ${stamp.id} (${stamp.dimensions}-d), not ${embedder.id} ` +
        `(${embedder.dimensions}-d): open it with the same embedder, or move it to this one with ` +
        "`cascade reembed --embedder SPEC` (reembedStore in the SDK)",
      { field: "embedder" },
    );
  }
}

/** The store's checks and the enrichment check; `retry` (repair only) runs failed enrichment again. */
export async function doctorChecks(store: Store, options: { repair?: boolean; signal?: AbortSignal }, retry: (limit: number) => Promise<RetryReport>): Promise<{ ok: boolean; checks: DoctorCheck[] }> {
  const checks = await store.doctor(Boolean(options.repair), { signal: options.signal });
  checks.push(await enrichmentCheck(store, options.repair ? retry : null));
  const ok = checks.every((c) => c.ok || c.repaired);
  return { ok, checks };
}

/** The store's counts and size, the windows waiting for a summary, and the enrichment failures waiting for repair. */
export async function vitals(store: Store): Promise<StoreStats & { dirtyWindows: number; enrichmentFailures: number }> {
  const [stats, dirty, failed] = await Promise.all([store.stats(), store.dirtyWindows(), store.enrichment.pending(0)]);
  const enrichmentFailures = Object.values(failed.byStep).reduce((sum, n) => sum + (n ?? 0), 0);
  return { ...stats, dirtyWindows: dirty.length, enrichmentFailures };
}
