/**
 * @module time/only-time
 * Whether a question names only a time. "What happened last Tuesday", "anything from the week of March 2nd?",
 * "what did I do yesterday": once the time expression is taken out, what is left asks what took place and names
 * no subject. Searched as words, "happened" or "anything" matches whatever happens to contain them (or, in the
 * dense channel, whatever sits near them), and that noise outranked the very memories the window holds. Such a
 * question is answered by the window alone: its words are not searched.
 */
import { isStopWord } from "../text/stopwords.js";
import { words } from "../text/tokenize.js";

/**
 * Words that ask what took place (or for an account of it) without naming a subject: verbs of occurring and of
 * talking, indefinite pronouns, requests for an account, and the qualifiers such questions carry ("anything
 * new?"). Only consulted for a question that names a time; elsewhere they are ordinary words.
 */
const ASKING = new Set(
  `happen happened happening happens occur occurred occurring occurs take took taking place places
  go goes going gone went come came coming on
  anything something everything nothing stuff things thing anyone anybody someone somebody everyone everybody
  new news interesting important notable noteworthy special big
  say said says talk talked talking discuss discussed discussing chat chatted mention mentioned
  tell remind show give list recap summary summarize summarise overview rundown catch update updates
  done doing work worked working busy
  note notes memory memories entry entries record records log`
    .split(/\s+/)
    .filter(Boolean),
);

/** True when `rest` (a question without its time expression) has no word that names a subject. */
export function namesOnlyTime(rest: string): boolean {
  return words(rest).every((w) => isStopWord(w) || ASKING.has(w));
}
