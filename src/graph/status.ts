/**
 * @module graph/status
 * Supersession status at a point in both times. An edge counts at (asOf, knownAt) when it holds in the world at
 * asOf (validFrom ≤ asOf < validTo) and Cascade knew it at knownAt (recorded by then, not yet retracted).
 * A memory is superseded when some counting `supersedes` edge for all it says points into it. An edge that names
 * one statement (a sentence of a long message) leaves the memory current for the rest: it is listed among the
 * memory's revised statements, and the memory is partly current.
 */
import type { Edge, GraphTime } from "../model/graph.js";
import type { Store } from "../ports/store.js";

export function edgeCounts(e: Edge, t: GraphTime): boolean {
  return (
    e.validFrom <= t.asOf &&
    (e.validTo === null || e.validTo > t.asOf) &&
    e.recordedAt <= t.knownAt &&
    (e.retractedAt === null || e.retractedAt > t.knownAt)
  );
}

export interface Supersession {
  status: "current" | "superseded";
  /** Memories that directly supersede this one (newest first). */
  supersededBy: string[];
  /** Memories this one directly supersedes (all they say, or one of their statements). */
  supersedes: string[];
  /** Statements of this memory that later memories replaced while the rest still stands (newest first). */
  revised: RevisedStatement[];
}

/**
 * Whether the words `said` of a memory still stand: the memory is not superseded and no revised statement of it holds
 * them (a value stated in the sentence a later memory replaced is history).
 */
export const stillStands = (s: Supersession, said: string): boolean => s.status !== "superseded" && !s.revised.some((r) => r.statement.includes(said));

export interface RevisedStatement {
  statement: string;
  by: string;
}

/** Whether an edge replaces all its older memory says (rather than one statement of it). */
export const replacesWhole = (e: Edge): boolean => e.statement === null;

/** Status of each memory from the `supersedes` edges touching them. */
export function supersessionOf(memoryIds: string[], edges: Edge[], t: GraphTime): Map<string, Supersession> {
  const out = new Map<string, Supersession>(memoryIds.map((id) => [id, { status: "current", supersededBy: [], supersedes: [], revised: [] }]));
  const counting = edges.filter((e) => e.type === "supersedes" && edgeCounts(e, t)).sort((a, b) => b.validFrom - a.validFrom);
  for (const e of counting) {
    const older = out.get(e.to);
    if (older && !replacesWhole(e)) {
      if (!older.revised.some((r) => r.statement === e.statement && r.by === e.from)) older.revised.push({ statement: e.statement!, by: e.from });
    } else if (older && !older.supersededBy.includes(e.from)) {
      older.supersededBy.push(e.from);
      older.status = "superseded";
    }
    const newer = out.get(e.from);
    if (newer && !newer.supersedes.includes(e.to)) newer.supersedes.push(e.to);
  }
  return out;
}

/**
 * The memory that currently stands for each of `ids` at t: follow "superseded by" edges (the newest at each
 * step) until a memory that nothing supersedes. One edge query per chain level for all ids together; `known`,
 * when given, must be the edges touching every one of `ids` (the caller has usually fetched them already).
 * Ids that are themselves current map to nothing.
 */
export async function currentSuccessors(store: Store, ids: string[], t: GraphTime, known?: Edge[]): Promise<Map<string, string>> {
  const newestInto = (edges: Edge[]) => {
    const into = new Map<string, Edge>();
    for (const e of edges) {
      if (e.type !== "supersedes" || !replacesWhole(e) || !edgeCounts(e, t)) continue;
      const best = into.get(e.to);
      if (!best || e.validFrom > best.validFrom || (e.validFrom === best.validFrom && e.recordedAt > best.recordedAt)) into.set(e.to, e);
    }
    return into;
  };
  const result = new Map<string, string>();
  // at[id] = where the walk from id has got to
  const at = new Map(ids.map((id) => [id, id]));
  const seen = new Map(ids.map((id) => [id, new Set([id])]));
  let edges = known ?? (await store.edgesTouching(ids, "supersedes"));
  let frontier = ids;
  while (frontier.length > 0) {
    const into = newestInto(edges);
    const next: string[] = [];
    for (const id of frontier) {
      const e = into.get(at.get(id)!);
      if (!e || seen.get(id)!.has(e.from)) continue;
      seen.get(id)!.add(e.from);
      at.set(id, e.from);
      result.set(id, e.from);
      next.push(id);
    }
    frontier = next;
    if (frontier.length) edges = await store.edgesTouching([...new Set(frontier.map((id) => at.get(id)!))], "supersedes");
  }
  return result;
}
