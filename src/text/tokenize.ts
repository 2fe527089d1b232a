/**
 * @module text/tokenize
 * The one word splitter shared by embedding, late interaction and FTS query building, so that every channel
 * agrees on what a word is. It mirrors FTS5's unicode61 tokenizer: runs of letters and digits, lowercased, after
 * scripts written without spaces were cut into words (text/segment; the indexed text is cut the same way).
 */
import { segmentScripts } from "./segment.js";
import { isStopWord } from "./stopwords.js";

const WORD = /[\p{L}\p{N}]+/gu;

/** Every word of `text`, lowercased, in order, with repeats. */
export function words(text: string): string[] {
  return segmentScripts(text).toLowerCase().match(WORD) ?? [];
}

/** The words that carry meaning: stop words dropped, unless nothing else is left. */
export function contentWords(text: string): string[] {
  const all = words(text);
  const content = all.filter((w) => !isStopWord(w));
  return content.length > 0 ? content : all;
}

/** Distinct content words in first-seen order. */
export function distinctContentWords(text: string): string[] {
  return [...new Set(contentWords(text))];
}
