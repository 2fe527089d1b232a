/**
 * @module graph/addresses
 * Street addresses as the slots read them (graph/slots): "14 Alder Street", a postcode ("LS6 1RL"), and a home's
 * street said without its number ("I rent a flat on Cathedral Road in Pontcanna"). Whether a sentence makes its
 * address someone's home (lived at, moved into, the keys, a delivery address, "WE'RE IN.") rather than a venue's
 * decides whether two addresses are one attribute: two homes are, a venue's address is the venue's.
 */
import { clauseBefore, someoneElse, type Voice } from "./attributes.js";
import { inLexicon } from "../text/wink.js";

export interface FoundAddress {
  /** Normalised: "14 alder", a postcode without spaces ("ls61rl"), or a street's name alone ("cathedral"). */
  value: string;
  index: number;
  length: number;
}

const STREET_KINDS = "street st road rd lane ln avenue ave wharf close drive dr way place pl square sq terrace crescent court ct gardens grove row hill park boulevard blvd mews walk parade".split(" ");
/** A kind of street written with a capital or without ("Street", "street"). */
const KIND = STREET_KINDS.map((w) => `[${w[0]}${w[0].toUpperCase()}]${w.slice(1)}`).join("|");
/** "14 Alder Street", "41 ladywood road": its name's words capitalised or held by no dictionary (`nameLike`). */
const STREET = new RegExp(`\\b(\\d{1,4}[a-z]?),?\\s+((?:\\p{L}[\\p{L}\\d'’-]*\\s+){1,3})(${KIND})\\b`, "gu");
const POSTCODE = /\b([A-Z]{1,2}\d[A-Z\d]?\s?\d[A-Z]{2}|[A-Z]\d[A-Z]\s?\d[A-Z]\d|[A-Z]\d{2}\s?[A-Z\d]{4})\b/g;
/** A street named without its number: "on Cathedral Road". */
const NAMED_STREET = new RegExp(`\\b(?:on|in|at|off)\\s+((?:\\p{L}[\\p{L}\\d'’-]*\\s+){1,3})(${KIND})\\b`, "gu");
const NAMES_STREET = new RegExp(NAMED_STREET.source, "u");
/**
 * A street's name, not words before "road" ("5 minutes down the road"): each word capitalised, or in a chat written in
 * lowercase, the first one held by no dictionary ("ladywood road", "brudenell road").
 */
const nameLike = (name: string): boolean => {
  const words = name.trim().split(/\s+/);
  return words.every((w) => /^\p{Lu}/u.test(w)) || (!inLexicon(words[0]) && !/^\d/.test(words[0]));
};
/** Words that make an address someone's home rather than a venue's ("your first day at Kestrel Labs: 4 Kingsmead Square"). */
const HOME = /\b(?:live[sd]?|living|home|flat|house|apartment|moved|moving|keys|address|postcode|deliver\w*|rent(?:s|ing)?|we['’]re in(?=\s*[.!])|first night (?:at|in))\b|🏡|🏠/iu;
/** Lived in, not passed or viewed: "I rent a flat on Cathedral Road", not "drops me on Park Row by the office". */
const LIVES_BEFORE = /\b(?:live[sd]?|living|rent(?:s|ing)?|own|moved into)\b[^.,;!?]{0,30}$/i;

/** Whether a sentence says its address is a home. */
export const isHome = (sentence: string): boolean => HOME.test(sentence);

/** A cheap look: a sentence that may name a street without its number (it holds no digit to be looked at for). */
export const mayNameStreet = (sentence: string): boolean => NAMES_STREET.test(sentence);

/** "cathedral" (a street said without its number) is the same street as "14 cathedral". */
export const sameStreet = (v: string, values: Set<string>): boolean => [...values].some((x) => x.endsWith(` ${v}`) || v.endsWith(` ${x}`));

/** The addresses a sentence gives: numbered streets, else a postcode, else a home's street named without a number. */
export function addressesIn(sentence: string, voice: Voice = "speaker"): FoundAddress[] {
  const out: FoundAddress[] = [];
  for (const m of sentence.matchAll(STREET)) if (nameLike(m[2])) out.push({ value: `${m[1].toLowerCase()} ${m[2].trim().toLowerCase()}`, index: m.index!, length: m[0].length });
  for (const m of sentence.matchAll(POSTCODE)) {
    // a flight or product code looks like a postcode only without a letter pair at its end
    if (!/\d[A-Z]{2}$|[A-Z]\d[A-Z]\d$|^[A-Z]\d{2}/.test(m[1].replace(/\s/g, ""))) continue;
    if (out.length === 0) out.push({ value: m[1].replace(/\s/g, "").toLowerCase(), index: m.index!, length: m[0].length });
  }
  if (out.length > 0 || !isHome(sentence)) return out;
  for (const m of sentence.matchAll(NAMED_STREET)) {
    const before = sentence.slice(Math.max(0, m.index! - 40), m.index);
    if (!nameLike(m[1]) || !LIVES_BEFORE.test(before) || (voice === "speaker" && someoneElse(clauseBefore(sentence, m.index!)))) continue;
    out.push({ value: m[1].trim().toLowerCase(), index: m.index!, length: m[0].length });
  }
  return out;
}
