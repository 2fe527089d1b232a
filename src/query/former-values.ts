/**
 * @module query/former-values
 * "What was my old number?", "who was my doctor before the switch?", "where was the party originally going to
 * be?": a question about a former value is answered by the memory a later one replaced. Search demotes a superseded
 * memory and raises the memory that replaced it (query/supersession), which is right for every other question and
 * backwards for this one. So for a question that asks for a former value, the first hits that were replaced (whole,
 * or in a statement holding the question's words) are put above the others, in their order, with the reason on them:
 * the memory that replaced them and any that restate the new value come after. Without an edge there is no former
 * value to put first, and nothing moves.
 */
import { askedStems, stems } from "./later-values.js";
import type { Annotated } from "./supersession.js";

/** A question about what something was before it changed (not "what did I do", which asks about an event). */
const FORMER = /\b(?:old|previous(?:ly)?|former(?:ly)?|originally|used to|back then|prior|before (?:I|we|the|my|our|it|they|he|she|you|that|this))\b/i;
const QUESTION = /^\s*(?:what|which|who|where|how|when)\b|\?\s*$/i;

export const asksForFormerValue = (question: string): boolean => QUESTION.test(question) && FORMER.test(question);

/** How many of the first hits are looked at. */
const HEAD = 10;

export function formerValuesFirst(question: string, ranked: Annotated[]): Annotated[] {
  if (ranked.length < 2 || !asksForFormerValue(question)) return ranked;
  const asked = askedStems(question);
  const holds = (text: string) => [...stems(text)].some((w) => asked.has(w));
  const head = ranked.slice(0, HEAD);
  // a hit one of whose statements was replaced counts when that statement holds a word of the question
  const replaced = head.filter((a) => (a.status === "superseded" && a.supersededBy.length > 0) || a.revised.some((r) => holds(r.statement)));
  if (replaced.length === 0 || replaced[0] === head[0]) return ranked;
  // above the first hit, in their order: the current value and whatever restates it come after
  const top = head[0].score;
  for (const [i, old] of replaced.entries()) {
    const delta = top - old.score + Number.EPSILON * Math.max(1, top) * 4 * (replaced.length - i);
    old.score += delta;
    old.adjustments.push({ reason: `a former value, which a question about the past asks for (replaced by ${(old.status === "superseded" ? old.supersededBy : old.revised.map((r) => r.by)).join(", ")})`, delta });
  }
  return ranked.sort((a, b) => b.score - a.score);
}
