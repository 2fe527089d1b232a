/**
 * @module text/fts-query
 * Turns any user string into a safe FTS5 MATCH expression. Nothing the user typed is ever read as FTS5
 * syntax: each word becomes a double-quoted string (FTS5's literal form), joined by OR. Operators such as
 * AND, NEAR(, ^, * and : are either dropped by the word splitter or quoted into plain words.
 */
import { distinctContentWords } from "./tokenize.js";

/** Longest OR-query we send: more terms cost time and add almost nothing to a top-50 list. */
const MAX_TERMS = 32;

/** A MATCH expression, or null when the text holds no word at all (nothing to look up). */
export function toFtsQuery(text: string): string | null {
  const terms = distinctContentWords(text).slice(0, MAX_TERMS);
  if (terms.length === 0) return null;
  return terms.map((t) => `"${t.replaceAll('"', '""')}"`).join(" OR ");
}
