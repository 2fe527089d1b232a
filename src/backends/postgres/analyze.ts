/**
 * @module backends/postgres/analyze
 * What the PostgreSQL store's lexical index files a text under: the same tokens SQLite's FTS5 tokenizer
 * `porter unicode61 remove_diacritics 2` would produce, so BM25 sees the same documents on both backends.
 *
 *   - words: runs of letters and digits, lowercased (text/tokenize, which mirrors unicode61 and cuts scripts
 *     written without spaces into words first);
 *   - diacritics: removed from Latin letters ("café" → "cafe"), as remove_diacritics does;
 *   - stemming: YES, Porter, through the `stemmer` package, the same one the SQLite store uses for indexKeys;
 *     like FTS5's porter tokenizer it leaves words under three characters as they are.
 *
 * Every token counts towards a document's length (stop words included), because FTS5 counts them too.
 */
import { stemmer } from "stemmer";
import { words } from "../../text/tokenize.js";

const LATIN_MARKS = /(\p{Script=Latin})\p{Mn}+/gu;

/**
 * Keys already worked out. Stemming was most of a write's own work on the client while the server waited (0.2 s
 * of every 30,000 chunks), and a corpus repeats its words; bounded by clearing it when full.
 */
const knownKeys = new Map<string, string>();
const KNOWN_KEYS_KEPT = 200_000;

/** The key one word is indexed and looked up under. */
export function indexKey(word: string): string {
  let key = knownKeys.get(word);
  if (key === undefined) {
    const folded = /[^\x00-\x7f]/.test(word) ? word.normalize("NFD").replace(LATIN_MARKS, "$1").normalize("NFC") : word;
    key = stemmer(folded);
    if (knownKeys.size >= KNOWN_KEYS_KEPT) knownKeys.clear();
    knownKeys.set(word, key);
  }
  return key;
}

/** A document as BM25 needs it: its length in tokens and each key's count. */
export interface AnalyzedText {
  length: number;
  tf: Map<string, number>;
}

export function analyze(text: string): AnalyzedText {
  const tf = new Map<string, number>();
  const all = words(text);
  for (const w of all) {
    const key = indexKey(w);
    tf.set(key, (tf.get(key) ?? 0) + 1);
  }
  return { length: all.length, tf };
}
