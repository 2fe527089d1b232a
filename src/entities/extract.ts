/**
 * @module entities/extract
 * Offline entity extraction at ingest: names (people, organisations, products, places) and technical
 * identifiers (service names, error codes, versions) mentioned by a memory's text, plus its speaker.
 *
 * Names come from wink-nlp's part-of-speech tagger (its English lite model, ~100 µs a sentence-long memory, in
 * process, no model download): runs of proper nouns, with a product's version kept on it ("Node 20"). A
 * capitalised word that opens a sentence is only taken as a name when its lowercase form is not an English
 * word the model knows (so "Wow", "Good", "Painting" are not names) or when the text also writes it
 * capitalised mid-sentence. Identifiers come from patterns, because no tagger knows `payments-api`.
 * A text that cannot name anything by those rules (see mayNameSomething) skips the tagger entirely.
 */
import winkNLP from "wink-nlp";
import model from "wink-eng-lite-web-model";
import { isStopWord } from "../text/stopwords.js";

import type { EntityKind, ExtractedEntity } from "../model/entity.js";
export type { EntityKind, ExtractedEntity };

export interface EntityExtractor {
  readonly id: string;
  extract(text: string, speaker: string | null): ExtractedEntity[] | Promise<ExtractedEntity[]>;
}

const nlp = winkNLP(model, ["sbd", "pos"]);
const its = nlp.its;
/** wink numbers the words of its lexicon first; a word read later and not in it gets a larger id. */
const LEXICON_SIZE = nlp.readDoc("qzxqzxq").tokens().out(its.uniqueId)[0] as unknown as number;

