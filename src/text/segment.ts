/**
 * @module text/segment
 * Word boundaries for scripts written without spaces. FTS5's unicode61 tokenizer (and text/tokenize's word
 * pattern, which mirrors it) take a whole run of letters as one word, so "我们决定把配置文件迁移到" was a single
 * token and a search for "配置文件" found nothing. Runs of Han, Hiragana, Katakana, Thai, Lao, Khmer and Myanmar
 * are cut into words by ICU's dictionary segmenter (Node's built-in `Intl.Segmenter`), and the words joined by
 * spaces, before anything is indexed or looked up: the index and the query are cut the same way, so they meet.
 * Korean is written with spaces, but particles attach to the word ("장애가" = "장애" + "가"), so each Hangul word
 * of three or more syllables also contributes its syllable pairs ("장애 애가"), which a search for "장애" finds.
 * Text in other scripts is returned unchanged (and the check costs one regular-expression scan).
 */

const UNSPACED = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Thai}\p{Script=Lao}\p{Script=Khmer}\p{Script=Myanmar}\p{Script=Hangul}]/u;
const UNSPACED_RUN = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Thai}\p{Script=Lao}\p{Script=Khmer}\p{Script=Myanmar}\u30FC]+/gu;
const HANGUL_WORD = /\p{Script=Hangul}{3,}/gu;

let segmenter: Intl.Segmenter | undefined;

function cut(run: string): string {
  segmenter ??= new Intl.Segmenter("und", { granularity: "word" });
  const words = [...segmenter.segment(run)].filter((s) => s.isWordLike).map((s) => s.segment);
  return ` ${words.join(" ")} `;
}

function syllablePairs(word: string): string {
  const pairs: string[] = [];
  for (let i = 0; i + 1 < word.length; i++) pairs.push(word.slice(i, i + 2));
  return `${word} ${pairs.join(" ")}`;
}

/** The text with word boundaries made explicit in scripts written without spaces (see the module note). */
export function segmentScripts(text: string): string {
  if (!UNSPACED.test(text)) return text;
  return text.replace(UNSPACED_RUN, cut).replace(HANGUL_WORD, syllablePairs);
}
