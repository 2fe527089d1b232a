/**
 * @module api/enrichment-check
 * The doctor's line about failed enrichment (ports/enrichment): how many memories wait for a step, by step, and
 * the first few with why; with repair, what the retry did. A memory waiting for its entities or revision edges
 * is stored and found by search, so this check never fails the doctor: it tells a person what is missing.
 */
import type { DoctorCheck, Store } from "../ports/store.js";
import type { RetryReport } from "./write-path.js";

/** Failures retried per repair: a store whose every write failed a step catches up over several runs. */
const RETRY_LIMIT = 1000;
const SHOWN = 5;

export async function enrichmentCheck(store: Store, retry: ((limit: number) => Promise<RetryReport>) | null): Promise<DoctorCheck> {
  const done = retry ? await retry(RETRY_LIMIT) : null;
  const { byStep, first } = await store.enrichment.pending(SHOWN);
  const counts = Object.entries(byStep);
  const total = counts.reduce((n, [, c]) => n + c, 0);
  const did = done
    ? `retried ${done.tried}: ${done.cleared} done, ${done.failedAgain} failed again${done.notRetried ? `, ${done.notRetried} not retried (topic placement is not rerun on a stored memory)` : ""}; `
    : "";
  if (total === 0) return { name: "enrichment", ok: true, detail: `${did}no memory waits for an enrichment step`, ...(done?.cleared ? { repaired: true } : {}) };
  const listed = first.map((f) => `${f.memoryId} ${f.step} (${f.attempts} ${f.attempts === 1 ? "attempt" : "attempts"}): ${f.reason}`).join("; ");
  const more = total > first.length ? `; and ${total - first.length} more` : "";
  const hint = done ? "" : "; `cascade doctor --repair` retries them";
  return {
    name: "enrichment",
    ok: true,
    detail: `${did}${total} failed enrichment ${total === 1 ? "step waits" : "steps wait"} (${counts.map(([s, c]) => `${s} ${c}`).join(", ")}): ${listed}${more}${hint}`,
    ...(done?.cleared ? { repaired: true } : {}),
  };
}
