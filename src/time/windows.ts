/**
 * @module time/windows
 * The calendar windows a moment belongs to — its day, its ISO week (starting Monday) and its month — in a time
 * zone (UTC unless the store was given another). The summary pyramid rolls memories up by these windows; writes
 * mark them dirty so that only changed windows are recomputed.
 */
import { invalidInput } from "../errors.js";

export type WindowLevel = "day" | "week" | "month";
export const WINDOW_LEVELS: readonly WindowLevel[] = ["day", "week", "month"];

export interface Window {
  level: WindowLevel;
  start: number;
  end: number;
}

const DAY = 86_400_000;

/** A calendar date in some zone: year, month 1-12, day 1-31. */
export interface CivilDate {
  y: number;
  m: number;
  d: number;
}

const formats = new Map<string, Intl.DateTimeFormat>();

function formatFor(zone: string): Intl.DateTimeFormat {
  let f = formats.get(zone);
  if (!f) {
    f = new Intl.DateTimeFormat("en-US", {
      timeZone: zone,
      hourCycle: "h23",
      year: "numeric",
      month: "numeric",
      day: "numeric",
      hour: "numeric",
      minute: "numeric",
      second: "numeric",
    });
    formats.set(zone, f);
  }
  return f;
}

/** The zone, checked: an IANA name such as `Europe/Berlin`, or `UTC`. */
export function validateTimeZone(field: string, zone: string): string {
  // UTC needs no formatter (offsetAt and startOfDate never ask for one), and building the first costs ~0.1 s of ICU
  if (zone === "UTC") return zone;
  try {
    formatFor(zone);
    return zone;
  } catch {
    throw invalidInput(field, `${JSON.stringify(zone)} is not a time zone (use an IANA name such as Europe/Berlin, or UTC)`);
  }
}

/** Local wall-clock time minus UTC, in ms, at instant `ms` in `zone`. */
function offsetAt(ms: number, zone: string): number {
  if (zone === "UTC") return 0;
  const p: Record<string, number> = {};
  for (const { type, value } of formatFor(zone).formatToParts(new Date(ms))) if (type !== "literal") p[type] = Number(value);
  return Date.UTC(p.year, p.month - 1, p.day, p.hour, p.minute, p.second) - Math.floor(ms / 1000) * 1000;
}

/** The calendar date of instant `ms` in `zone`. */
export function civilDate(ms: number, zone = "UTC"): CivilDate {
  const local = new Date(ms + offsetAt(ms, zone));
  return { y: local.getUTCFullYear(), m: local.getUTCMonth() + 1, d: local.getUTCDate() };
}

/** The instant local midnight begins on a date in `zone` (month and day may overflow, as with Date.UTC). */
export function startOfDate(date: CivilDate, zone = "UTC"): number {
  const wall = Date.UTC(date.y, date.m - 1, date.d);
  if (zone === "UTC") return wall;
  // the offset at the guess is right except across a change of offset; one correction settles it
  let t = wall - offsetAt(wall, zone);
  t = wall - offsetAt(t, zone);
  return t;
}

/** Monday = 0 ... Sunday = 6 of a calendar date. */
export function weekdayOf(date: CivilDate): number {
  return (new Date(Date.UTC(date.y, date.m - 1, date.d)).getUTCDay() + 6) % 7;
}

/** The window of one level holding instant `ms`. */
export function windowAt(level: WindowLevel, ms: number, zone = "UTC"): Window {
  const c = civilDate(ms, zone);
  if (level === "day") return { level, start: startOfDate(c, zone), end: startOfDate({ ...c, d: c.d + 1 }, zone) };
  if (level === "week") {
    const monday = { ...c, d: c.d - weekdayOf(c) };
    return { level, start: startOfDate(monday, zone), end: startOfDate({ ...monday, d: monday.d + 7 }, zone) };
  }
  return { level, start: startOfDate({ y: c.y, m: c.m, d: 1 }, zone), end: startOfDate({ y: c.y, m: c.m + 1, d: 1 }, zone) };
}

export function windowsOf(ms: number, zone = "UTC"): Window[] {
  return WINDOW_LEVELS.map((level) => windowAt(level, ms, zone));
}

/** The ISO 8601 week-numbering year and week of a date. */
export function isoWeek(date: CivilDate): { year: number; week: number } {
  const t = new Date(Date.UTC(date.y, date.m - 1, date.d));
  t.setUTCDate(t.getUTCDate() + 3 - ((t.getUTCDay() + 6) % 7)); // the Thursday of this week decides the year
  const year = t.getUTCFullYear();
  const week = Math.floor((t.getTime() - Date.UTC(year, 0, 1)) / DAY / 7) + 1;
  return { year, week };
}

const pad = (n: number, w = 2) => String(n).padStart(w, "0");

/** A stable name for a window: `2026-06-16`, `2026-W25`, `2026-06`. */
export function windowName(w: Pick<Window, "level" | "start">, zone = "UTC"): string {
  // the start is local midnight; a few hours in keeps the date right whatever the offset
  const c = civilDate(w.start + 12 * 3_600_000, zone);
  if (w.level === "day") return `${c.y}-${pad(c.m)}-${pad(c.d)}`;
  if (w.level === "week") {
    const { year, week } = isoWeek(c);
    return `${year}-W${pad(week)}`;
  }
  return `${c.y}-${pad(c.m)}`;
}

const MONTHS = ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December"];
const WEEKDAYS = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"];

/** A title for people: `Tuesday 16 June 2026`, `Week 2026-W25 (15-21 June 2026)`, `June 2026`. */
export function windowTitle(w: Window, zone = "UTC"): string {
  const c = civilDate(w.start + 12 * 3_600_000, zone);
  if (w.level === "day") return `${WEEKDAYS[weekdayOf(c)]} ${c.d} ${MONTHS[c.m - 1]} ${c.y}`;
  if (w.level === "week") {
    const last = civilDate(w.end - 12 * 3_600_000, zone);
    return `Week ${windowName(w, zone)} (${c.d} ${MONTHS[c.m - 1]} – ${last.d} ${MONTHS[last.m - 1]} ${last.y})`;
  }
  return `${MONTHS[c.m - 1]} ${c.y}`;
}

/**
 * How much of a window lies inside a span: the overlap over the shorter of the two, so a day inside a quarter
 * fits fully (1) and so does a quarter around a day. A summary counts as "in" a query's span from 0.5 on.
 */
export function windowFit(w: { start: number; end: number }, span: { start: number; end: number }): number {
  return (Math.min(w.end, span.end) - Math.max(w.start, span.start)) / Math.min(w.end - w.start, span.end - span.start);
}

export const MIN_WINDOW_FIT = 0.5;
