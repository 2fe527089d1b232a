/**
 * @module query/echoes
 * A reply found through the turn it answers ranks below that turn. Each turn is indexed with the turn before it
 * (ingest/context), so an assistant's "Lovely to meet you. All saved, anything else?" after a user's long
 * introduction matches every question the introduction answers, and with the share of its neighbours' scores
 * (query/neighbours) it can outrank the introduction itself. Among the first hits, an assistant turn whose own text
 * holds none of the question's words, right after a turn of its session that holds some and is a hit too, is moved
 * just below that turn, with the reason on it. A reply that holds a word of the question ("Booked: Dishoom,
 * Saturday 7pm" for "where did you book dinner on Saturday?") answers for itself and stays where it is.
 */
import type { Store } from "../ports/store.js";
import { askedStems, stems } from "./later-values.js";
import type { Annotated } from "./supersession.js";

/** How many of the first hits are looked at: an echo further down misleads no one. */
const HEAD = 10;

export async function echoesBelowSources(store: Pick<Store, "hydrate" | "sessionNeighbours">, question: string, ranked: Annotated[]): Promise<Annotated[]> {
  const asked = askedStems(question);
  if (ranked.length < 2 || asked.size === 0) return ranked;
  const head = ranked.slice(0, HEAD);
  const chunks = await store.hydrate(head.map((a) => a.chunkId));
  const holds = (a: Annotated) => [...stems(chunks.get(a.chunkId)?.memory.text ?? "")].some((w) => asked.has(w));
  const echoes = head.filter((a) => chunks.get(a.chunkId)?.memory.role === "assistant" && !holds(a));
  if (echoes.length === 0) return ranked;
  const before = await store.sessionNeighbours(echoes.map((a) => a.memoryId), 1);
  const byMemory = new Map(head.map((a) => [a.memoryId, a]));
  let moved = false;
  for (const echo of echoes) {
    const source = byMemory.get(before.get(echo.memoryId)?.before[0] ?? "");
    if (!source || source.score > echo.score || !holds(source)) continue;
    const delta = source.score - echo.score - Number.EPSILON * Math.max(1, source.score) * 4;
    echo.score += delta;
    echo.adjustments.push({ reason: `an echo of ${source.memoryId}, the turn before it, which holds the question's words`, delta });
    moved = true;
  }
  return moved ? ranked.sort((a, b) => b.score - a.score) : ranked;
}
