/**
 * @module query/standing
 * Standing instructions and preferences come with the requests they govern. "Always format code snippets with syntax
 * highlighting when I ask about implementation details" or "I prefer minimal dependencies" was said once, weeks
 * before "could you show me how to implement a login feature?", and shares a word or none with it: the channels,
 * which rank by what a text is about, do not bring it up. For a request (someone asking for help, advice or a
 * suggestion, not recalling a fact), the memories of the searched scope that state an instruction or a preference
 * are looked up by their wording ("always", "never", "prefer", "from now on", …) and the ones sharing most of the
 * request's words (at least one) are put among the first hits, with the reason on them. A question that recalls
 * ("what did I say about…", "when did I…") or asks for coverage moves nothing.
 */
import type { SearchFilter } from "../model/types.js";
import type { Store } from "../ports/store.js";
import { sentencesOf } from "../text/sentences.js";
import { bringIn } from "./bring-in.js";
import { asksForCoverage } from "./coverage.js";
import { stems } from "./later-values.js";
import type { Annotated } from "./supersession.js";
import type { GraphTime } from "../model/graph.js";

/** A request for help, advice or a suggestion. */
const REQUEST = /\b(?:could you|can you|would you|will you|please|how (?:do|can|should|would) (?:i|we)|what (?:would|should|do|could) you (?:suggest|recommend|advise)|what (?:steps|libraries|tools|approach)\b|help me|show me|give me|walk me through|suggest|recommend|explain|any (?:tips|advice|ideas))\b/i;
/** A question that recalls what was said or done, which a standing instruction does not answer. */
const RECALLS = /\b(?:did (?:i|you|we)|have (?:i|you|we) (?:ever|already)|what (?:was|were)|when (?:was|were|did)|earlier|previously|before|mention(?:ed)?|remind me what|in what order|which order)\b/i;

/** A sentence that states how someone wants things done from now on. */
const STANDING = /\b(?:always|never|from now on|whenever (?:i|you)|every time (?:i|you)|each time (?:i|you)|make sure (?:to|you)|i(?:'d| would)? prefer|i like it when|i(?:'d| would) rather|please (?:always|don't|do not|keep|use|include|avoid|stick to)|don't ever|do not ever)\b/i;
/** A sentence that asks: its "always" tells a habit ("how can I show I take projects apart, like I always do"). */
const ASKING = /\?\s*$|\b(?:how|what|which|where|when|why) (?:can|could|do|does|should|would|will|is|are) (?:i|we|you)\b|\b(?:can|could|would) you\b/i;
/** The words a standing sentence is looked up by (their stems are what the body index holds). */
const STANDING_WORDS = ["always", "never", "prefer", "preference", "whenever", "rather", "sure"];

/** How many standing memories a request brings; where the first of them is put among the hits. */
const BROUGHT = 2;
const AT = 3;
/** How many memories holding a standing word are read. */
const DEPTH = 200;

export const asksForHelp = (query: string): boolean => REQUEST.test(query) && !RECALLS.test(query) && asksForCoverage(query) === null;

export async function standingFirst(
  store: Store,
  query: string,
  ranked: Annotated[],
  filter: SearchFilter,
  time: GraphTime,
  admissible: (memoryIds: string[]) => Promise<Set<string>>,
): Promise<Annotated[]> {
  if (ranked.length < AT || !asksForHelp(query)) return ranked;
  const asked = stems(query);
  if (asked.size === 0) return ranked;
  const found = await store.searchBody({ words: STANDING_WORDS, depth: DEPTH, filter });
  if (found.length === 0) return ranked;
  const chunks = await store.hydrate([...new Set(found.map((r) => r.chunkId))]);
  const shared = new Map<string, { n: number; at: number }>();
  for (const c of chunks.values()) {
    // the assistant's advice ("make sure to …") is not how the user wants things done
    if (c.memory.kind === "summary" || c.memory.role === "assistant") continue;
    for (const sentence of sentencesOf(c.text)) {
      if (!STANDING.test(sentence) || ASKING.test(sentence)) continue;
      const n = [...stems(sentence)].filter((w) => asked.has(w)).length;
      if (n > (shared.get(c.memory.id)?.n ?? 0)) shared.set(c.memory.id, { n, at: Date.parse(c.memory.at) });
    }
  }
  const chosen = [...shared].sort(([, a], [, b]) => b.n - a.n || b.at - a.at).slice(0, BROUGHT).map(([id]) => id);
  if (chosen.length === 0) return ranked;
  const byId = await bringIn(store, ranked, chosen, time, admissible);
  const floor = ranked[AT - 1].score;
  let moved = false;
  for (const [i, id] of chosen.entries()) {
    const a = byId.get(id);
    if (!a || a.status === "superseded" || a.score > floor) continue;
    const delta = floor - a.score + Number.EPSILON * Math.max(1, floor) * 4 * (chosen.length - i);
    a.score += delta;
    a.adjustments.push({ reason: "a standing instruction or preference for requests like this one", delta });
    moved = true;
  }
  return moved ? ranked.sort((x, y) => y.score - x.score) : ranked;
}
