/**
 * @module topics/lquery
 * PostgreSQL ltree's lquery patterns, matched in memory against topic paths (a store holds few distinct
 * topics, so matching them all is cheap; the search then filters on the matching set through an index).
 *
 * Supported, with ltree's meaning:
 *   label           a label, exactly                 foo
 *   a|b             any of the alternatives          foo|bar
 *   !a|b            any one label but these          !foo
 *   label@          case-insensitive                 foo@
 *   label*          label prefix                     foo*
 *   label%          underscore-separated words: each word of the pattern starts a word of the label, in order
 *   *               any number of labels (0 or more)
 *   *{n} *{n,} *{n,m} *{,m}   that many labels
 * Not supported: quantifiers on plain labels (foo{1,2}, PostgreSQL 13+); they are refused with a clear error.
 * The whole path must match, as with ltree's `~` operator.
 *
 * Bounded: a pattern has at most MAX_LQUERY_CHARS characters, MAX_LQUERY_ITEMS items and MAX_ALTERNATIVES
 * alternatives an item, and matching is one pass over the items with a bit of state per label position
 * (items × labels), never a recursion: 600 stars against a 1,000-label topic once took 12.8 s and 20,000
 * overflowed the stack.
 */
import { invalidInput } from "../errors.js";
import { MAX_LABEL_CHARS, MAX_LABELS } from "./path.js";

interface LabelAlternative {
  text: string;
  caseInsensitive: boolean;
  prefix: boolean;
  words: boolean;
}

type Item = { kind: "any"; min: number; max: number } | { kind: "label"; negated: boolean; alternatives: LabelAlternative[] };

const LABEL = /^[A-Za-z0-9_-]+$/;

function fail(pattern: string, problem: string): never {
  throw invalidInput("match", `${JSON.stringify(pattern.length > 80 ? pattern.slice(0, 77) + "..." : pattern)}: ${problem}`);
}

export const MAX_LQUERY_CHARS = 1000;
export const MAX_LQUERY_ITEMS = 2 * MAX_LABELS;
export const MAX_ALTERNATIVES = 32;

export function parseLquery(pattern: string): Item[] {
  if (pattern.length === 0) fail(pattern, "an lquery cannot be empty");
  if (pattern.length > MAX_LQUERY_CHARS) fail(pattern, `an lquery has at most ${MAX_LQUERY_CHARS} characters, got ${pattern.length}`);
  const items = pattern.split(".");
  if (items.length > MAX_LQUERY_ITEMS) fail(pattern, `an lquery has at most ${MAX_LQUERY_ITEMS} items (a topic path has at most ${MAX_LABELS} labels), got ${items.length}`);
  const opens = (pattern.match(/\{/g) ?? []).length;
  const closes = (pattern.match(/\}/g) ?? []).length;
  if (opens !== closes) fail(pattern, "unbalanced braces");
  return items.map((raw, i): Item => {
    const where = `item ${i + 1}`;
    if (raw.length === 0) fail(pattern, `${where} is empty (no leading, trailing or doubled dots)`);
    const star = /^\*(?:\{(\d*)(,?)(\d*)\})?$/.exec(raw);
    if (star) {
      const [, lo, comma, hi] = star;
      if (raw === "*") return { kind: "any", min: 0, max: Infinity };
      if (lo === "" && comma === "" && hi === "") fail(pattern, `${where}: empty quantifier`);
      const min = lo === "" ? 0 : Number(lo);
      const max = comma === "" ? min : hi === "" ? Infinity : Number(hi);
      if (max < min) fail(pattern, `${where}: quantifier {${lo}${comma}${hi}} has its upper bound below its lower bound`);
      return { kind: "any", min, max };
    }
    if (raw.includes("{")) fail(pattern, `${where}: quantifiers are supported only on * (as *{n,m})`);
    const negated = raw.startsWith("!");
    const body = negated ? raw.slice(1) : raw;
    const alts = body.split("|");
    if (alts.length > MAX_ALTERNATIVES) fail(pattern, `${where}: at most ${MAX_ALTERNATIVES} alternatives`);
    const alternatives = alts.map((alt): LabelAlternative => {
      const m = /^([A-Za-z0-9_-]*?)([@*%]*)$/.exec(alt);
      if (!m || m[1].length === 0 || !LABEL.test(m[1])) fail(pattern, `${where}: ${JSON.stringify(alt)} is not a label (letters, digits, _ and -) with optional @, * or %`);
      if (m[1].length > MAX_LABEL_CHARS) fail(pattern, `${where}: a label has at most ${MAX_LABEL_CHARS} characters`);
      return { text: m[1], caseInsensitive: m[2].includes("@"), prefix: m[2].includes("*"), words: m[2].includes("%") };
    });
    return { kind: "label", negated, alternatives };
  });
}

function wordMatches(pattern: string, word: string, alt: LabelAlternative): boolean {
  const [p, w] = alt.caseInsensitive ? [pattern.toLowerCase(), word.toLowerCase()] : [pattern, word];
  return alt.prefix ? w.startsWith(p) : w === p;
}

function labelMatches(alt: LabelAlternative, label: string): boolean {
  if (!alt.words) return wordMatches(alt.text, label, alt);
  const want = alt.text.split("_");
  const have = label.split("_");
  return want.length <= have.length && want.every((w, i) => wordMatches(w, have[i], alt));
}

function itemMatches(item: Extract<Item, { kind: "label" }>, label: string): boolean {
  const any = item.alternatives.some((alt) => labelMatches(alt, label));
  return item.negated ? !any : any;
}

/**
 * Whether the whole path matches the parsed lquery. `ok[j]` says whether items i.. can match labels j..;
 * computed from the last item back, a star's range of lengths read off a running count of the next row.
 */
export function matchesLquery(items: Item[], path: string): boolean {
  const labels = path.split(".");
  const n = labels.length;
  let next = new Uint8Array(n + 1);
  next[n] = 1; // no items left matches exactly the end of the path
  for (let i = items.length - 1; i >= 0; i--) {
    const item = items[i];
    const row = new Uint8Array(n + 1);
    if (item.kind === "any") {
      // trues[x] = how many of next[0..x-1] are true, so a range [a, b] holds a true when trues[b+1] > trues[a]
      const trues = new Uint32Array(n + 2);
      for (let x = 0; x <= n; x++) trues[x + 1] = trues[x] + next[x];
      for (let j = 0; j <= n; j++) {
        const lo = j + item.min;
        const hi = Math.min(n, item.max === Infinity ? n : j + item.max);
        row[j] = lo <= hi && trues[hi + 1] > trues[lo] ? 1 : 0;
      }
    } else {
      for (let j = 0; j < n; j++) row[j] = next[j + 1] && itemMatches(item, labels[j]) ? 1 : 0;
    }
    next = row;
  }
  return next[0] === 1;
}
