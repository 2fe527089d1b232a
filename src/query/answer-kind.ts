/**
 * @module query/answer-kind
 * A question that asks for a kind of value ("what dose …", "when is …", "how much does … cost") is answered by a
 * memory that gives one. Lexical channels favour a short memory holding the question's words ("Done — daily
 * reminder at 8:00: sertraline." for "what dose of sertraline am I on?") over the one that states the dose. Among
 * the first few hits, those that give a value of the asked kind in a sentence holding the question's words rank
 * before those that give none; nothing else moves, and each move is listed with its reason. Only a question about
 * the present with a kind named moves anything (query/later-values: asksForCurrentValue, kindsAsked).
 */
import type { Store } from "../ports/store.js";
import { sentencesAndWhole, sentencesOf } from "../text/sentences.js";
import { askedStems, asksForCurrentValue, kindsAsked, stems, valuesIn } from "./later-values.js";
import type { Annotated } from "./supersession.js";
import { raiseAbove } from "./raise.js";

/** How many of the first hits are reordered: a memory further down does not answer better for giving a value. */
const HEAD = 5;

export async function answerKindFirst(store: Pick<Store, "hydrate">, question: string, ranked: Annotated[]): Promise<Annotated[]> {
  if (ranked.length < 2 || !asksForCurrentValue(question)) return ranked;
  const kinds = kindsAsked(question);
  const asked = askedStems(question);
  if (!kinds || asked.size === 0) return ranked;
  const head = ranked.slice(0, HEAD);
  const chunks = await store.hydrate(head.map((a) => a.chunkId));
  const gives = (a: Annotated): boolean => {
    // a message in fragments names the thing in one sentence and its value in the next
    return sentencesAndWhole(sentencesOf(chunks.get(a.chunkId)?.text ?? "")).some(
      (s) => [...stems(s)].some((w) => asked.has(w)) && [...valuesIn(s).keys()].some(kinds),
    );
  };
  const giving = head.map(gives);
  if (giving.every(Boolean) || !giving.some(Boolean)) return ranked;
  const order = [...head.filter((_, i) => giving[i]), ...head.filter((_, i) => !giving[i])];
  if (order.every((a, i) => a === head[i])) return ranked;
  // from the bottom up, each hit is raised just above the one now after it, when it is not already
  for (let i = order.length - 2; i >= 0; i--) {
    const [a, next] = [order[i], order[i + 1]];
    if (a.score > next.score) continue;
    raiseAbove(a, next.score, "gives the kind of value the question asks for");
  }
  return ranked.sort((x, y) => y.score - x.score);
}
