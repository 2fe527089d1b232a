/**
 * @module time/expressions
 * Time expressions in a query, read relative to `now` in the pyramid's time zone, so that "what happened last
 * Tuesday" becomes a window (that Tuesday) and a question without its date words ("what happened").
 *
 * Understood (case-insensitive): today, yesterday; last/this/on <weekday>; <Month> <day>[, <year>] and
 * <day> <Month> [<year>] (with "on"); the week of either (the Monday-to-Sunday week holding it); in/during
 * <Month> [<year>]; <Month> <year>; ISO dates (2026-06-03) and months (2026-06); last/this/past week, month,
 * quarter, year; Q1-Q4 [<year>]; over/in/for the last/past N days/weeks/months (N in digits or one to twelve);
 * N (or a) days/weeks/months ago, a fortnight ago; weekends (Saturday 00:00 to Monday 00:00): last/this past/this weekend, over the
 * weekend, the weekend before last, N weekends ago; ranges of days: between November 9 and 11, November 9–11,
 * from 9 to 11 November (the first day's midnight to the end of the last); a weekday or the weekend in the week
 * N weeks ago ("two weeks ago on Saturday", "on Saturday last week"); the <weekday> before last, before a date,
 * or alone (before today). A date without a year is the latest such date not after `now`. Questions about
 * change over time ("how did X evolve") ask for the month level even without a window.
 */
import { civilDate, startOfDate, weekdayOf, type CivilDate, type WindowLevel } from "./windows.js";

export interface TimeSpan {
  start: number;
  end: number;
  /** The pyramid level whose windows are this span's size. */
  level: WindowLevel;
  /** The words that named it, as written in the query. */
  phrase: string;
}

export interface ParsedTime {
  /** The query without its time expression (the lexical channels search this). */
  text: string;
  span: TimeSpan | null;
  /** The pyramid level to prefer: the span's, or month for questions about change over time. */
  level: WindowLevel | null;
  /** Words that looked like a date but name none ("February 30"), when no other expression was read. */
  unreadable?: string;
}

const MONTHS = ["january", "february", "march", "april", "may", "june", "july", "august", "september", "october", "november", "december"];
const WEEKDAYS = ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"];
const NUMBERS: Record<string, number> = { one: 1, two: 2, three: 3, four: 4, five: 5, six: 6, seven: 7, eight: 8, nine: 9, ten: 10, eleven: 11, twelve: 12, a: 1 };

/** A month's name, whole or cut short ("Sept"), as a regular expression without a group of its own. */
export const MONTH_NAME = "jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?";
const MONTH = `(${MONTH_NAME})`;
const WEEKDAY = "(monday|tuesday|wednesday|thursday|friday|saturday|sunday)";
const COUNT = "(\\d{1,3}|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve)";
/** A count that may also be "a" ("a week ago"). */
const COUNT_A = "(\\d{1,3}|a|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve)";
/** A weekday or the weekend, as one group. */
const DAY_OR_WEEKEND = "(monday|tuesday|wednesday|thursday|friday|saturday|sunday|weekend)";
/** What joins the two ends of a range of days, as one group: a dash (any kind) or a word. */
const TO = "(\\s*[-–—]\\s*|\\s+(?:to|through|thru|till|until|and)\\s+)";
const UNIT = "(day|week|month|year)s?";
const DAY_NUM = "(\\d{1,2})(?:st|nd|rd|th)?";
const YEAR = "(\\d{4})";
const EVOLVE = /\b(evolv\w*|evolution|develop(ed|ment)? over|progress(ed)? over|chang(e|ed|es) over|over time|history of|how has|how have)\b/i;

type Resolve = (m: RegExpExecArray, ctx: Context) => Omit<TimeSpan, "phrase"> | null;

interface Context {
  now: number;
  zone: string;
  today: CivilDate;
}

const DAY = 86_400_000;

