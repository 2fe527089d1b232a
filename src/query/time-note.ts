/**
 * @module query/time-note
 * What a search says about the time phrase in its query, so that one that matched nothing never passes
 * silently: `time` is the window that was read (and how many candidates fell in it), or null with `time_note`
 * saying why — no time phrase, a phrase that names no date ("February 30"), or a window nothing fell in.
 */
import { formatInstant } from "../time/iso.js";
import type { ParsedTime } from "../time/expressions.js";
import type { TimeJson } from "../model/types.js";

export function timeReport(time: ParsedTime | null, matched: number, hits: number): { time: TimeJson | null; time_note: string | null } {
  if (!time) return { time: null, time_note: null };
  if (!time.span) {
    return { time: null, time_note: time.unreadable ? `"${time.unreadable}" reads like a date but names none; the query was searched without a time window` : null };
  }
  const { phrase, start, end, level } = time.span;
  const window = `"${phrase}" (${formatInstant(start)} to ${formatInstant(end)})`;
  if (matched === 0) return { time: null, time_note: `${window} matched no memory${hits > 0 ? ": the results come from outside it" : ""}` };
  return { time: { phrase, start: formatInstant(start), end: formatInstant(end), level, matched }, time_note: null };
}
