/**
 * @module entities/names
 * Names in a tagged text: the spans of tokens that name one person, place, organisation or product.
 *
 * A name is a run of name words (proper nouns, or any capitalised word inside a sentence, where English writes
 * capitals only for names), and the run keeps what holds a name together:
 * - lowercase particles between name words: "Tasca do Chico", "Ana de la Cruz", "Rafael van der Berg",
 *   "Mohammed bin Salman", "Bank of America";
 * - hyphens written without spaces: "Priya Raman-Iyer", "Jean-Luc", "Aix-en-Provence";
 * - a title before a name: "Dr. Okafor", "Prof. Ines Alves" (a title also starts a new name: "Call Dr. Patel");
 * - a version after it: "Node 20".
 * Times are never names: weekdays ("Wednesdays", "Tuesday's standup"), months ("in May", "December 20",
 * "Dec 3") and quarters ("Q3"). A month is a name only before another name word ("May Chen", "June Carter").
 * A single capitalised word that opens a sentence and is also an English word ("Sam", "Grace", "Painting") may
 * be a name or not: no span here (entities/extract offers it as tentative, see sentenceOpeners), unless "and"
 * joins it to "I" or to another name ("Sam and I", "Jo and Alex"). So may one such word inside a sentence that the
 * tagger does not call a proper noun ("I Love it", "walked Scout"): its span is tentative.
 */

/** A token stream as the tagger gives it. */
export interface Tagged {
  values: string[];
  pos: string[];
  spaces: string[];
}

export interface NameSpan {
  first: number;
  last: number;
  /** One capitalised English word inside a sentence the tagger does not call a proper noun: a name only if known. */
  tentative?: true;
}

