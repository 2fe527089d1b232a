/**
 * @module entities/extract
 * Offline entity extraction at ingest: names (people, organisations, products, places) and technical
 * identifiers (service names, error codes, versions) mentioned by a memory's text, plus its speaker.
 *
 * Names come from wink-nlp's part-of-speech tagger (its English lite model, ~100 µs a sentence-long memory, in
 * process, no model download), read into whole names by entities/names (particles, hyphens, titles, versions;
 * never a time). A capitalised word that opens a sentence is taken as a name for sure only when its lowercase
 * form is not an English word the model knows, or when the text also writes it capitalised mid-sentence;
 * otherwise ("Sam is…", but also "Painting is fun") it is a tentative name, which ingest keeps only when the
 * store already knows the name (ingest/entities). Identifiers come from patterns, because no tagger knows
 * `payments-api`. A text that cannot name anything for sure (see mayNameSomething) skips the tagger entirely.
 */
import { isStopWord } from "../text/stopwords.js";
import { wink } from "../text/wink.js";
import { INNER_CAPITAL, isTimeWord, isTitle, nameSpans, SENTENCE_END } from "./names.js";

import type { EntityKind, ExtractedEntity } from "../model/entity.js";
export type { EntityKind, ExtractedEntity };

export interface EntityExtractor {
  readonly id: string;
  extract(text: string, speaker: string | null): ExtractedEntity[] | Promise<ExtractedEntity[]>;
}


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

const opensSentenceAt = (text: string, index: number) => {
  const before = text.slice(0, index).trimEnd();
  return before.length === 0 || SENTENCE_END.has(before[before.length - 1]);
};

/** Whether wink knows a word in lowercase (a common word, not a name); cached, as tagging one word costs ~10 µs. */
const lexiconCache = new Map<string, boolean>();
function knownLowercase(word: string): boolean {
  const w = word.toLowerCase();
  let known = lexiconCache.get(w);
  if (known === undefined) {
    if (lexiconCache.size > 200_000) lexiconCache.clear();
    const { nlp, its, lexiconSize } = wink();
    known = (nlp.readDoc(w).tokens().out(its.uniqueId)[0] as unknown as number) < lexiconSize;
    lexiconCache.set(w, known);
  }
  return known;
}

const CAPITALISED = /[\p{Lu}][\p{L}\p{N}]*/gu;

/**
 * Whether the text may name something, decided without the tagger (which costs ~150 µs for a 40-word memory):
 * a capitalised word that is not a stop word, mid-sentence; or, opening a sentence, one with a capital inside,
 * one followed by another capitalised word (or "and" one: "Sam and I"), or one wink does not know as a
 * lowercase word. Most text that
 * names nothing ("Thanks! The kids loved it.") never reaches the tagger.
 */
function mayNameSomething(text: string): boolean {
  for (const m of text.matchAll(CAPITALISED)) {
    const word = m[0];
    const lower = word.toLowerCase();
    if (isStopWord(lower) || isTimeWord(lower)) continue;
    if (!opensSentenceAt(text, m.index!)) return true;
    if (INNER_CAPITAL.test(word) || /^\s+(?:(?:and|&)\s+)?\p{Lu}/u.test(text.slice(m.index! + word.length)) || !knownLowercase(word)) return true;
  }
  return false;
}

/**
 * Capitalised English words that open a sentence, alone ("Sam is pescatarian", "Grace started", but also
 * "Painting is fun"): tentative names, kept by ingest only when the store already knows the name.
 */
function sentenceOpeners(text: string, named: [number, number][]): string[] {
  const out: string[] = [];
  for (const m of text.matchAll(CAPITALISED)) {
    const word = m[0];
    const lower = word.toLowerCase();
    if (isStopWord(lower) || isTimeWord(lower) || isTitle(lower) || INNER_CAPITAL.test(word) || !opensSentenceAt(text, m.index!)) continue;
    if (named.some(([s, e]) => m.index! >= s && m.index! < e)) continue; // inside a name found for sure ("Mt. Rainier")
    if (/^(?:\s+\p{Lu}|-)/u.test(text.slice(m.index! + word.length))) continue; // the start of a longer name
    if (knownLowercase(word)) out.push(word);
  }
  return out;
}

/**
 * The labels chat transcripts give their sides ("user", "assistant", "system", "ai", "bot"). As a speaker they say
 * which side of a conversation spoke, not who: made "person" entities, "user" and "assistant" became the two most
 * mentioned people of any chat store and joined every memory to every other at two hops. A real speaker name stays.
 */
const ROLE_LABELS = new Set(["user", "assistant", "system", "ai", "bot"]);

/** Whether a normalised name is a role label, not somebody (see ROLE_LABELS). */
export const isRoleLabel = (key: string): boolean => ROLE_LABELS.has(key);

export function extractEntities(text: string, speaker: string | null): ExtractedEntity[] {
  const out = new Map<string, ExtractedEntity>();
  const add = (name: string, kind: EntityKind, tentative = false) => {
    const clean = name.replace(/^[\s"'“”(]+|[\s"'“”),.!?:;]+$/g, "");
    const key = normalizeEntity(clean);
    if (key.length < 2 || key.length > 80 || isStopWord(key) || isTimeWord(key) || isRoleLabel(key)) return;
    const known = out.get(key);
    if (known && !(known.tentative && !tentative)) return;
    out.set(key, { name: clean.replace(/['’]s$/i, ""), key, kind, ...(tentative ? { tentative: true as const } : {}) });
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

  const named: [number, number][] = [];
  if (mayNameSomething(text)) {
    const { nlp, its } = wink();
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
    const skip = (i: number) => covered.some(([s, e]) => starts[i] >= s && starts[i] < e);
    for (const { first, last, tentative } of nameSpans({ values, pos, spaces }, { skip, knownLowercase })) {
      let name = "";
      for (let k = first; k <= last; k++) name += (k > first ? spaces[k] : "") + values[k];
      add(name, "name", tentative);
      if (!tentative) named.push([starts[first], starts[last] + values[last].length]);
    }
  }
  for (const word of sentenceOpeners(text, named)) add(word, "name", true);
  return [...out.values()];
}

/** The default extractor: offline, deterministic. */
export const offlineExtractor: EntityExtractor = { id: "wink-pos", extract: extractEntities };
