/**
 * @module query/later-mentions
 * The present first when no edge says what changed. "Which hay fever tablet am I on?" finds "hay fever season has
 * started, taking cetirizine 10mg every night", which holds the question's words; the answer, weeks later, holds
 * none of them: "cetirizine is making me a zombie. pharmacist put me on fexofenadine 180mg". What ties the two is
 * the thing the first one named ("cetirizine"), a word few memories hold, and the later one says, with a word of
 * change, that something new replaced it. Detection missed the change (the frame is one it does not read), but
 * the question supplies the slot: for a question about the present, the first hit that answers it is looked at,
 * the rare nouns of its answering sentence are searched for in memories of the same scope told after it, and the
 * latest that names one of them in a sentence with a word of change is raised just above the hit, brought in if
 * no channel found it, with the reason on it.
 *
 * Only order changes: nothing is marked superseded or written. A question about the past, an order or a span moves
 * nothing (query/later-values: asksForCurrentValue); nor does a later mention that changes nothing ("Marmalade was
 * sick on the rug again" after "we've got a tabby called Marmalade"), a question, or an assistant's advice.
 */
import type { GraphTime } from "../model/graph.js";
import { sameScope } from "../model/scope.js";
import type { SearchFilter } from "../model/types.js";
import type { Store } from "../ports/store.js";
import { parseMemory } from "../graph/revision-parse.js";
import { sentencesOf } from "../text/sentences.js";
import { distinctContentWords } from "../text/tokenize.js";
import { bringIn } from "./bring-in.js";
import { askedStems, asksForCurrentValue, held, stems } from "./later-values.js";
import type { Annotated } from "./supersession.js";
import { raiseAbove } from "./raise.js";

/** How many of the first hits are looked at for one that answers the question. */
const HEAD = 3;
/** A word held by at most this many chunks names a thing, not a topic ("cetirizine", not "work"). */
const RARE = 5;
/** Later memories read per search. */
const DEPTH = 20;

/**
 * Words that say a state changed or a new one began, in any domain: "switched", "put me on", "first day at",
 * "signed with", "from now on", "no longer". Weak ones ("now", "new") are left out: "the new prescription" and
 * "Pixel knocked the new plant over" change nothing about the pharmacy or the cat.
 */
const CHANGE = /\b(?:from now on|going forward|no longer|any ?more|instead|switch(?:ed|ing)|swap(?:ped|ping)|changed|moved|replac(?:ed|ing)|ditch(?:ed|ing)|dropped|quit|stopped|first (?:day|week)|signed (?:up )?with|join(?:ed|ing)|put (?:me|us|him|her|them) on|upgraded|cancell?ed|rebook(?:ed|ing)|ported|went back to|went with)\b/i;
/** Words that say a value held: "still one puff morning and night" confirms the inhaler, it does not change it. */
const CONTINUES = /\b(?:still|same as (?:always|before|usual)|as usual|as always|again|repeat)\b/i;

/** A question or a possibility states nothing: "should I bump everyone to $150?" */
const asking = (sentence: string): boolean => /\?\s*$/.test(sentence) || UNREAL.test(sentence);
const UNREAL = /^\W*(?:if|unless|might|could|would|should|maybe|perhaps)\b|\b(?:thinking (?:of|about)|wondering|might|maybe|perhaps)\b/i;

/**
 * An assistant's turn that reports what it did ("Rebooked you: easyJet EZY6203…", "Done, I've moved it to…") states the
 * user's new state; one that advises ("there's room to test $150 on new clients") does not.
 */
