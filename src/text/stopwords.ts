/**
 * @module text/stopwords
 * English function words. Dropping them from the FTS5 OR-query measured +0.049 nDCG@10 on LoCoMo and made
 * BM25 six times faster at 100,000 chunks (their posting lists are the longest); they also carry no meaning
 * for the vector channels.
 */
const WORDS = `a about above after again against all am an and any are aren as at be because been before being
below between both but by can cannot could couldn did didn do does doesn doing don down during each few for from
further had hadn has hasn have haven having he her here hers herself him himself his how i if in into is isn it
its itself just let ll me more most mustn my myself no nor not now of off on once only or other ought our ours
ourselves out over own re s same shan she should shouldn so some such t than that the their theirs them
themselves then there these they this those through to too under until up us ve very was wasn we were weren
what when where which while who whom why will with won would wouldn you your yours yourself yourselves d m o y
also just really got get gets getting yeah oh hey hi ok okay`;

export const STOP_WORDS: ReadonlySet<string> = new Set(WORDS.split(/\s+/).filter(Boolean));

export function isStopWord(word: string): boolean {
  return STOP_WORDS.has(word);
}
