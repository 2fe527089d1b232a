/**
 * A long text of varied English sentences, as a pasted document or a long chat export reads: people, places,
 * organisations and products by name, dates, amounts, times, changes of plan. Deterministic (seeded), so that two
 * runs time the same text. Used by bench/big-write.ts and by the test that a big write leaves the server answering.
 */
import { seededRandom } from "../src/bench/corpus.js";

const PEOPLE = ["Priya Raman", "Marcus Okafor", "Ana de la Cruz", "Jean-Luc Martin", "Dr. Ines Alves", "Sam", "Grace Liu", "Rafael van der Berg", "Mohammed bin Salman", "Lena Fischer", "Tom O'Brien", "Yuki Tanaka", "Elena", "Hector", "Aisha", "Nils Eriksson"];
const PLACES = ["Lisbon", "Aix-en-Provence", "Tasca do Chico", "Berlin", "Mt. Rainier", "the Bay Area", "Osaka", "Nairobi", "Porto", "Reykjavik", "São Paulo", "Vancouver"];
const ORGS = ["Bank of America", "PagerDuty", "the IRS", "Acme Corp", "Globex", "Initech", "the city council", "Stripe", "OpenStreetMap", "the Red Cross"];
const THINGS = ["the Lisbon trip", "the quarterly review", "standup", "the school play", "the payments-api deploy", "the kitchen renovation", "the book club", "the marathon training", "the tax filing", "the team offsite", "the dentist appointment", "the Node 20 upgrade"];
const DAYS = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"];
const MONTHS = ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December"];
const VERBS = ["moved", "postponed", "cancelled", "confirmed", "rescheduled", "booked", "discussed", "planned", "reviewed", "finished"];
const ADJ = ["quiet", "busy", "long", "short", "expensive", "cheap", "late", "early", "sunny", "rainy", "crowded", "calm"];

const TEMPLATES: ((r: () => number) => string)[] = [
  (r) => `${pick(r, PEOPLE)} ${pick(r, VERBS)} ${pick(r, THINGS)} to ${pick(r, DAYS)}, ${pick(r, MONTHS)} ${1 + Math.floor(r() * 28)}.`,
  (r) => `On ${pick(r, DAYS)} ${pick(r, PEOPLE)} met ${pick(r, PEOPLE)} at ${pick(r, PLACES)} to talk about ${pick(r, THINGS)}.`,
  (r) => `The meeting with ${pick(r, ORGS)} was ${pick(r, ADJ)}, and ${pick(r, PEOPLE)} said the budget is now $${100 + Math.floor(r() * 9900)}.`,
  (r) => `I no longer go to ${pick(r, PLACES)} on ${pick(r, DAYS)}s; ${pick(r, THINGS)} takes ${1 + Math.floor(r() * 9)} hours instead.`,
  (r) => `${pick(r, PEOPLE)} and I flew from ${pick(r, PLACES)} to ${pick(r, PLACES)} in ${pick(r, MONTHS)}, which was ${pick(r, ADJ)} but worth it.`,
  (r) => `Remember that ${pick(r, ORGS)} changed its opening hours from ${1 + Math.floor(r() * 11)} to ${1 + Math.floor(r() * 11)} pm.`,
  (r) => `Why did ${pick(r, PEOPLE)} decide to leave ${pick(r, ORGS)} after ${2 + Math.floor(r() * 20)} years?`,
  (r) => `${pick(r, THINGS)[0].toUpperCase()}${pick(r, THINGS).slice(1)} is still on for ${pick(r, DAYS)} at ${pick(r, PLACES)}, as agreed with ${pick(r, PEOPLE)}.`,
  (r) => `My favourite café in ${pick(r, PLACES)} serves ${pick(r, ADJ)} coffee, and the owner, ${pick(r, PEOPLE)}, knows every regular by name.`,
  (r) => `In Q${1 + Math.floor(r() * 4)} the team at ${pick(r, ORGS)} shipped v${1 + Math.floor(r() * 4)}.${Math.floor(r() * 10)}.${Math.floor(r() * 10)} and closed ${10 + Math.floor(r() * 90)} tickets.`,
];

function pick<T>(r: () => number, xs: T[]): T {
  return xs[Math.floor(r() * xs.length)];
}

/** About `chars` characters of varied sentences in paragraphs of five, never cut inside a sentence. */
export function bigText(chars: number, seed = 42): string {
  const r = seededRandom(seed);
  const out: string[] = [];
  let length = 0;
  while (length < chars) {
    const paragraph = Array.from({ length: 5 }, () => pick(r, TEMPLATES)(r)).join(" ");
    out.push(paragraph);
    length += paragraph.length + 2;
  }
  return out.join("\n\n");
}
