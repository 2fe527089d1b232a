/**
 * @module time/iso
 * ISO 8601 instants at the boundary. A bare date means 00:00 UTC that day; a date-time without an offset is
 * read as UTC. Output drops milliseconds when they are zero: `2026-06-03T10:00:00Z`.
 */
import { invalidInput } from "../errors.js";

const ISO = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2})?)?$/i;

/** Milliseconds since the epoch, or a CascadeError naming `field`. */
export function parseInstant(field: string, value: string): number {
  const m = ISO.exec(value.trim());
  if (!m) throw invalidInput(field, `${JSON.stringify(value)} is not an ISO 8601 date or date-time (e.g. 2026-06-03 or 2026-06-03T10:00:00Z)`);
  const [, y, mo, d, h = "00", mi = "00", s = "00", frac = "", zone = "Z"] = m;
  const base = utcInstant(+y, +mo - 1, +d, +h, +mi, +s, Math.round(Number(`0${frac || ".0"}`) * 1000));
  if (base === null) throw invalidInput(field, `${JSON.stringify(value)} is not a real calendar date or time`);
  let offsetMin = 0;
  if (zone.toUpperCase() !== "Z") {
    const sign = zone[0] === "-" ? -1 : 1;
    const digits = zone.slice(1).replace(":", "");
    const [oh, om] = [Number(digits.slice(0, 2)), Number(digits.slice(2))];
    // real offsets run from -12:00 to +14:00; ±18:00 is the widest any standard library accepts
    if (oh > 18 || om > 59 || oh * 60 + om > 18 * 60) throw invalidInput(field, `${JSON.stringify(value)}: the offset ${zone} is not a real UTC offset (at most ±18:00)`);
    offsetMin = sign * (oh * 60 + om);
  }
  return base - offsetMin * 60_000;
}

/**
 * Milliseconds for a UTC calendar date and time, or null when it does not exist (30 February, 24:00, 10:61).
 * Date.UTC reads years 0-99 as 1900-1999; setUTCFullYear takes the year as written, so 0042-01-01 is year 42.
 */
export function utcInstant(year: number, month: number, day: number, hour = 0, minute = 0, second = 0, ms = 0): number | null {
  if (hour > 23 || minute > 59 || second > 59) return null;
  const date = new Date(0);
  date.setUTCFullYear(year, month, day);
  date.setUTCHours(hour, minute, second, ms);
  if (date.getUTCFullYear() !== year || date.getUTCMonth() !== month || date.getUTCDate() !== day) return null;
  return date.getTime();
}

export function formatInstant(ms: number): string {
  return new Date(ms).toISOString().replace(".000Z", "Z");
}