/** Lowercase, possessive dropped, spaces collapsed: "Priya's" → "priya", "Node  20" → "node 20". */
export function normalizeEntity(name: string): string {
  return name
    .normalize("NFKC")
    .replace(/['’]s$/i, "")
    .replace(/['’]$/, "")
    .replace(/\s+/g, " ")
    .trim()
    .toLowerCase();
}

// Technical identifiers, each pattern with a cheap test that must pass before it runs (most text has no digit,
// underscore or hyphen, and the patterns cost more than the rest of extraction together when run blindly).
const IDENTIFIER_PATTERNS: { when: RegExp; pattern: RegExp }[] = [
  { when: /[A-Z][A-Z0-9]*[_-]/, pattern: /\b[A-Z][A-Z0-9]*(?:[_-][A-Z0-9]+)+\b/g }, // ERR_TIMEOUT, CVE-2024-3094, RL-403
  { when: /[A-Z]\d\d/, pattern: /\b[A-Z]{1,4}\d{2,}\b/g }, // E4012, TS2345
  { when: /HTTP \d/, pattern: /\bHTTP \d{3}\b/g }, // HTTP 429
  { when: /v\d/, pattern: /\bv\d+(?:\.\d+)+\b/g }, // v2.3.1
  { when: /\d\.\d+\./, pattern: /\b\d+\.\d+\.\d+\b/g }, // 2.3.1 (three parts: a bare "3.5" is as often an amount)
  { when: /[a-z0-9]_[a-z0-9]/, pattern: /\b[a-z][a-z0-9]*(?:_[a-z0-9]+)+\b/g }, // snake_case names: billing_worker
  // kebab-case names with a software noun in them (plain English has "follow-up", "long-term")
  {
    when: /[a-z0-9]-[a-z]/,
    pattern: /\b[a-z][a-z0-9]*(?:-[a-z0-9]+)*-(?:api|service|svc|server|web|app|gateway|worker|job|queue|db|cache|proxy|edge|indexer|bot|cli|sdk|ui|backend|frontend|daemon|cron|lambda|cluster|pipeline)\b/g,
  },
  { when: /[a-z]-\d/, pattern: /\b[a-z]+(?:-[a-z]+)*-\d+[a-z0-9-]*\b/g }, // eu-west-1, node-18-alpine
];

/** A word with a capital inside it (PagerDuty, gRPC, OOMKilled): a product or identifier name, tagged or not. */
const INNER_CAPITAL = /^(?:[a-z]+[A-Z]|[A-Z]{2,}[a-z]|[A-Z][a-z]+[A-Z])[A-Za-z0-9]*$/;
const VERSION = /^(?:v?\d+(?:\.\d+)*)$/;
const CONNECTORS = new Set(["of", "the", "de", "van", "von", "&"]);
/** Dates are not entities: day and month names are tagged as proper nouns but name a time, not a thing. */
const CALENDAR = new Set(
  "monday tuesday wednesday thursday friday saturday sunday january february march april may june july august september october november december".split(" "),
);
const SENTENCE_END = new Set([".", "!", "?", "…", ":", ";", "\"", "“", "”"]);

/** Whether wink knows a word in lowercase (a common word, not a name); cached, as tagging one word costs ~10 µs. */
const lexiconCache = new Map<string, boolean>();
function knownLowercase(word: string): boolean {
  const w = word.toLowerCase();
  let known = lexiconCache.get(w);
  if (known === undefined) {
    if (lexiconCache.size > 200_000) lexiconCache.clear();
    known = (nlp.readDoc(w).tokens().out(its.uniqueId)[0] as unknown as number) < LEXICON_SIZE;
    lexiconCache.set(w, known);
  }
  return known;
}

const CAPITALISED = /[\p{Lu}][\p{L}\p{N}]*/gu;

/**
 * Whether the text may name something, decided without the tagger (which costs ~150 µs for a 40-word memory):
 * a capitalised word that is not a stop word, mid-sentence; or, opening a sentence, one with a capital inside,
 * one followed by another capitalised word, or one wink does not know as a lowercase word. Most text that
 * names nothing ("Thanks! The kids loved it.") never reaches the tagger.
 */
function mayNameSomething(text: string): boolean {
  for (const m of text.matchAll(CAPITALISED)) {
    const word = m[0];
    const lower = word.toLowerCase();
    if (isStopWord(lower) || CALENDAR.has(lower)) continue;
    const before = text.slice(0, m.index).trimEnd();
    const opensSentence = before.length === 0 || SENTENCE_END.has(before[before.length - 1]);
    if (!opensSentence) return true;
    if (INNER_CAPITAL.test(word) || /^\s+[\p{Lu}]/u.test(text.slice(m.index! + word.length)) || !knownLowercase(word)) return true;
  }
  return false;
}

export function extractEntities(text: string, speaker: string | null): ExtractedEntity[] {
  const out = new Map<string, ExtractedEntity>();
  const add = (name: string, kind: EntityKind) => {
    const clean = name.replace(/^[\s"'“”(]+|[\s"'“”),.!?:;]+$/g, "");
    const key = normalizeEntity(clean);
    if (key.length < 2 || key.length > 80 || isStopWord(key) || CALENDAR.has(key)) return;
    if (!out.has(key)) out.set(key, { name: clean.replace(/['’]s$/i, ""), key, kind });
  };
  if (speaker) add(speaker, "person");

  const covered: [number, number][] = [];
  for (const { when, pattern } of IDENTIFIER_PATTERNS) {
    if (!when.test(text)) continue;
    for (const m of text.matchAll(pattern)) {
      const start = m.index!;
      if (covered.some(([s, e]) => start < e && start + m[0].length > s)) continue;
      covered.push([start, start + m[0].length]);
      add(m[0], "identifier");
    }
  }

  if (!mayNameSomething(text)) return [...out.values()];
  const doc = nlp.readDoc(text);
  const values = doc.tokens().out(its.value) as string[];
  const pos = doc.tokens().out(its.pos) as string[];
  const spaces = doc.tokens().out(its.precedingSpaces) as string[];
  // character offsets, to skip tokens already inside an identifier
  const starts: number[] = [];
  let at = 0;
  for (let i = 0; i < values.length; i++) {
    at += spaces[i].length;
    starts.push(at);
    at += values[i].length;
  }
  const inIdentifier = (i: number) => covered.some(([s, e]) => starts[i] >= s && starts[i] < e);
  const capitalised = (v: string) => /^\p{Lu}/u.test(v);
  const midSentenceCaps = new Set<string>();
  for (let i = 1; i < values.length; i++) if (!SENTENCE_END.has(values[i - 1]) && capitalised(values[i])) midSentenceCaps.add(values[i]);
  const isNameToken = (i: number) => {
    const v = values[i];
    if (inIdentifier(i) || /['’]/.test(v.slice(0, -2)) || v === "I") return false;
    if (INNER_CAPITAL.test(v)) return true;
    return pos[i] === "PROPN" && capitalised(v) && !/['’](?:m|re|ve|ll|d)$/i.test(v);
  };

  let i = 0;
  while (i < values.length) {
    if (!isNameToken(i)) {
      i++;
      continue;
    }
    const first = i;
    let last = i;
    let j = i + 1;
    while (j < values.length) {
      if (isNameToken(j)) {
        last = j++;
      } else if (CONNECTORS.has(values[j].toLowerCase()) && j + 1 < values.length && isNameToken(j + 1)) {
        j++;
      } else break;
    }
    // a version right after a name belongs to it: "Node 20", "Kubernetes 1.29"
    if (last + 1 < values.length && VERSION.test(values[last + 1]) && spaces[last + 1].length > 0 && !inIdentifier(last + 1)) last++;
    const opensSentence = first === 0 || SENTENCE_END.has(values[first - 1]);
    const single = first === last;
    const v = values[first];
    const accept = !(opensSentence && single && !INNER_CAPITAL.test(v) && knownLowercase(v) && !midSentenceCaps.has(v));
    if (accept) {
      let name = "";
      for (let k = first; k <= last; k++) name += (k > first ? spaces[k] || " " : "") + values[k];
      add(name, "name");
    }
    i = last + 1;
  }
  return [...out.values()];
}

/** The default extractor: offline, deterministic. */
export const offlineExtractor: EntityExtractor = { id: "wink-pos", extract: extractEntities };