const REPORTS = /^\W*(?:done|noted|saved|booked|rebooked|updated|changed|moved|cancell?ed|switched|added|got it|all set)\b|\bI(?:'ve| have) (?:\w+ed|set|put|made)\b/i;

/** The nouns and names of a sentence, as the index holds them: what it speaks of, not what it does ("started"). */
function thingsNamed(sentence: string): string[] {
  const nouns = new Set(parseMemory(sentence).tokens.filter((t) => t.pos === "NOUN" || t.pos === "PROPN").map((t) => t.lower));
  return distinctContentWords(sentence).filter((w) => nouns.has(w) && !/\d/.test(w) && !CHANGE.test(w) && !MEASURES.has(w) && !CALENDAR.test(w));
}

/** Days and months are values, not things: "tue-fri" ties an assistant baker's shifts to a soccer practice. */
const CALENDAR = /^(?:(?:mon|tues?|wed(?:nes)?|thu(?:rs?)?|fri|sat(?:ur)?|sun)(?:day)?s?|jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sept?(?:ember)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)$/i;

/** Nouns that measure a value rather than name a thing: "£24 a month" and "£32 a month" share no thing. */
const MEASURES = new Set("second seconds minute minutes hour hours day days week weeks weekend month months year years morning mornings evening evenings night nights today tomorrow tonight time times bit lot thing things".split(" "));

/** The hit's sentence holding most of the question's words (the first, on a tie), or null when none holds one. */
function answering(text: string, asked: Set<string>): string | null {
  let best: string | null = null;
  let most = 0;
  for (const s of sentencesOf(text)) {
    const n = held(s, asked);
    if (n > most) [best, most] = [s, n];
  }
  return best;
}

export async function laterMentionsFirst(
  store: Store,
  question: string,
  ranked: Annotated[],
  filter: SearchFilter,
  time: GraphTime,
  admissible: (memoryIds: string[]) => Promise<Set<string>>,
): Promise<Annotated[]> {
  if (ranked.length === 0 || !asksForCurrentValue(question)) return ranked;
  const asked = askedStems(question);
  if (asked.size === 0) return ranked;
  const head = ranked.slice(0, HEAD).filter((a) => a.status === "current");
  const memories = await store.getMemories(head.map((a) => a.memoryId));
  // the first hit of one person's scope that answers the question
  for (const hit of head) {
    const m = memories.get(hit.memoryId);
    if (!m || m.kind === "summary" || (m.user === null && m.agent === null)) continue;
    const sentence = answering(m.text, asked);
    if (!sentence) continue;
    const words = thingsNamed(sentence).filter((w) => ![...stems(w)].some((s) => asked.has(s)));
    if (words.length === 0) return ranked;
    const { df } = await store.termStats(words);
    const rare = words.filter((w) => (df.get(w) ?? 0) > 0 && df.get(w)! <= RARE);
    if (rare.length === 0) return ranked;
    const at = Date.parse(m.at);
    const found = await store.searchBody({ words: rare, depth: DEPTH, filter: { ...filter, scope: { user: m.user, agent: m.agent }, since: at + 1, excludeKinds: [...(filter.excludeKinds ?? []), "summary"] } });
    const later = await store.getMemories([...new Set(found.map((r) => r.memoryId))].filter((id) => id !== m.id));
    const rareStems = new Set(rare.flatMap((w) => [...stems(w)]));
    // the same person's later word, or an assistant's report of what it did ("room to test $150 on new clients" is
    // advice, not a new rate); newest first: the latest change is the present
    const candidates = [...later.values()].filter((x) => Date.parse(x.at) > at && sameScope(x, m) && ((x.speaker === m.speaker && x.role === m.role) || (x.role === "assistant" && REPORTS.test(x.text)))).sort((a, b) => Date.parse(b.at) - Date.parse(a.at));
    for (const x of candidates) {
      // the sentence naming the thing says it changed
      const naming = sentencesOf(x.text).filter((s) => !asking(s) && !CONTINUES.test(s) && [...stems(s)].some((w) => rareStems.has(w)));
      if (naming.length === 0) continue;
      const change = naming.map((s) => CHANGE.exec(s)?.[0]).find(Boolean);
      if (!change) continue;
      const byId = await bringIn(store, ranked, [x.id], time, admissible);
      const raised = byId.get(x.id);
      if (!raised || raised.status !== "current") return ranked;
      if (raised.score > hit.score) return ranked;
      raiseAbove(raised, hit.score, `a later mention of what the answer names (${rare.filter((w) => naming.some((s) => s.toLowerCase().includes(w))).join(", ")}) with a word of change (${change})`);
      return ranked.sort((a, b) => b.score - a.score);
    }
    return ranked;
  }
  return ranked;
}
