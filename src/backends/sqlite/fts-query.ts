/**
 * @module backends/sqlite/fts-query
 * Turns the engine's query words into a safe FTS5 MATCH expression; FTS5 syntax never leaves this backend. Nothing the user typed is ever read as
 * FTS5 syntax: the words come from text/tokenize (letters and digits only), and each becomes a double-quoted
 * string (FTS5's literal form), joined by OR. Operators such as AND, NEAR(, ^, * and : are either dropped by
 * the word splitter or quoted into plain words.
 */
/** Longest OR-query we send: more terms cost time and add almost nothing to a top-50 list. */
const MAX_TERMS = 32;

/** FTS5's literal form of one term: a double-quoted string with inner quotes doubled. */
export function quoteFtsTerm(term: string): string {
  return `"${term.replaceAll('"', '""')}"`;
}

/** A MATCH expression that ORs the words, or null when there is no word (nothing to look up). */
export function toFtsQuery(words: string[]): string | null {
  if (words.length === 0) return null;
  return words.slice(0, MAX_TERMS).map(quoteFtsTerm).join(" OR ");
}
