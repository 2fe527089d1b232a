/**
 * @module graph/history
 * A memory's supersession chain: every predecessor and successor reachable through `supersedes` edges that
 * have not been retracted, oldest to newest, with every edge touching the chain (retracted ones included, so
 * the history can be replayed).
 */
import type { Edge, GraphTime } from "../model/graph.js";
import type { Memory } from "../model/types.js";
import type { Store } from "../ports/store.js";
import { edgeCounts, replacesWhole } from "./status.js";

export interface ChainLink {
  memory: Memory;
  status: "current" | "superseded";
  validFrom: number;
  validTo: number | null;
}

export interface History {
  chain: ChainLink[];
  edges: Edge[];
}

export async function historyOf(store: Store, id: string, t: GraphTime): Promise<History> {
  const members = new Set([id]);
  const edges = new Map<string, Edge>();
  let frontier = [id];
  while (frontier.length > 0) {
    const next: string[] = [];
    for (const e of await store.edgesTouching(frontier, "supersedes")) {
      edges.set(e.id, e);
      if (e.retractedAt !== null) continue;
      for (const m of [e.from, e.to]) {
        if (!members.has(m)) {
          members.add(m);
          next.push(m);
        }
      }
    }
    frontier = next;
  }
  const all = [...edges.values()];
  const chain: ChainLink[] = [];
  for (const m of members) {
    const memory = await store.getMemory(m);
    // what Cascade had not recorded by knownAt is not part of what it knew
    if (!memory || Date.parse(memory.recordedAt) > t.knownAt) continue;
    const into = all.filter((e) => e.to === m && e.retractedAt === null);
    const validFrom = Date.parse(memory.at);
    const ends = into.map((e) => e.validFrom).filter((v) => v >= validFrom);
    chain.push({
      memory,
      status: into.some((e) => e.type === "supersedes" && replacesWhole(e) && edgeCounts(e, t)) ? "superseded" : "current",
      validFrom,
      validTo: ends.length ? Math.min(...ends) : null,
    });
  }
  chain.sort((a, b) => a.validFrom - b.validFrom || (a.memory.id < b.memory.id ? -1 : 1));
  return { chain, edges: all.sort((a, b) => a.validFrom - b.validFrom || a.recordedAt - b.recordedAt) };
}
