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
  const base = Date.UTC(+y, +mo - 1, +d, +h, +mi, +s, Math.round(Number(`0${frac || ".0"}`) * 1000));
  const check = new Date(base);
  if (check.getUTCFullYear() !== +y || check.getUTCMonth() !== +mo - 1 || check.getUTCDate() !== +d || +h > 23 || +mi > 59 || +s > 59) {
    throw invalidInput(field, `${JSON.stringify(value)} is not a real calendar date or time`);
  }
  let offsetMin = 0;
  if (zone.toUpperCase() !== "Z") {
    const sign = zone[0] === "-" ? -1 : 1;
    const digits = zone.slice(1).replace(":", "");
    offsetMin = sign * (Number(digits.slice(0, 2)) * 60 + Number(digits.slice(2)));
  }
  return base - offsetMin * 60_000;
}

export function formatInstant(ms: number): string {
  return new Date(ms).toISOString().replace(".000Z", "Z");
}
