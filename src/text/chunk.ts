/**
 * @module text/chunk
 * Sentence-aware chunking: sentences (text/sentences) are packed into chunks of at most `maxChars`, and the last
 * sentence of a chunk opens the next one (overlap), so a fact cut at a boundary is still whole in one chunk. A
 * sentence longer than `maxChars` is split at word boundaries. Offsets point into the original text.
 */
import type { ChunkDraft } from "../model/types.js";
import { sentenceSpans, type Span } from "./sentences.js";

/** Splits a span longer than `maxChars` at the last whitespace before the limit (or hard, if there is none). */
/**
 * The last space at or before `from` and after `floor` (else `floor`). lastIndexOf would search on to the start
 * of the text: in a 1,000,000-character word, every cut scanned all that came before (1.3 s for one memory).
 */
function lastSpace(text: string, floor: number, from: number): number {
  for (let i = Math.min(from, text.length - 1); i > floor; i--) if (text.charCodeAt(i) === 0x20) return i;
  return floor;
}

function splitLong(text: string, span: Span, maxChars: number): Span[] {
  const out: Span[] = [];
  let start = span.start;
  while (span.end - start > maxChars) {
    let cut = lastSpace(text, start, start + maxChars);
    if (cut <= start) cut = start + maxChars;
    // never cut a surrogate pair in half
    if (/[\uD800-\uDBFF]/.test(text[cut - 1] ?? "")) cut -= 1;
    out.push({ start, end: cut });
    start = cut;
    while (start < span.end && text[start] === " ") start++;
  }
  if (span.end > start) out.push({ start, end: span.end });
  return out;
}

/** Chunks a text along its sentences (text/sentences). */
export function chunkText(text: string, opts: { maxChars: number; overlapSentences: number }, spans: Span[] = sentenceSpans(text)): ChunkDraft[] {
  const sentences = spans.flatMap((s) => splitLong(text, s, opts.maxChars));
  if (sentences.length === 0) return [];
  const chunks: ChunkDraft[] = [];
  let first = 0;
  while (first < sentences.length) {
    let last = first;
    while (last + 1 < sentences.length && sentences[last + 1].end - sentences[first].start <= opts.maxChars) last++;
    const start = sentences[first].start;
    const end = sentences[last].end;
    chunks.push({ ord: chunks.length, start, end, text: text.slice(start, end) });
    if (last + 1 >= sentences.length) break;
    // Step back for overlap, but always advance by at least one sentence.
    first = Math.max(first + 1, last + 1 - opts.overlapSentences);
  }
  return chunks;
}
