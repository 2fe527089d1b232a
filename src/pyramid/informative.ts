/**
 * @module pyramid/informative
 * How much a sentence tells a later reader, judged from its surface alone (offline, deterministic, no model).
 * A summary is read in place of the turns, so a sentence that states something — an event, a decision, a plan,
 * a name, a place, a number, a date — earns its room, while a greeting, a question back or a compliment does
 * not: "Have you found any activities that make you feel the same way?" tells nothing that happened.
 *
 * The score is in [0, 1]: 0.5 for a plain statement, up for each kind of content it carries, down for questions
 * and small talk. The extractive summariser adds it to MMR's coverage term, and keeps only the most informative
 * sentences of a very large window before it embeds anything (so a day of 10,000 turns costs what 400 do).
 */

/** Words that report something happening or decided (past, planned or changed), in their common forms. */
const EVENT =
  /\b(went|go(?:ing)? to|visit(?:ed|ing)?|travel(?:l?ed|ling)?|trip|moved?|started?|began|finish(?:ed)?|complet(?:ed|e)|join(?:ed)?|left|quit|bought|sold|got|made|built|launch(?:ed)?|ship(?:ped)?|releas(?:ed|e)|deploy(?:ed)?|hired?|met|adopt(?:ed)?|married|graduat(?:ed|ing)|won|lost|ran|signed|attend(?:ed)?|volunteer(?:ed|ing)?|paint(?:ed)?|wrote|read|took|gave|received|celebrat(?:ed|e)|organi[sz](?:ed|e)|host(?:ed)?|register(?:ed)?|appl(?:ied|y)|enroll(?:ed)?|camping|hik(?:ed|ing)|concert|conference|workshop|meeting|class|course|race|marathon)\b/i;
const DECISION = /\b(decid(?:ed|e)|decision|chose|choose|agreed|switch(?:ed|ing)?|instead|replac(?:ed|e)|settled on|going with|plan(?:s|ned|ning)?|will|won't|gonna|intend|schedul(?:ed|e)|deadline|due|postpone[d]?|cancel(?:l?ed)?|approv(?:ed|e)|reject(?:ed)?|actually|no longer|from now on)\b/i;
const MONTH_OR_DAY =
  /\b(jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?|monday|tuesday|wednesday|thursday|friday|saturday|sunday|yesterday|tomorrow|tonight|last (?:week|month|year|weekend)|next (?:week|month|year|weekend)|weekend)\b/i;
const NUMBER = /\d|\b(one|two|three|four|five|six|seven|eight|nine|ten|twenty|hundred|thousand|dozen|first|second|third)\b/i;
/** Openers and phrases of small talk: greetings, thanks, praise, sympathy, sign-offs. */
const SMALL_TALK =
  /^(hi|hey|hello|yo|wow|whoa|aw+|oh|ooh|haha|lol|thanks|thank you|thx|congrats|congratulations|cool|nice|great|awesome|amazing|sounds (?:great|good|fun|awesome)|that's (?:great|awesome|amazing|so cool|cool|wonderful|fantastic|really cool|so sweet)|good (?:morning|night|luck)|take care|see you|bye|glad|so glad|i'm (?:so )?(?:glad|happy) (?:to hear|for you)|you (?:really|totally|definitely)|me too|same here|no worries|yeah|yes|ok(?:ay)?|sure|exactly|absolutely|definitely|totally|for sure)\b/i;
const SYMPATHY = /\b(sorry to hear|hang in there|you got this|keep it up|proud of you|you deserve|so inspiring|that's so|so sweet|means a lot|love that|love it|good for you)\b/i;

/** Capitalised words after the first word: names and places ("Caroline", "Boston"), minus the pronoun I. */
function properNouns(sentence: string): number {
  const words = sentence.split(/\s+/).slice(1);
  let n = 0;
  for (const w of words) if (/^[A-Z][a-z]+/.test(w) && !/^I(?:'|$)/.test(w)) n++;
  return n;
}

export interface InformativeWeights {
  event: number;
  decision: number;
  date: number;
  number: number;
  name: number;
  question: number;
  smallTalk: number;
}

export const defaultInformativeWeights: Readonly<InformativeWeights> = Object.freeze({
  event: 0.15, // something happened: the summary's main business
  decision: 0.15, // a decision or plan: what the later state is made of
  date: 0.1, // a date word dates the event for temporal questions
  number: 0.05, // counts, prices, times
  name: 0.1, // a person or a place (at least one capitalised word after the first)
  question: -0.35, // a question back asks; it states nothing
  smallTalk: -0.3, // greetings, thanks, praise
});

/** A sentence's informativeness in [0, 1] (speaker prefixes must not be part of `text`). */
export function informativeness(text: string, w: InformativeWeights = defaultInformativeWeights): number {
  const s = text.trim();
  let score = 0.5;
  if (EVENT.test(s)) score += w.event;
  if (DECISION.test(s)) score += w.decision;
  if (MONTH_OR_DAY.test(s)) score += w.date;
  if (NUMBER.test(s)) score += w.number;
  if (properNouns(s) > 0) score += w.name;
  if (s.endsWith("?")) score += w.question;
  if (SMALL_TALK.test(s) || SYMPATHY.test(s)) score += w.smallTalk;
  return Math.min(1, Math.max(0, score));
}
