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
import { inLexicon, wink } from "../text/wink.js";
import { pacer } from "../event-loop.js";
import { eachNameSpan, INNER_CAPITAL, isTimeWord, isTitle, SENTENCE_END, type Tagged } from "./names.js";

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

/** Whether the word at `index` opens a sentence: only spaces, or a sentence's end, before it (read backwards over
 * the spaces alone, so that asking costs the same at the end of a long text as at its start). */
const opensSentenceAt = (text: string, index: number) => {
  let at = index;
  while (at > 0 && /\s/.test(text[at - 1])) at--;
  return at === 0 || SENTENCE_END.has(text[at - 1]);
};

const CAPITALISED = /[\p{Lu}][\p{L}\p{N}]*/gu;

/**
 * Whether the text may name something, decided without the tagger (which costs ~150 µs for a 40-word memory):
 * a capitalised word that is not a stop word, mid-sentence; or, opening a sentence, one with a capital inside,
 * one followed by another capitalised word (or "and" one: "Sam and I"), or one wink does not know as a
 * lowercase word. Most text that
 * names nothing ("Thanks! The kids loved it.") never reaches the tagger.
 */
function* mayNameSomething(text: string): Paced<boolean> {
  let read = 0;
  for (const m of text.matchAll(CAPITALISED)) {
    if (++read % WORDS_BETWEEN_PAUSES === 0) yield;
    const word = m[0];
    const lower = word.toLowerCase();
    if (isStopWord(lower) || isTimeWord(lower)) continue;
    if (!opensSentenceAt(text, m.index!)) return true;
    if (INNER_CAPITAL.test(word) || /^\s+(?:(?:and|&)\s+)?\p{Lu}/u.test(text.slice(m.index! + word.length)) || !inLexicon(word)) return true;
  }
  return false;
}

/**
 * Capitalised English words that open a sentence, alone ("Sam is pescatarian", "Grace started", but also
 * "Painting is fun"): tentative names, kept by ingest only when the store already knows the name.
 */
