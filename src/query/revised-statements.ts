/**
 * @module query/revised-statements
 * The present first when one statement of a message changed. A message that says many things ("I live at 14 Alder
 * Street… I'm a product designer at Brightline… I'm vegetarian") stays current when one of them is revised: the
 * edge names that statement (graph/status: the memory is partly current). Such a message still matches "where do I
 * live?" best, since it says "live" and the new address may not ("KEYS!!! 3 Canal Wharf, Flat 6"). When a question
 * asks what something is now, and the statement of a hit that answers it (the one holding most of the question's
 * words) is one a later memory revised, that later memory is raised just above the hit, brought in if no channel
 * found it, with the reason on it. A question about anything else the message says ("am I vegetarian?") finds
 * another sentence answering it, and nothing moves; a question about the past ("what was my address before?")
 * moves nothing either.
 */
import { currentSuccessors } from "../graph/status.js";
import type { GraphTime } from "../model/graph.js";
import type { Store } from "../ports/store.js";
import { FRAGMENT_SENTENCES, sentencesOf } from "../text/sentences.js";
import { askedStems, asksForCurrentValue, held } from "./later-values.js";
import { bringIn } from "./bring-in.js";
import type { Annotated } from "./supersession.js";
import { raiseAbove } from "./raise.js";

/** How many of the head's partly current hits are looked at: the revised one must be near the top to matter. */
const HEAD = 10;

/**
 * A statement with the fragment before it in a short message, when that fragment gives no value of its own: chat
 * names a thing in one fragment and gives its value in the next ("OMG Leah and Sam set a date!! 12 June 2027."), and
 * the edge names the one with the value. A sentence that gives a value is a statement of its own ("My sister's
 * birthday is 2 June. Rent is £900.": the rent does not answer for the birthday).
 */
function withFragment(sentences: string[], statement: string): string {
  const i = sentences.findIndex((s) => s.includes(statement) || statement.includes(s.trim()));
  const before = sentences[i - 1];
  return sentences.length <= FRAGMENT_SENTENCES && before !== undefined && !/\d/.test(before) ? `${before} ${statement}` : statement;
}

export async function raiseRevisedStatements(
  store: Store,
  question: string,
  ranked: Annotated[],
  time: GraphTime,
  admissible: (memoryIds: string[]) => Promise<Set<string>>,
): Promise<Annotated[]> {
  if (!asksForCurrentValue(question)) return ranked;
  const partly = ranked.slice(0, HEAD).filter((a) => a.status === "current" && a.revised.length > 0);
  if (partly.length === 0) return ranked;
  const asked = askedStems(question);
  if (asked.size === 0) return ranked;
  const chunks = await store.hydrate(partly.map((a) => a.chunkId));
  // the revised statement's successor for each hit whose answering statement was revised
  const raise = new Map<string, Annotated>();
  for (const a of partly) {
    const text = chunks.get(a.chunkId)?.text;
    if (!text) continue;
    const sentences = sentencesOf(text);
    const best = Math.max(1, ...sentences.map((s) => held(s, asked)));
    // the newest revision of the statement that answers (supersededBy and revised are newest first)
    const answering = a.revised.find((r) => text.includes(r.statement) && held(withFragment(sentences, r.statement), asked) >= best);
    if (answering && !raise.has(answering.by)) raise.set(answering.by, a);
  }
  if (raise.size === 0) return ranked;
  // a successor replaced whole since stands for it in turn
  const later = await currentSuccessors(store, [...raise.keys()], time);
  const present = new Map([...raise].map(([by, hit]) => [later.get(by) ?? by, hit]));
  const byId = await bringIn(store, ranked, [...present.keys()], time, admissible);
  let moved = false;
  for (const [id, hit] of present) {
    const a = byId.get(id);
    if (!a || a.status === "superseded" || a.score > hit.score) continue;
    raiseAbove(a, hit.score, `revises the statement of ${hit.memoryId} that answers the question`);
    moved = true;
  }
  return moved ? ranked.sort((x, y) => y.score - x.score) : ranked;
}
