/**
 * @module text/plural
 * Counts as people read them: "1 memory", "3 memories", "1 child", "0 windows". Every surface's human output
 * says its numbers through this one helper (the inspector, a separate browser bundle, keeps a copy).
 */

/** English plural of a regular noun: "memory" → "memories", "day" → "days", "match" → "matches". */
function pluralOf(noun: string): string {
  if (noun === "child") return "children";
  if (/[^aeiou]y$/.test(noun)) return `${noun.slice(0, -1)}ies`;
  if (/(?:s|x|z|ch|sh)$/.test(noun)) return `${noun}es`;
  return `${noun}s`;
}

/** The count and its noun in the right number; `plural` for an irregular noun. */
export function countOf(n: number, singular: string, plural = pluralOf(singular)): string {
  return `${n} ${n === 1 ? singular : plural}`;
}