const PARTICLES = new Set(["of", "the", "&", "de", "da", "do", "dos", "das", "di", "du", "del", "della", "der", "den", "van", "von", "la", "le", "bin", "ibn", "al", "y", "zu", "ter"]);
const TITLES = new Set(["dr", "mr", "mrs", "ms", "mx", "prof", "st", "mt", "sr", "jr", "fr", "rev", "sgt", "capt", "lt", "gen", "col", "gov", "sen"]);
const WEEKDAYS = "monday tuesday wednesday thursday friday saturday sunday".split(" ");
const MONTHS = "january february march april may june july august september october november december".split(" ");
/** Abbreviated months and weekdays: a time only before a number or with a full stop ("Dec 3", "Jan."): "Jan Smit" is a person. */
const SHORT_TIMES = new Set("jan feb mar apr jun jul aug sep sept oct nov dec mon tue tues wed thu thur thurs fri sat sun".split(" "));
const WEEKDAY = new Set([...WEEKDAYS, ...WEEKDAYS.map((d) => `${d}s`)]);
const MONTH = new Set(MONTHS);
const QUARTER = /^[QH][1-4]$/;
/** A token after which the next word opens a sentence (or a quotation, or a clause after a colon). */
export const SENTENCE_END: ReadonlySet<string> = new Set([".", "!", "?", "…", ":", ";", "\"", "“", "”"]);
/** Parts of speech a capitalised word inside a sentence has when it is not a name ("I said OK", "by The Way"). */
const NEVER_NAME_POS = new Set(["PRON", "DET", "ADP", "CCONJ", "SCONJ", "AUX", "PART", "NUM", "PUNCT", "SYM", "INTJ"]);
/** A word with a capital inside it (PagerDuty, gRPC, OOMKilled): a product or identifier name, tagged or not. */
export const INNER_CAPITAL = /^(?:[a-z]+[A-Z]|[A-Z]{2,}[a-z]|[A-Z][a-z]+[A-Z])[A-Za-z0-9]*$/;
const VERSION = /^(?:v?\d+(?:\.\d+)*)$/;
const CAPITALISED = /^\p{Lu}/u;
const IRISH = /^\p{Lu}['’]\p{Lu}\p{Ll}/u; // O'Brien, D'Angelo: an apostrophe that is part of the name

const bare = (v: string) => v.toLowerCase().replace(/\.$/, "");

/** "Dr", "Mrs.", "St": a title or abbreviation written before a name. */
export const isTitle = (word: string): boolean => TITLES.has(bare(word));

/** Whether a lowercase word names a time on its own (a weekday or a month, singular or plural). */
export const isTimeWord = (w: string): boolean => WEEKDAY.has(w) || MONTH.has(w) || MONTH.has(w.replace(/s$/, ""));

export interface NameSpanOptions {
  skip: (i: number) => boolean;
  knownLowercase: (word: string) => boolean;
}

export function nameSpans(t: Tagged, opts: NameSpanOptions): NameSpan[] {
  return [...eachNameSpan(t, opts)];
}

/**
 * The name spans one at a time, in token order: a caller reading a long text can stop between two (see
 * entities/extract). Each token is read a bounded number of times, so the whole is linear in the tokens.
 */
export function* eachNameSpan(t: Tagged, opts: NameSpanOptions): Generator<NameSpan, void, void> {
  const { values, pos, spaces } = t;
  const n = values.length;
  const opensSentence = (i: number) => i === 0 || SENTENCE_END.has(values[i - 1]);
  const glued = (i: number) => i < n && spaces[i] === "";
  // a name word before times are ruled out (a month is a time unless one of these follows it)
  const nameWord = (i: number): boolean => {
    const v = values[i];
    if (opts.skip(i) || v === "I" || !CAPITALISED.test(v)) return false;
    if (INNER_CAPITAL.test(v) || IRISH.test(v)) return true; // before the apostrophe test below
    if (/['’]/.test(v)) return false; // a contraction ("I'm", "We're") or a possessive left on the word
    if (pos[i] === "PROPN") return true;
    return !opensSentence(i) && !NEVER_NAME_POS.has(pos[i]);
  };
  // a name word that names no time: never a weekday or quarter; a month only before a name ("May Chen", whatever
  // its tag); an abbreviation ("Dec", "Jan") not before a number or with a full stop ("Jan Smit" is a person).
  // Kept per token: a month asks about the word after it, so a run of months ("May May May…") would otherwise
  // be read again from each of its words, and every token is asked about several times below.
  const known = new Int8Array(n); // 0 not yet asked, 1 a name word, -1 not
  const word = (i: number): boolean => {
    if (i >= n) return false;
    if (known[i] !== 0) return known[i] > 0;
    // a run of months is read from its far end, so that a long one never recurses deeply
    let end = i;
    while (end < n && isMonthBefore(end)) end++;
    for (let k = end; k >= i; k--) known[k] = wordAt(k) ? 1 : -1;
    return known[i] > 0;
  };
  const isMonthBefore = (i: number) => MONTH.has(bare(values[i])) && known[i] === 0 && i + 1 < n;
  const wordAt = (i: number): boolean => {
    if (i >= n) return false;
    const w = bare(values[i]);
    if (WEEKDAY.has(w) || QUARTER.test(values[i])) return false;
    if (MONTH.has(w)) return CAPITALISED.test(values[i]) && spaces[i + 1] !== "" && i + 1 < n && known[i + 1] > 0;
    if (SHORT_TIMES.has(w) && (values[i].endsWith(".") || /^\d/.test(values[i + 1] ?? ""))) return false;
    return nameWord(i);
  };
  const title = (i: number) => i + 1 < n && isTitle(values[i]) && word(i + 1);

  const midSentence = new Set<string>();
  for (let i = 1; i < n; i++) if (!opensSentence(i) && CAPITALISED.test(values[i])) midSentence.add(values[i]);
  let i = 0;
  while (i < n) {
    if (!word(i)) {
      i++;
      continue;
    }
    const first = i;
    let last = i;
    let j = i + 1;
    while (j < n) {
      if (values[j] === "-" && glued(j) && glued(j + 1)) {
        // a hyphenated name: "Raman-Iyer", "Aix-en-Provence" (a lowercase piece only between two hyphens)
        let k = j + 1;
        while (k + 1 < n && /^\p{Ll}+$/u.test(values[k]) && values[k + 1] === "-" && glued(k + 1) && glued(k + 2)) k += 2;
        if (k < n && CAPITALISED.test(values[k]) && !opts.skip(k)) {
          last = j = k;
          j++;
          continue;
        }
        break;
      }
      if (title(j) && !title(last)) break; // a title starts a new name: "Call | Dr. Patel"
      if (word(j)) {
        last = j++;
        continue;
      }
      let k = j;
      while (k < n && k - j < 3 && PARTICLES.has(values[k].toLowerCase()) && /^\p{Ll}|&/u.test(values[k])) k++;
      if (k > j && word(k)) {
        last = j = k;
        j++;
        continue;
      }
      break;
    }
    if (last + 1 < n && VERSION.test(values[last + 1]) && spaces[last + 1] && !opts.skip(last + 1)) last++;
    const v = values[first];
    const single = first === last;
    // "Sam and I", "Jo and Alex": a word joined by "and" to a person is one too
    const paired = /^(?:and|&)$/.test(values[last + 1] ?? "") && (values[last + 2] === "I" || word(last + 2));
    const uncertain = single && opensSentence(first) && !paired && !INNER_CAPITAL.test(v) && opts.knownLowercase(v) && !midSentence.has(v);
    // one capitalised English word the tagger does not call a proper noun may be emphasis ("I Love it") or a
    // name ("walked Scout"): tentative, like a sentence's first word
    const emphasis = single && pos[first] !== "PROPN" && !INNER_CAPITAL.test(v) && opts.knownLowercase(v);
    if (!(single && isTitle(v)) && !uncertain) yield emphasis ? { first, last, tentative: true } : { first, last };
    i = last + 1;
  }
}
