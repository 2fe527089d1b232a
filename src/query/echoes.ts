/**
 * @module query/echoes
 * A reply found through the turn it answers ranks below that turn. Each turn is indexed with the turn before it
 * (ingest/context), so an assistant's "Lovely to meet you. All saved, anything else?" after a user's long
 * introduction matches every question the introduction answers, and with the share of its neighbours' scores
 * (query/neighbours) it can outrank the introduction itself. Among the first hits, an assistant turn whose own text
 * holds none of the question's words, right after a turn of its session that holds some and is a hit too, is moved
 * just below that turn, with the reason on it. So is a reply whose words of the question and values all come from
 * that turn ("I've saved your work pattern, gym and phone details, plus your mum's visit from 14 March" after the
 * introduction that gave them), unless the question asks what the assistant did. A reply with a word of the question
 * or a value of its own ("Booked: Dishoom, Saturday 7pm" for "where is dinner booked on Saturday?") answers for
 * itself and stays where it is.
 */
import type { Store } from "../ports/store.js";
import { askedStems, stems, valuesIn } from "./later-values.js";
import { asksWhatTheAssistantDid } from "./speakers.js";
import type { Annotated } from "./supersession.js";

/** How many of the first hits are looked at: an echo further down misleads no one. */
const HEAD = 10;

export async function echoesBelowSources(store: Pick<Store, "hydrate" | "sessionNeighbours">, question: string, ranked: Annotated[]): Promise<Annotated[]> {
  const asked = askedStems(question);
  if (ranked.length < 2 || asked.size === 0) return ranked;
  const head = ranked.slice(0, HEAD);
  const chunks = await store.hydrate(head.map((a) => a.chunkId));
  const held = (a: Annotated) => [...stems(chunks.get(a.chunkId)?.memory.text ?? "")].filter((w) => asked.has(w));
  const holds = (a: Annotated) => held(a).length > 0;
  const valuesOf = (a: Annotated) => [...valuesIn(chunks.get(a.chunkId)?.memory.text ?? "")].flatMap(([kind, values]) => [...values].map((v) => `${kind} ${v}`));
  // a question about what the assistant did is answered by its replies, whatever the turn before them said
  const aboutReplies = asksWhatTheAssistantDid(question);
  const echoes = head.filter((a) => chunks.get(a.chunkId)?.memory.role === "assistant" && (!aboutReplies || !holds(a)));
  if (echoes.length === 0) return ranked;
  const before = await store.sessionNeighbours(echoes.map((a) => a.memoryId), 1);
  const byMemory = new Map(head.map((a) => [a.memoryId, a]));
  let moved = false;
  for (const echo of echoes) {
    const source = byMemory.get(before.get(echo.memoryId)?.before[0] ?? "");
    if (!source || source.score > echo.score || !holds(source)) continue;
    // a reply that repeats some of the question's words its source said, and no value the source did not give
    // ("I've saved your work pattern, home, commute… plus your mum's visit from 14 March" after the introduction
    // that gave them), adds nothing to it; one word or value more ("Noted: … from 13 March" after "from
    // tomorrow") answers for itself
    const own = held(echo);
    if (own.length && (!own.every((w) => held(source).includes(w)) || !valuesOf(echo).every((v) => valuesOf(source).includes(v)))) continue;
    const delta = source.score - echo.score - Number.EPSILON * Math.max(1, source.score) * 4;
    echo.score += delta;
    echo.adjustments.push({ reason: `an echo of ${source.memoryId}, the turn before it, which holds the question's words`, delta });
    moved = true;
  }
  return moved ? ranked.sort((a, b) => b.score - a.score) : ranked;
}