const day = (c: CivilDate, ctx: Context) => ({ start: startOfDate(c, ctx.zone), end: startOfDate({ ...c, d: c.d + 1 }, ctx.zone), level: "day" as const });
const monthSpan = (y: number, m: number, months: number, ctx: Context) => ({
  start: startOfDate({ y, m, d: 1 }, ctx.zone),
  end: startOfDate({ y, m: m + months, d: 1 }, ctx.zone),
  level: "month" as const,
});
const weekOf = (c: CivilDate, ctx: Context) => {
  const monday = { ...c, d: c.d - weekdayOf(c) };
  return { start: startOfDate(monday, ctx.zone), end: startOfDate({ ...monday, d: monday.d + 7 }, ctx.zone), level: "week" as const };
};
/** Saturday 00:00 to Monday 00:00 of the weekend that begins on `saturday`. */
const weekend = (saturday: CivilDate, ctx: Context) => ({
  start: startOfDate(saturday, ctx.zone),
  end: startOfDate({ ...saturday, d: saturday.d + 2 }, ctx.zone),
  level: "day" as const,
});
/** The Saturday of the last whole weekend before `c` (on a Saturday or Sunday, the weekend before that one). */
const saturdayBefore = (c: CivilDate): CivilDate => ({ ...c, d: c.d - weekdayOf(c) - 2 });
/** A weekday named ("saturday") or the weekend, in the Monday-to-Sunday week that begins on `monday`. */
const inWeek = (monday: CivilDate, which: string, ctx: Context) =>
  which.toLowerCase() === "weekend" ? weekend({ ...monday, d: monday.d + 5 }, ctx) : day({ ...monday, d: monday.d + WEEKDAYS.indexOf(which.toLowerCase()) }, ctx);
/** The last such weekday strictly before `c`, or the last whole weekend before it. */
const before = (c: CivilDate, which: string, ctx: Context) => {
  if (which.toLowerCase() === "weekend") return weekend(saturdayBefore(c), ctx);
  const back = (weekdayOf(c) - WEEKDAYS.indexOf(which.toLowerCase()) + 7) % 7 || 7;
  return day({ ...c, d: c.d - back }, ctx);
};
const mondayOf = (c: CivilDate): CivilDate => ({ ...c, d: c.d - weekdayOf(c) });
/** The date a "<day> <Month>" or "<Month> <day>" match names, its parts at groups `at`.. (day-first) or `at+2`.. */
const dateFromGroups = (m: RegExpExecArray, at: number, ctx: Context) =>
  m[at] ? dateOf(m[at + 1], m[at], m[at + 4], ctx) : m[at + 2] ? dateOf(m[at + 2], m[at + 3], m[at + 4], ctx) : null;

const monthIndex = (name: string) => MONTHS.findIndex((m) => m.startsWith(name.toLowerCase().slice(0, 3))) + 1;
const count = (s: string) => NUMBERS[s.toLowerCase()] ?? Number(s);
/** The level whose windows best fit a span of this length. */
const levelFor = (ms: number): WindowLevel => (ms <= 2 * DAY ? "day" : ms <= 21 * DAY ? "week" : "month");

/** The latest date with this month and day that is not after today (a year back when needed). */
function latest(month: number, dayOfMonth: number | null, ctx: Context): number {
  const y = ctx.today.y;
  const thisYear = dayOfMonth === null ? month <= ctx.today.m : month < ctx.today.m || (month === ctx.today.m && dayOfMonth <= ctx.today.d);
  return thisYear ? y : y - 1;
}

function validDate(y: number, m: number, d: number): boolean {
  const t = new Date(Date.UTC(y, m - 1, d));
  return m >= 1 && m <= 12 && t.getUTCMonth() === m - 1 && t.getUTCDate() === d;
}

/** A month name and day of the month (with a year, or the latest such date not after today), if it exists. */
function dateOf(month: string, dayOfMonth: string, year: string | undefined, ctx: Context): CivilDate | null {
  const mo = monthIndex(month);
  const d = +dayOfMonth;
  const y = year ? +year : latest(mo, d, ctx);
  return validDate(y, mo, d) ? { y, m: mo, d } : null;
}

/**
 * A range of days, from the first day's midnight to the end of the last. Without a year the first day is the
 * latest such date not after today and the last follows it (into the next year for "Dec 28 to Jan 3"); with one
 * year, it holds for both ends. "and" joins a range only after "between" ("Nov 9 and 11" names two days), and a
 * word joins two bare numbers only after "between" or "from" ("5 to 10 May" may be a count).
 */