function* sentenceOpeners(text: string, named: [number, number][]): Paced<string[]> {
  const out: string[] = [];
  let next = 0;
  let read = 0;
  for (const m of text.matchAll(CAPITALISED)) {
    if (++read % WORDS_BETWEEN_PAUSES === 0) yield;
    const word = m[0];
    const lower = word.toLowerCase();
    if (isStopWord(lower) || isTimeWord(lower) || isTitle(lower) || INNER_CAPITAL.test(word) || !opensSentenceAt(text, m.index!)) continue;
    // inside a name found for sure ("Mt. Rainier"): the names are in text order, as the words are
    while (next < named.length && named[next][1] <= m.index!) next++;
    if (next < named.length && named[next][0] <= m.index!) continue;
    if (/^(?:\s+\p{Lu}|-)/u.test(text.slice(m.index! + word.length))) continue; // the start of a longer name
    if (inLexicon(word)) out.push(word);
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

/**
 * Work that stops now and then (at each `yield`) so that a caller on a server's one thread can let I/O in: a
 * 1,000,000-character text costs about a second of tagging and reading names.
 */
type Paced<T> = Generator<void, T, void>;

/** Capitalised words (or name spans) read between two chances to pause (the pacer pauses only every 10 ms). */
const WORDS_BETWEEN_PAUSES = 256;

/** Runs paced work to its end without pausing. */
function toEnd<T>(work: Paced<T>): T {
  for (;;) {
    const step = work.next();
    if (step.done) return step.value;
  }
}

/** Runs paced work, letting I/O in every few milliseconds (event-loop's pacer). */
async function paced<T>(work: Paced<T>): Promise<T> {
  const pause = pacer();
  for (;;) {
    const step = work.next();
    if (step.done) return step.value;
    await pause();
  }
}

/**
 * Texts longer than this are tagged a block at a time, each block ending before a paragraph break (or a line
 * break, or a sentence's end, or at least a space): the tagger reads sentences one by one, and a block that
 * starts with the spaces before its first word gives the same tokens, tags and spaces as the whole text would.
 */
const TAG_BLOCK = 8192;

/** Where the block starting at `start` ends: before the spaces ahead of a break found after TAG_BLOCK characters. */
function blockEnd(text: string, start: number): number {
  if (text.length - start <= TAG_BLOCK * 2) return text.length;
  const from = start + TAG_BLOCK;
  const until = start + TAG_BLOCK * 4;
  let cut = -1;
  for (const found of [text.indexOf("\n\n", from), text.indexOf("\n", from)]) {
    if (found >= 0 && found < until) {
      cut = found;
      break;
    }
  }
  for (const [pattern, after] of [[/[.!?]\s/g, 1], [/\s/g, 0]] as const) {
    if (cut >= 0) break;
    pattern.lastIndex = from;
    const m = pattern.exec(text.slice(0, until));
    if (m) cut = m.index + after;
  }
  if (cut < 0) cut = until;
  while (cut > start && /\s/.test(text[cut - 1])) cut--;
  return cut > start ? cut : Math.min(text.length, until);
}

/** The text's tokens, their parts of speech and the spaces before each, tagged block by block (see TAG_BLOCK). */
export function tagText(text: string): Tagged {
  return toEnd(tag(text));
}

function* tag(text: string): Paced<Tagged> {
  const { nlp, its } = wink();
  const values: string[] = [];
  const pos: string[] = [];
  const spaces: string[] = [];
  for (let start = 0; start < text.length; ) {
    const end = blockEnd(text, start);
    const tokens = nlp.readDoc(text.slice(start, end)).tokens();
    const [v, p, s] = [tokens.out(its.value) as string[], tokens.out(its.pos) as string[], tokens.out(its.precedingSpaces) as string[]];
    for (let i = 0; i < v.length; i++) {
      values.push(v[i]);
      pos.push(p[i]);
      spaces.push(s[i]);
    }
    start = end;
    yield;
  }
  return { values, pos, spaces };
}

export function extractEntities(text: string, speaker: string | null): ExtractedEntity[] {
  return toEnd(extraction(text, speaker));
}

/** extractEntities, pausing for I/O every few milliseconds: the same entities, for a long text on a server. */
export function extractEntitiesPaced(text: string, speaker: string | null): Promise<ExtractedEntity[]> {
  return paced(extraction(text, speaker));
}

function* extraction(text: string, speaker: string | null): Paced<ExtractedEntity[]> {
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

  // the characters inside an identifier: a look-up per character, where a list of spans cost a scan of every
  // identifier for every token (a long text with thousands of them took seconds)
  let covered: Uint8Array | null = null;
  for (const { when, pattern } of IDENTIFIER_PATTERNS) {
    if (!when.test(text)) continue;
    for (const m of text.matchAll(pattern)) {
      const start = m.index!;
      const end = start + m[0].length;
      covered ??= new Uint8Array(text.length);
      if (covered.subarray(start, end).includes(1)) continue;
      covered.fill(1, start, end);
      add(m[0], "identifier");
    }
  }

  const named: [number, number][] = [];
  yield;
  if (yield* mayNameSomething(text)) {
    const { values, pos, spaces } = yield* tag(text);
    // character offsets, to skip tokens already inside an identifier
    const starts: number[] = [];
    let at = 0;
    for (let i = 0; i < values.length; i++) {
      if (i % (WORDS_BETWEEN_PAUSES * 32) === 0) yield;
      at += spaces[i].length;
      starts.push(at);
      at += values[i].length;
    }
    const inIdentifier = covered;
    const skip = inIdentifier ? (i: number) => inIdentifier[starts[i]] === 1 : () => false;
    let read = 0;
    for (const { first, last, tentative } of eachNameSpan({ values, pos, spaces }, { skip, knownLowercase: inLexicon })) {
      if (++read % WORDS_BETWEEN_PAUSES === 0) yield;
      let name = "";
      for (let k = first; k <= last; k++) name += (k > first ? spaces[k] : "") + values[k];
      add(name, "name", tentative);
      if (!tentative) named.push([starts[first], starts[last] + values[last].length]);
    }
  }
  for (const word of yield* sentenceOpeners(text, named)) add(word, "name", true);
  return [...out.values()];
}

/** The default extractor: offline, deterministic; a long text is read with pauses for I/O (extractEntitiesPaced). */
export const offlineExtractor: EntityExtractor = {
  id: "wink-pos",
  extract: (text, speaker) => (text.length > TAG_BLOCK ? extractEntitiesPaced(text, speaker) : extractEntities(text, speaker)),
};
