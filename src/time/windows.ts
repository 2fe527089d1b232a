/**
 * @module time/windows
 * The calendar windows a moment belongs to (UTC): its day, its ISO week (starting Monday) and its month.
 * The summary pyramid rolls memories up by these windows; writes mark them dirty so that only changed windows
 * are recomputed.
 */

export type WindowLevel = "day" | "week" | "month";

export interface Window {
  level: WindowLevel;
  start: number;
  end: number;
}

const DAY = 86_400_000;

export function windowsOf(ms: number): Window[] {
  const day = Math.floor(ms / DAY) * DAY;
  const weekday = (new Date(day).getUTCDay() + 6) % 7; // Monday = 0
  const week = day - weekday * DAY;
  const d = new Date(ms);
  const month = Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), 1);
  const nextMonth = Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 1);
  return [
    { level: "day", start: day, end: day + DAY },
    { level: "week", start: week, end: week + 7 * DAY },
    { level: "month", start: month, end: nextMonth },
  ];
}