function rangeOf(
  parts: { lead?: string; join: string; sm: string; sd: string; sy?: string; em: string; ed: string; ey?: string; bareStart: boolean },
  ctx: Context,
): Omit<TimeSpan, "phrase"> | null {
  const lead = parts.lead?.toLowerCase();
  const word = parts.join.trim().toLowerCase();
  if (word === "and" && lead !== "between") return null;
  if (parts.bareStart && /^[a-z]/.test(word) && !lead) return null;
  const sm = monthIndex(parts.sm), em = monthIndex(parts.em), sd = +parts.sd, ed = +parts.ed;
  // a range within one month must not run backwards; across months without a year it may cross New Year
  if (sm === em && ed < sd && !parts.sy && !parts.ey) return null;
  const ordered = em > sm || (em === sm && ed >= sd);
  let sy: number, ey: number;
  if (parts.sy) {
    sy = +parts.sy;
    ey = parts.ey ? +parts.ey : ordered ? sy : sy + 1;
  } else if (parts.ey) {
    ey = +parts.ey;
    sy = ordered ? ey : ey - 1;
  } else {
    sy = latest(sm, sd, ctx);
    ey = ordered ? sy : sy + 1;
  }
  if (!validDate(sy, sm, sd) || !validDate(ey, em, ed)) return null;
  const start = startOfDate({ y: sy, m: sm, d: sd }, ctx.zone);
  const end = startOfDate({ y: ey, m: em, d: ed + 1 }, ctx.zone);
  return end > start ? { start, end, level: levelFor(end - start) } : null;
}

