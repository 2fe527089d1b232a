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
 */
import { invalidInput } from "../errors.js";

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

export function parseLquery(pattern: string): Item[] {
  if (pattern.length === 0) fail(pattern, "an lquery cannot be empty");
  const opens = (pattern.match(/\{/g) ?? []).length;
  const closes = (pattern.match(/\}/g) ?? []).length;
  if (opens !== closes) fail(pattern, "unbalanced braces");
  return pattern.split(".").map((raw, i): Item => {
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
    const alternatives = body.split("|").map((alt): LabelAlternative => {
      const m = /^([A-Za-z0-9_-]*?)([@*%]*)$/.exec(alt);
      if (!m || m[1].length === 0 || !LABEL.test(m[1])) fail(pattern, `${where}: ${JSON.stringify(alt)} is not a label (letters, digits, _ and -) with optional @, * or %`);
      if (m[1].length > 1000) fail(pattern, `${where}: a label has at most 1000 characters`);
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

/** Whether the whole path matches the parsed lquery. */
export function matchesLquery(items: Item[], path: string): boolean {
  const labels = path.split(".");
  const memo = new Map<string, boolean>();
  const go = (i: number, j: number): boolean => {
    const key = `${i},${j}`;
    const cached = memo.get(key);
    if (cached !== undefined) return cached;
    let ok: boolean;
    if (i === items.length) ok = j === labels.length;
    else {
      const item = items[i];
      if (item.kind === "any") {
        ok = false;
        for (let n = item.min; n <= item.max && j + n <= labels.length && !ok; n++) ok = go(i + 1, j + n);
      } else {
        ok = j < labels.length && itemMatches(item, labels[j]) && go(i + 1, j + 1);
      }
    }
    memo.set(key, ok);
    return ok;
  };
  return go(0, 0);
}
