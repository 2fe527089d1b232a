/**
 * @module graph/revision-values
 * Slots and values: a newer memory that gives the same attribute another value ("December 20" → "December 27",
 * "Tuesdays" → "Thursdays", "$1,800" → "$1,950") contradicts the older one. A value is a number (with its kind:
 * a time of day, a date, an amount) or a member of a closed class (weekdays, months, parts of the day,
 * frequencies); its attribute is the content words just before it, or its unit. An older value the newer
 * memory still states is kept, not replaced ("Of the 120 guests, 30 are children").
 */
import type { Parsed, Token } from "./revision-parse.js";

const CLASSES: string[][] = [
  ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"],
  ["january", "february", "march", "april", "may", "june", "july", "august", "september", "october", "november", "december"],
  ["morning", "afternoon", "evening", "night", "noon", "midnight"],
  ["daily", "weekly", "biweekly", "monthly", "quarterly", "yearly", "annually", "nightly", "hourly"],
];
/** A word that names when something takes effect: a weekday, a month, or a day relative to today. */
export function isTimeWord(lower: string): boolean {
  const cls = classOf(lower);
  return cls === 0 || cls === 1 || ["today", "tomorrow", "tonight", "next"].includes(lower);
}

/** Numbers written as words, each at its own value's index. */
export const NUMBER_WORDS = ["zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven", "twelve"];

/** The words a value may be written with (besides digits), for a cheap test before any tagging. */
export const VALUE_WORDS: string[] = [...CLASSES.flat().map((w) => `${w}s?`), ...NUMBER_WORDS];
const NUMBER = /^\d[\d,]*(?:\.\d+)?(?:st|nd|rd|th|am|pm|k)?$|^\d{1,2}:\d\d(?:am|pm)?$/;

type Kind = "clock" | "date" | "amount";

interface Value {
  value: string;
  kind: Kind | null;
  /** Content stems just before it: what it is a value of. */
  keys: Set<string>;
  unit: string | null;
  /** Index of a closed class (weekdays, months, ...), for class values. */
  cls?: number;
}

function classOf(lower: string): number {
  const base = lower.endsWith("s") && !CLASSES.some((c) => c.includes(lower)) ? lower.slice(0, -1) : lower;
  return CLASSES.findIndex((c) => c.includes(base));
}

const isNumber = (t: Token) => t.pos === "NUM" || NUMBER.test(t.lower) || NUMBER_WORDS.includes(t.lower);
const isValueToken = (t: Token) => isNumber(t) || classOf(t.lower) >= 0;

function numberOf(t: Token): string {
  const w = NUMBER_WORDS.indexOf(t.lower);
  return w >= 0 ? String(w) : t.lower.replace(/,/g, "").replace(/^(\d+)(?:st|nd|rd|th)$/, "$1");
}

function valuesOf(p: Parsed, stopped: (t: Token) => boolean): Value[] {
  const tokens = p.tokens;
  const out: Value[] = [];
  tokens.forEach((t, i) => {
    const cls = classOf(t.lower);
    if (cls >= 0) {
      out.push({ value: CLASSES[cls].find((c) => t.lower.startsWith(c))!, kind: null, keys: new Set(), unit: null, cls });
      return;
    }
    if (!isNumber(t)) return;
    const keys = new Set<string>();
    for (let j = i - 1; j >= 0 && keys.size < 2; j--) {
      if (isNumber(tokens[j]) || [",", ";", ".", "and"].includes(tokens[j].lower)) break;
      if (!stopped(tokens[j]) && /^\p{L}/u.test(tokens[j].lower) && classOf(tokens[j].lower) < 0) keys.add(tokens[j].stem);
    }
    const next = tokens[i + 1];
    const prev = tokens[i - 1];
    const clock = /:|am$|pm$/.test(t.lower) || ["am", "pm", "o'clock"].includes(next?.lower ?? "");
    const date = /(st|nd|rd|th)$/.test(t.lower) || classOf(prev?.lower ?? "") === 1 || classOf(next?.lower ?? "") === 1 || (next?.lower === "of" && classOf(tokens[i + 2]?.lower ?? "") === 1);
    const amount = prev?.pos === "SYM" || /^[$£€]/.test(prev?.lower ?? "");
    const unit = next && next.pos === "NOUN" && !clock && !date ? next.stem.replace(/s$/, "") : null;
    out.push({ value: numberOf(t), kind: clock ? "clock" : date ? "date" : amount ? "amount" : null, keys, unit });
  });
  return out;
}

export interface ValueChange {
  /** "december: 20 → 27", "tuesday → thursday". */
  text: string;
  /** The newer memory says everything the older one did but the value: the same slot restated. */
  sameFrame: boolean;
}

/**
 * The first attribute whose value the newer memory replaces, or null. `stopped` says which tokens are not
 * attribute words (stop words, words of change).
 */
export function valueChange(older: Parsed, newer: Parsed, stopped: (t: Token) => boolean): ValueChange | null {
  const a = valuesOf(older, stopped);
  const b = valuesOf(newer, stopped);
  const said = new Set(b.map((v) => v.value));
  // a value the older memory gives already is not another one ("from next week Wednesdays, not Mondays" → "Noted:
  // Wednesdays from next week")
  const before = new Set(a.map((v) => v.value));
  // one date (or time of day) in each: the same slot, whatever words stand before it
  const only = (vs: Value[], kind: Kind) => vs.filter((v) => v.kind === kind).length === 1;
  let text: string | null = null;
  for (const x of a) {
    if (said.has(x.value) || text) continue;
    for (const y of b) {
      if (x.value === y.value || before.has(y.value) || (x.cls ?? -1) !== (y.cls ?? -1)) continue;
      if (x.cls !== undefined) {
        text = `${x.value} → ${y.value}`;
        break;
      }
      // a time of day or a date is another slot than a counted amount ("8:30" is not "20 minutes")
      const kindOf = (v: Value) => v.kind ?? (v.unit ? "amount" : null);
      if (kindOf(x) && kindOf(y) && kindOf(x) !== kindOf(y)) continue;
      if (x.unit && y.unit && x.unit !== y.unit) continue;
      const sole = x.kind && x.kind === y.kind && x.kind !== "amount" && only(a, x.kind) && only(b, x.kind) ? x.kind : undefined;
      const shared = [...x.keys].find((k) => y.keys.has(k)) ?? (x.unit && x.unit === y.unit ? x.unit : sole);
      if (shared) {
        text = `${shared}: ${x.value} → ${y.value}`;
        break;
      }
    }
  }
  if (!text) return null;
  const frame = older.tokens.filter((t) => !isValueToken(t) && older.content.has(t.stem) && !stopped(t));
  return { text, sameFrame: frame.every((t) => newer.content.has(t.stem)) };
}
