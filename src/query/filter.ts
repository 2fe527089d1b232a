/**
 * @module query/filter
 * The search filter evaluated on one memory in memory (the backends evaluate it in their own query language).
 */
import type { Memory, SearchFilter } from "../model/types.js";
import { sameScope } from "../model/scope.js";
import type { Store } from "../ports/store.js";
import { conditionHolds } from "./where.js";

export function memoryPassesFilter(m: Memory, f: SearchFilter): boolean {
  const at = Date.parse(m.at);
  if (f.since !== undefined && at < f.since) return false;
  if (f.until !== undefined && at >= f.until) return false;
  if (f.kinds && f.kinds.length > 0 && !f.kinds.includes(m.kind)) return false;
  if (f.excludeKinds?.includes(m.kind)) return false;
  if (f.under !== undefined && !(m.topic === f.under || m.topic?.startsWith(`${f.under}.`))) return false;
  if (f.topics !== undefined && (m.topic === null || !f.topics.includes(m.topic))) return false;
  if (f.recordedBy !== undefined && Date.parse(m.recordedAt) > f.recordedBy) return false;
  if (f.where && !f.where.every((c) => conditionHolds(m, c))) return false;
  if (f.scope && !sameScope(m, f.scope)) return false;
  if (f.liveAt !== undefined && m.expires !== null && Date.parse(m.expires) <= f.liveAt) return false;
  if (f.expiredBy !== undefined && (m.expires === null || Date.parse(m.expires) > f.expiredBy)) return false;
  return true;
}

/** The memories (of those given) that exist and pass the filter. */
export async function memoriesPassing(store: Store, ids: Iterable<string>, f: SearchFilter): Promise<Set<string>> {
  const found = await store.getMemories([...ids]);
  return new Set([...found].filter(([, m]) => memoryPassesFilter(m, f)).map(([id]) => id));
}
