/**
 * @module query/current-attribute
 * "Where do I work now?", "what's my diet these days?", "which editor do I use?": a question about the present value
 * of a standing attribute (graph/attributes) is answered by the latest statement of that attribute. The channels
 * rank by the question's words ("work" finds "my Pixel screen's cracked, works fine tho"); the statement that gives
 * the value may share none of them ("I start at Kestrel Labs on Monday"). The latest memory in the search's scope
 * that states a value of the asked attribute, and whose statement of it no later memory revised, is put first (and
 * brought in if no channel found it), with the reason on it. Any other question, a question about the past, and a
 * store that never stated the attribute move nothing.
 */
import { attributeSearchWords, possessedAttribute, voiceOf } from "../graph/attributes.js";
import { roleAsked, standingValues } from "../graph/slots.js";
import type { GraphTime } from "../model/graph.js";
import type { SearchFilter } from "../model/types.js";
import type { Store } from "../ports/store.js";
import { stillStands } from "../graph/status.js";
import { readReached } from "./reached.js";
import type { Annotated } from "./supersession.js";
import { raiseAbove } from "./raise.js";

/** Questions that name an attribute, with the attribute they ask for. */
const ASKED: [RegExp, string][] = [
  [/\bwhere do (?:i|you) work\b|\bwho do (?:i|you) work for\b|\b(?:my|your) (?:employer|company|job)\b|\bwhere(?:'s|’s| is) (?:my|your) (?:job|work)\b/i, "employer"],
  [/\bdiet\b|\bdo (?:i|you) eat (?:meat|fish)\b/i, "diet"],
  [/\b(?:get(?:ting)?|go(?:ing)?|travel(?:l?ing)?|com(?:e|ing)) (?:in )?to (?:work|the office|school|college|uni|campus|town)\b|\bcommute\b/i, "commute"],
  [/\b(?:code )?editor\b|\bIDE\b/, "code editor"],
  [/\bphone\b(?!\s+(?:contract|plan|bill|number|network|provider|carrier|tariff|deal))/i, "phone"],
  [/\blaptop\b/i, "laptop"],
  [/\boffice\b/i, "office"],
  [/\bwhat hours\b|\b(?:my|your) (?:work(?:ing)? )?(?:hours|shifts?)\b|\bwhat shifts?\b|\bwhen (?:do|am) (?:i|you) (?:work|working|on shift)\b/i, "working hours"],
];

/** Words that put a question in the past ("what was my diet before?", "where did I work in 2020?"). */
const PAST = /\b(?:did|was|were|had|used to|before|originally|previous(?:ly)?|formerly|first|back then|last year|ever)\b/i;
/** The one asking: an attribute asked about is theirs. */
const SELF = /\b(?:I|I'm|I’m|my|me|mine)\b/i;
/** A question, not a statement or a command. */
const QUESTION = /^\s*(?:what|which|who|where|how|when)\b|\?\s*$/i;

/** The attribute a question asks the present value of, or null. */
export function attributeAsked(question: string): string | null {
  // the asker's own attribute: "what is Gina's favourite style of dance?" asks for hers, whom the speaker may not be
  if (!QUESTION.test(question) || PAST.test(question) || !SELF.test(question)) return null;
  const favourite = /\bfavou?rite\s+([a-z]+)\b/i.exec(question);
  if (favourite) return `favourite ${favourite[1].toLowerCase()}`;
  for (const [pattern, attribute] of ASKED) if (pattern.test(question)) return attribute;
  return roleAsked(question) ?? possessedAttribute(question);
}

/** Memories whose attribute statements are read: the head of the ranking and the store's memories with its words. */
const HEAD = 30;
const SEARCHED = 30;

export async function currentAttributeFirst(
  store: Store,
  question: string,
  ranked: Annotated[],
  filter: SearchFilter,
  time: GraphTime,
  admissible: (memoryIds: string[]) => Promise<Set<string>>,
): Promise<Annotated[]> {
  const attribute = ranked.length ? attributeAsked(question) : null;
  if (!attribute) return ranked;
  const found = await store.searchBody({ words: attributeSearchWords(attribute), depth: SEARCHED, filter: { ...filter, excludeKinds: [...(filter.excludeKinds ?? []), "summary"] } });
  const ids = [...new Set([...ranked.slice(0, HEAD).map((a) => a.memoryId), ...found.map((r) => r.memoryId)])];
  const memories = await store.getMemories(ids);
  // each memory's statement of the attribute, newest first
  const stating = [...memories.values()]
    .map((m) => ({ m, value: standingValues(m.text, voiceOf(m)).find((v) => v.attribute === attribute) }))
    .filter((x) => x.value)
    .sort((a, b) => Date.parse(b.m.at) - Date.parse(a.m.at) || (b.m.id < a.m.id ? -1 : 1));
  if (stating.length === 0) return ranked;
  const byId = new Map(ranked.map((a) => [a.memoryId, a]));
  const missing = stating.map((x) => x.m.id).filter((id) => !byId.has(id));
  const reached: Awaited<ReturnType<typeof readReached>> = missing.length ? await readReached(store, missing, time, admissible) : new Map();
  const words = new RegExp(`\\b(?:${attributeSearchWords(attribute).join("|")})\\b`, "i");
  for (const { m, value } of stating) {
    const known = byId.get(m.id);
    const status = known ?? reached.get(m.id);
    if (!status) continue;
    // a statement replaced (the whole memory, or the sentence giving this value) is history, not the present; the
    // memory that replaced the latest statement is the present when it stands, though it states the value in words
    // not read here ("he's taken over our team since Priya went to run the Bristol studio")
    const said = m.text.slice(value!.index, value!.index + value!.length);
    if (!stillStands(status, said)) {
      const by = status.revised.find((r) => r.statement.includes(said))?.by ?? status.supersededBy[0];
      const successor = by ? await standingSuccessor(store, by, byId, time, admissible) : null;
      if (!successor) continue;
      if (!byId.has(successor.memoryId)) ranked.push(successor);
      raiseAboveHead(ranked, successor, `replaced the latest statement of ${attribute} (${value!.value})`);
      return ranked.sort((x, y) => y.score - x.score);
    }
    const hit: Annotated = known ?? { memoryId: m.id, ranks: {}, sourcesHit: [], rrf: 0, ...reached.get(m.id)!, score: 0, adjustments: [] };
    if (!known) ranked.push(hit);
    // it goes above what was said before it, and above later memories that speak of something else; a later one
    // about the attribute may state it in words not read here ("the 19 drops me by the office"), and keeps its place
    const at = Date.parse(m.at);
    const passed = ranked.find((a) => {
      if (a === hit) return false;
      const other = memories.get(a.memoryId);
      return !other || Date.parse(other.at) < at || !words.test(other.text);
    });
    if (passed && hit.score <= passed.score) raiseAbove(hit, passed.score, `the latest statement of ${attribute} (${value!.value})`);
    return ranked.sort((x, y) => y.score - x.score);
  }
  return ranked;
}

/** The memory that replaced a statement, as a hit, when it still stands and may be shown; else null. */
async function standingSuccessor(
  store: Store,
  id: string,
  byId: Map<string, Annotated>,
  time: GraphTime,
  admissible: (memoryIds: string[]) => Promise<Set<string>>,
): Promise<Annotated | null> {
  const known = byId.get(id);
  if (known) return known.status === "superseded" ? null : known;
  const reached = (await readReached(store, [id], time, admissible)).get(id);
  if (!reached || reached.status === "superseded") return null;
  return { memoryId: id, ranks: {}, sourcesHit: [], rrf: 0, ...reached, score: 0, adjustments: [] };
}

/** Raises a hit just above the first of the ranking when it is not already first. */
function raiseAboveHead(ranked: Annotated[], hit: Annotated, reason: string): void {
  const head = ranked.filter((a) => a !== hit).reduce<Annotated | null>((best, a) => (!best || a.score > best.score ? a : best), null);
  if (head && hit.score <= head.score) raiseAbove(hit, head.score, reason);
}