/** Patterns, most specific first; each match resolves to a span or is skipped. */
const PATTERNS: [RegExp, Resolve][] = [
  // ranges of days: "between November 9 and 11", "November 9–11", "from 9 to 11 November"
  [new RegExp(`\\b(?:(between|from) )?(?:the )?${MONTH} ${DAY_NUM}(?:,? ${YEAR})?${TO}(?:the )?(?:${MONTH} )?${DAY_NUM}(?:,? ${YEAR})?\\b`, "i"), (m, ctx) =>
    rangeOf({ lead: m[1], sm: m[2], sd: m[3], sy: m[4], join: m[5], em: m[6] ?? m[2], ed: m[7], ey: m[8], bareStart: false }, ctx)],
  [new RegExp(`\\b(?:(between|from) )?(?:the )?${DAY_NUM}(?: (?:of )?${MONTH}(?:,? ${YEAR})?)?${TO}(?:the )?${DAY_NUM} (?:of )?${MONTH}(?:,? ${YEAR})?\\b`, "i"), (m, ctx) =>
    rangeOf({ lead: m[1], sd: m[2], sm: m[3] ?? m[7], sy: m[4], join: m[5], ed: m[6], em: m[7], ey: m[8], bareStart: !m[3] }, ctx)],
  // a weekday (or the weekend) in the week N weeks ago: "two weeks ago on Saturday", "on Saturday last week"
  [new RegExp(`\\b(?:${COUNT_A} weeks? ago|(last) week),? (?:on |over |at )?(?:the |that )?${DAY_OR_WEEKEND}\\b`, "i"), (m, ctx) =>
    inWeek(mondayOf({ ...ctx.today, d: ctx.today.d - 7 * (m[2] ? 1 : count(m[1])) }), m[3], ctx)],
  [new RegExp(`\\b(?:on |over |at )?(?:the |that )?${DAY_OR_WEEKEND},? (?:${COUNT_A} weeks? ago|(last) week)\\b`, "i"), (m, ctx) =>
    inWeek(mondayOf({ ...ctx.today, d: ctx.today.d - 7 * (m[3] ? 1 : count(m[2])) }), m[1], ctx)],
  // "the Saturday before last", "the weekend before last": one before the last one
  [new RegExp(`\\b(?:on |over )?(?:the )?${DAY_OR_WEEKEND} before (?:the )?last\\b`, "i"), (m, ctx) => {
    const last = before(ctx.today, m[1], ctx);
    return before(civilDate(last.start + 12 * 3_600_000, ctx.zone), m[1], ctx);
  }],
  // "the Saturday before November 11", "last weekend before April 10"; "the Saturday before" alone: before today
  [new RegExp(`\\b(?:on |over )?(?:the )?(?:last )?${DAY_OR_WEEKEND} before (?:the )?(?:${DAY_NUM} (?:of )?${MONTH}|${MONTH} ${DAY_NUM})(?:,? ${YEAR})?\\b`, "i"), (m, ctx) => {
    const anchor = dateFromGroups(m, 2, ctx);
    return anchor ? before(anchor, m[1], ctx) : null;
  }],
  [new RegExp(`\\b(?:on |over )?the ${DAY_OR_WEEKEND} before(?=\\s*(?:[?.!,;:]|$))`, "i"), (m, ctx) => before(ctx.today, m[1], ctx)],
  // weekends: Saturday 00:00 to Monday 00:00
  [new RegExp(`\\b${COUNT_A} weekends? ago\\b`, "i"), (m, ctx) => {
    if (count(m[1]) < 1) return null;
    const sat = saturdayBefore(ctx.today);
    return weekend({ ...sat, d: sat.d - 7 * (count(m[1]) - 1) }, ctx);
  }],
  [/\b(?:(?:over|on|during) )?(?:the )?(last|this past|past|previous|this) weekend\b/i, (m, ctx) =>
    m[1].toLowerCase() === "this" ? weekend({ ...mondayOf(ctx.today), d: mondayOf(ctx.today).d + 5 }, ctx) : weekend(saturdayBefore(ctx.today), ctx)],
  // "over the weekend": the latest weekend that has begun (this one on a Saturday or Sunday)
  [/\bover the weekend\b/i, (_m, ctx) => weekend({ ...ctx.today, d: ctx.today.d - ((weekdayOf(ctx.today) + 2) % 7) }, ctx)],
  [new RegExp(`\\b(?:over|in|during|for|within)?\\s*(?:the )?(?:last|past) ${COUNT} ${UNIT}\\b`, "i"), (m, ctx) => {
    const n = count(m[1]);
    if (!(n >= 1 && n <= 120)) return null;
    const unit = m[2].toLowerCase();
    const t = ctx.today;
    const from = unit === "day" ? { ...t, d: t.d - n + 1 } : unit === "week" ? { ...t, d: t.d - 7 * n + 1 } : unit === "month" ? { ...t, m: t.m - n } : { ...t, y: t.y - n };
    const start = startOfDate(from, ctx.zone);
    const end = startOfDate({ ...t, d: t.d + 1 }, ctx.zone);
    return { start, end, level: levelFor(end - start) };
  }],
  // a fortnight is two weeks: "a fortnight ago" is the week two weeks back
  [/\b(?:a|one) fortnight ago\b/i, (_m, ctx) => weekOf({ ...ctx.today, d: ctx.today.d - 14 }, ctx)],
  [new RegExp(`\\b${COUNT_A} ${UNIT} ago\\b`, "i"), (m, ctx) => {
    const n = count(m[1]);
    const t = ctx.today;
    const unit = m[2].toLowerCase();
    if (unit === "day") return day({ ...t, d: t.d - n }, ctx);
    if (unit === "week") return weekOf({ ...t, d: t.d - 7 * n }, ctx);
    if (unit === "month") return monthSpan(t.y, t.m - n, 1, ctx);
    return monthSpan(t.y - n, 1, 12, ctx);
  }],
  [/\b(\d{4})-(\d{2})-(\d{2})\b/, (m, ctx) => (validDate(+m[1], +m[2], +m[3]) ? day({ y: +m[1], m: +m[2], d: +m[3] }, ctx) : null)],
  [/\b(\d{4})-(\d{2})\b(?!-)/, (m, ctx) => (+m[2] >= 1 && +m[2] <= 12 ? monthSpan(+m[1], +m[2], 1, ctx) : null)],
  [new RegExp(`\\b(?:the )?week of (?:the )?(?:${DAY_NUM} (?:of )?${MONTH}|${MONTH} ${DAY_NUM})(?:,? ${YEAR})?\\b`, "i"), (m, ctx) => {
    const date = m[1] ? dateOf(m[2], m[1], m[5], ctx) : dateOf(m[3], m[4], m[5], ctx);
    return date ? weekOf(date, ctx) : null;
  }],
  [new RegExp(`\\b(?:on )?(?:the )?${DAY_NUM} (?:of )?${MONTH}(?:,? ${YEAR})?\\b`, "i"), (m, ctx) => {
    const date = dateOf(m[2], m[1], m[3], ctx);
    return date ? day(date, ctx) : null;
  }],
  [new RegExp(`\\b(?:on )?${MONTH} ${DAY_NUM}(?:,? ${YEAR})?\\b`, "i"), (m, ctx) => {
    const date = dateOf(m[1], m[2], m[3], ctx);
    return date ? day(date, ctx) : null;
  }],
  [new RegExp(`\\b(?:in |during )?${MONTH},? ${YEAR}\\b`, "i"), (m, ctx) => monthSpan(+m[2], monthIndex(m[1]), 1, ctx)],
  [new RegExp(`\\b(?:in|during) ${MONTH}\\b`, "i"), (m, ctx) => {
    const mo = monthIndex(m[1]);
    return monthSpan(latest(mo, null, ctx), mo, 1, ctx);
  }],
  [new RegExp(`\\b(?:in |during )?(?:the )?q([1-4])(?:,? ${YEAR})?\\b`, "i"), (m, ctx) => {
    const q = +m[1];
    const y = m[2] ? +m[2] : (q - 1) * 3 + 1 <= ctx.today.m ? ctx.today.y : ctx.today.y - 1;
    return monthSpan(y, (q - 1) * 3 + 1, 3, ctx);
  }],
  [/\b(?:earlier )?(?:the )?(this|last|past|previous) (week|month|quarter|year)(?:'s)?\b/i, (m, ctx) => {
    const which = m[1].toLowerCase();
    const unit = m[2].toLowerCase();
    const t = ctx.today;
    if (which === "past") {
      const from = unit === "week" ? { ...t, d: t.d - 6 } : unit === "month" ? { ...t, m: t.m - 1 } : unit === "quarter" ? { ...t, m: t.m - 3 } : { ...t, y: t.y - 1 };
      const start = startOfDate(from, ctx.zone);
      const end = startOfDate({ ...t, d: t.d + 1 }, ctx.zone);
      return { start, end, level: levelFor(end - start) };
    }
    const back = which === "this" ? 0 : 1;
    if (unit === "week") return weekOf({ ...t, d: t.d - 7 * back }, ctx);
    if (unit === "month") return monthSpan(t.y, t.m - back, 1, ctx);
    if (unit === "quarter") return monthSpan(t.y, Math.floor((t.m - 1) / 3) * 3 + 1 - 3 * back, 3, ctx);
    return monthSpan(t.y - back, 1, 12, ctx);
  }],
  [new RegExp(`\\b(last|this past|on|this) ${WEEKDAY}\\b`, "i"), (m, ctx) => {
    const target = WEEKDAYS.indexOf(m[2].toLowerCase());
    const today = weekdayOf(ctx.today);
    const strict = m[1].toLowerCase() !== "on" && m[1].toLowerCase() !== "this";
    let back = (today - target + 7) % 7;
    if (back === 0 && strict) back = 7;
    return day({ ...ctx.today, d: ctx.today.d - back }, ctx);
  }],
  [/\b(?:on )?(yesterday|today|tonight|this morning|this afternoon|this evening)\b/i, (m, ctx) =>
    day({ ...ctx.today, d: ctx.today.d - (m[1].toLowerCase() === "yesterday" ? 1 : 0) }, ctx)],
];

/** Finds the first time expression in `query` (most specific pattern first) and takes it out of the text. */
export function parseTimeExpressions(query: string, now: number, zone = "UTC"): ParsedTime {
  const ctx: Context = { now, zone, today: civilDate(now, zone) };
  let span: TimeSpan | null = null;
  let text = query;
  let unreadable: string | undefined;
  for (const [pattern, resolve] of PATTERNS) {
    const m = pattern.exec(query);
    if (!m) continue;
    const resolved = resolve(m, ctx);
    if (!resolved || !(resolved.end > resolved.start)) {
      unreadable ??= m[0].trim();
      continue;
    }
    span = { ...resolved, phrase: m[0].trim() };
    text = (query.slice(0, m.index) + " " + query.slice(m.index + m[0].length)).replace(/\s+/g, " ").replace(/\s+([?.!,])/g, "$1").trim();
    break;
  }
  const evolve = EVOLVE.test(query);
  const level: WindowLevel | null = span ? (evolve && span.level !== "day" ? "month" : span.level) : evolve ? "month" : null;
  return span || !unreadable ? { text, span, level } : { text, span, level, unreadable };
}
