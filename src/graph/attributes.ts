/**
 * @module graph/attributes
 * A person's standing attributes whose value is a word of a closed class or a name, read from the statement itself:
 * a diet ("I'm vegetarian" → "put me down as pescatarian"), a way to work ("I drive in most days" → "the train …
 * SO much better than driving"), an employer ("Backend dev at Fernhill Software" → "I start at Kestrel Labs"), a
 * code editor, a phone, a laptop, an office ("my office is in Berlin" → "we moved to the Munich office"), a
 * favourite anything ("my favourite colour is green"), and what "my N is Name" says of any N ("my gym is PureGym").
 *
 * These are the attributes whose new value shares no word with the old and comes with no word of change: a vector
 * search does not bring "pescatarian" near "vegetarian", and no cue says that a start at Kestrel ends the job at
 * Fernhill. The class says it: one person has one diet, one employer, one editor at a time. Each value must be the
 * speaker's (or, in an assistant's turn, the user's "you"): "everyone there uses Zed" gives nobody's editor, and a
 * value the sentence sets aside ("better than driving", "not missing nvim") is not one it gives.
 */

/**
 * Who a text speaks for: its speaker ("I'm vegetarian"), or an assistant speaking to its user, whose values are the
 * user's only when said of "you" ("I've noted on the booking that you're vegetarian"; "Apple charges £95 for an
 * iPhone 12 battery" gives nobody's phone).
 */
export type Voice = "speaker" | "assistant";

/** The voice of a memory by its role. */
export const voiceOf = (m: { role: string | null }): Voice => (m.role === "assistant" ? "assistant" : "speaker");

export interface AttributeValue {
  /** What the value is of: "diet", "employer", "favourite colour", "gym". */
  attribute: string;
  /** The value, normalised ("pescatarian", "neovim"; a name by its first word: "Kestrel Labs" → "kestrel"). */
  value: string;
  index: number;
  length: number;
}

interface ValueClass {
  /** The attribute, or how a match names it ("favourite colour", "gym"); null when the match names none. */
  attribute: string | ((m: RegExpExecArray) => string | null);
  pattern: RegExp;
  /** The value a match gives. */
  value: (m: RegExpExecArray) => string | null;
  /** Words the sentence must hold for a match to be this attribute (a train to London is no commute). */
  context?: RegExp;
  /** A thing owned: the speaker must be named as having it ("my iPhone", "they've given me a MacBook") or it arrives. */
  owned?: boolean;
}

const FOOD_AFTER = /^[\s-]*(?:friendly|restaurants?|place|places|options?|menus?|food|dish(?:es)?|meals?|recipes?|cafe|café|burgers?|sausages?|cookbook|section|cheese|alternatives?|versions?|lasagne|curry|box|sea|coast|cruise|holiday|style)\b/i;
const DIETS: Record<string, string> = { vegetarian: "vegetarian", veggie: "vegetarian", vegan: "vegan", pescatarian: "pescatarian", pescetarian: "pescatarian", keto: "keto", paleo: "paleo", "low carb": "low carb", "low-carb": "low carb", mediterranean: "mediterranean", flexitarian: "flexitarian", carnivore: "carnivore", "plant based": "vegan", "plant-based": "vegan" };

const MODES: Record<string, string> = { drive: "car", drives: "car", driving: "car", drove: "car", car: "car", cycle: "bike", cycles: "bike", cycling: "bike", cycled: "bike", bike: "bike", biking: "bike", bus: "bus", train: "train", tube: "train", metro: "train", walk: "on foot", walks: "on foot", walking: "on foot", "e-bike": "bike", ebike: "bike" };

const EDITORS: Record<string, string> = { vscode: "vs code", "vs code": "vs code", "visual studio code": "vs code", vim: "vim", neovim: "neovim", nvim: "neovim", emacs: "emacs", zed: "zed", sublime: "sublime text", intellij: "intellij", pycharm: "pycharm", webstorm: "webstorm", cursor: "cursor", helix: "helix", xcode: "xcode" };

/** A name: up to three capitalised words, not a weekday, a month or "I". */
const NAME = "((?!(?:I|Monday|Tuesday|Wednesday|Thursday|Friday|Saturday|Sunday|January|February|March|April|May|June|July|August|September|October|November|December)\\b)[A-Z][\\w&'’-]*(?:\\s+(?:of\\s+)?[A-Z][\\w&'’-]*){0,2})";
const JOB = "(?:work(?:s|ing|ed)?\\s+(?:at|for)|job\\s+(?:at|with)|(?:dev|developer|engineer|designer|analyst|nurse|teacher|consultant|intern|scientist|accountant|lawyer|researcher|architect|pharmacist|paralegal|programmer|officer)\\s+(?:at|for)|(?:start(?:s|ing|ed)?|first\\s+(?:day|week)|new\\s+job)\\s+(?:at|with)|joined|joining|hired\\s+by|employed\\s+by)";

/** Nouns that name a person by relation (two sisters are two people, not one value changed) or that no name fills. */
const NOT_ATTRIBUTE = new Set(
  `wife husband partner spouse fiance fiancee boyfriend girlfriend son daughter child kid baby mother mom mum father dad
  parent brother sister sibling twin grandma grandmother grandpa grandfather aunt uncle cousin nephew niece friend
  roommate flatmate housemate neighbour neighbor colleague coworker teammate classmate cat dog puppy kitten rabbit
  hamster horse parrot pony favourite favorite
  manager boss supervisor doctor gp dentist landlord landlady therapist physio mentor trainer coach accountant tutor vet
  point guess plan idea question problem bet excuse worry fault turn answer`.split(/\s+/),
);

/** An hour of the day as people write it in a range: "6", "06:00", "8.30", "22". */
const HOUR = "(\\d{1,2}(?:[.:][0-5]\\d)?)";
/**
 * A range of hours on the 24-hour clock: "06:00 to 14:00" → "6-14", "8.30 to 5" → "8:30-17" (a day shift that ends
 * at a smaller hour ends in the afternoon), "22:00 to 06:00" → "22-6" (a night shift); null past 24.
 */
function hoursOf(from: string, to: string): string | null {
  const [[h1, m1], [h2, m2]] = [from, to].map((w) => w.split(/[.:]/).map(Number));
  if (h1 > 24 || h2 > 24) return null;
  const end = h1 <= 12 && h2 < h1 ? h2 + 12 : h2;
  const hour = (h: number, min: number | undefined) => (min ? `${h}:${String(min).padStart(2, "0")}` : String(h));
  return `${hour(h1, m1)}-${hour(end, m2)}`;
}

/** A name's first word stands for it: "Kestrel Labs" and "Kestrel" are one employer. */
const firstWord = (name: string) => name.toLowerCase().replace(/^the\s+/, "").split(/\s+/)[0];

const CLASSES: ValueClass[] = [
  {
    attribute: "diet",
    pattern: /\b(vegetarian|veggie|vegan|pesc[ae]tarian|keto|paleo|low[- ]carb|mediterranean|flexitarian|carnivore|plant[- ]based)\b/gi,
    value: (m) => DIETS[m[1].toLowerCase().replace(/^pesce/, "pesca")] ?? null,
  },
  {
    attribute: "diet",
    pattern: /\b(?:(?:started|start|starting|back to|went back to|going back to)\s+eating\s+(fish|meat|chicken)|eating\s+(fish|meat|chicken)\s+again)\b/gi,
    value: (m) => `eats ${(m[1] ?? m[2]).toLowerCase() === "fish" ? "fish" : "meat"}`,
  },
  {
    // a mode said as travel ("I cycle in", "by bus", "take the train", "train from X is 12 mins"): "the bike can live
    // in the hallway" and "the car's at the garage" say nothing of how someone gets to work
    attribute: "commute",
    pattern: /\b(?:(driv(?:e|es|ing)|drove|cycl(?:e|es|ing|ed)|biking|walk(?:s|ing)?|e-?bike)|by (car|bike|bus|train|tube|metro)|(?:take|takes|took|taking|get|gets|getting|catch|catches|catching|on) the (?:\d+[a-z]?\s+)?(bus|train|tube|metro)|(bus|train|tube)s? (?:to|from|into|in)|the \d+[a-z]? (bus))\b/gi,
    value: (m) => MODES[(m[1] ?? m[2] ?? m[3] ?? m[4] ?? m[5]).toLowerCase()] ?? null,
    context: /\b(?:work|office|school|college|uni|campus|town|commut\w*|most days|every day|each day|daily|work days|weekdays|(?:drive|drove|cycled?|biked?|walk(?:ed)?)\s+in)\b/i,
  },
  {
    attribute: "code editor",
    pattern: /\b([Vv][Ss] ?[Cc]ode|[Vv]isual [Ss]tudio [Cc]ode|n?vim|Vim|[Nn]eo[Vv]im|[Ee]macs|Zed|[Ss]ublime|IntelliJ|PyCharm|WebStorm|Cursor|Helix|[Xx]code)\b/g,
    value: (m) => EDITORS[m[1].toLowerCase()] ?? null,
  },
  {
    attribute: "phone",
    pattern: /\b(iphone|pixel|galaxy s\d*|oneplus|xperia|fairphone|nokia|motorola)\b/gi,
    value: (m) => m[1].toLowerCase().replace(/ s\d*$/, ""),
    owned: true,
  },
  {
    attribute: "laptop",
    pattern: /\b(thinkpad|macbook|xps|chromebook|zenbook|surface laptop|latitude|ideapad|spectre)\b/gi,
    value: (m) => m[1].toLowerCase(),
    owned: true,
  },
  {
    // a phone number said as someone's ("mobile 07700 900218", "new number: 07700 900743"): nine digits or more
    attribute: "phone number",
    pattern: /(?<![\d-])(\+?\d(?:[\s-]?\d){8,13})(?![\d-])/g,
    value: (m) => m[1].replace(/\D/g, ""),
    context: /\b(?:mobile|number|cell|phone|tel|whatsapp|text me|call me)\b/i,
  },
  {
    // an email address, a work one apart from the rest ("work email is …" → "hello@… for anything work")
    attribute: (m) => (/\bwork\b/i.test(m.input ?? "") ? "work email" : "email"),
    pattern: /\b([\w.+-]+@[\w-]+(?:\.[\w-]+)+)\b/g,
    value: (m) => m[1].toLowerCase(),
  },
  {
    attribute: "employer",
    pattern: new RegExp(`\\b${JOB}\\s+${NAME}`, "g"),
    value: (m) => firstWord(m[1]),
  },
  {
    attribute: "office",
    pattern: new RegExp(`\\b(?:(?:my|our)\\s+office\\s+(?:is\\s+|'s\\s+|’s\\s+)?(?:now\\s+)?(?:in|at)\\s+${NAME}|(?:moved|moving|move|transferred|relocat\\w+|switched|based|work)\\s+(?:to|in|at|from)\\s+(?:the|our)\\s+${NAME}\\s+office)`, "g"),
    value: (m) => firstWord(m[1] ?? m[2]),
  },
  {
    attribute: (m) => `favourite ${m[1].toLowerCase()}`,
    pattern: /\bfavou?rite\s+([a-z]+(?:\s+[a-z]+)?)\s+(?:is|'s|’s|=|:)\s+(?:now\s+|still\s+)?(?:the\s+|a\s+|an\s+)?([\w'’-]+(?:\s+[\w'’-]+){0,2}?)(?=\s*(?:[,.!?;)]|$|\s+(?:and|but|now|these|at|by|from)\b))/gi,
    value: (m) => m[2].toLowerCase(),
  },
  {
    attribute: (m) => `favourite ${m[2].toLowerCase()}`,
    pattern: /\b([\w'’-]+)\s+(?:is|are)\s+(?:now\s+)?(?:my|our)\s+(?:new\s+)?favou?rite\s+([a-z]+)\b/gi,
    value: (m) => m[1].toLowerCase(),
  },
  {
    // the hours someone works, said as a range after what they are hours of ("hours are tue-sat 9 to 6", "shift is
    // 6 to 14", "the night crew …, 22:00 to 06:00", "i'm on 14-22 for the rest of the quarter"): one person works one
    // pattern at a time. A shop's opening hours are not the speaker's (OPENING, checked in attributeValues)
    attribute: "working hours",
    pattern: new RegExp(`\\b(?:hours\\s*(?:are|is|:)|shifts?\\s*(?:is|are|:)|(?:i['’]?m|i am|we['’]?re)\\s+on|crew|shift|working)[^.!?\\d]{0,40}?${HOUR}\\s*(?:to|-|–|till|until)\\s*${HOUR}(?![\\d%]|[.:]\\d)(?=\\s*(?:$|[,.!;)]|(?:for|from|starting|shifts?|this|next|until|till|every|each|weekdays?|weekends?|on|at|plus|and|mon|tue|wed|thu|fri|sat|sun)))`, "gi"),
    value: (m) => hoursOf(m[1], m[2]),
  },
  {
    attribute: possessed,
    pattern: new RegExp(`\\b(?:[Mm]y|[Oo]ur|[Yy]our)\\s+([a-z]+)\\s+(?:is|'s|’s)\\s+(?:now\\s+)?(with\\s+|at\\s+|in\\s+|a\\s+|an\\s+|the\\s+)?${NAME}`, "g"),
    value: (m) => firstWord(m[3]),
  },
];

/** What "my N is Name" gives a value of: N ("gym"), or "N with" for a provider ("my phone's with Three"). */
function possessed(m: RegExpExecArray): string | null {
  const noun = m[1].toLowerCase();
  if (NOT_ATTRIBUTE.has(noun)) return null;
  return /^with/i.test(m[2] ?? "") && noun !== "office" ? `${noun} with` : noun;
}

/** Someone other than the speaker: "everyone there uses Zed", "my sister is vegan", "Rita drives". */
const OTHER_HOLDER = /\b(?:he|she|they|him|her|them|his|their|everyone|everybody|people|nobody|someone|my\s+(?:wife|husband|partner|sister|brother|mum|mom|dad|mother|father|son|daughter|kids?|friend|boss|manager|colleague|flatmate|roommate)['’]?s?)\b/gi;
const OTHER_NAMED = /\b[A-Z][a-z]+(?:\s+(?:is|uses|has|does|eats|drives|works)\b|['’]s\s)/g;
/** The speaker (or, in an assistant's turn, the user it speaks to). */
const SPEAKER = /\b(?:I|I'm|I’m|I've|I’ve|me|my|we|us|our|you|your|you're|you’re)\b/gi;

const SPEAKER_WORD = new RegExp(SPEAKER.source, "i");
/** The user, in an assistant's words. */
const ADDRESSED = /\b(?:you|your|you're|you’re|you've|you’ve)\b/i;

/** Whether the last holder named in a clause before a value is someone else ("they've given me a MacBook" is mine). */
export function someoneElse(clause: string): boolean {
  const others = [...clause.matchAll(OTHER_HOLDER), ...clause.matchAll(OTHER_NAMED)].map((m) => [m.index!, m.index! + m[0].length]);
  if (others.length === 0) return false;
  const lastOther = Math.max(...others.map(([a]) => a));
  const speaker = [...clause.matchAll(SPEAKER)].map((m) => m.index!).filter((i) => !others.some(([a, b]) => i >= a && i < b));
  return !speaker.some((i) => i > lastOther);
}

/** A thing that came to the speaker: "Pixel 9 arrived!!". */
const ARRIVED = /^[\w\s]{0,12}\b(?:arrived|came|is here|turned up|delivered)\b/i;

/** A thing the speaker got, the subject dropped as chats drop it: "caved and got the iPhone 15", "picked up a Pixel". */
const ACQUIRED = /(?:^|[,.!;]\s*|\band\s+)(?:got|bought|picked up|ordered|upgraded to|treated myself to)\s+(?:the\s+|a\s+|an\s+|my\s+|new\s+)*$/i;

/** A place's hours, not a person's: "opening hours are 9 to 5", "the library is open 10-4". */
const OPENING = /\b(?:opening|open|office|surgery|visiting|library|shop|store)\s+hours\b|\bopen\b/i;

/** A value said for a day or a week only. */
const TEMPORARY = /\b(?:today|tonight|tomorrow|this (?:morning|afternoon|evening|week|weekend)|for the day|for the week|while (?:the|my) \w+ (?:is|'s) (?:in|at|being))\b/i;
/** Words after a name that make it a group or an app joined, not a workplace. */
const GROUP_AFTER = /^\s*(?:club|group|call|meeting|app|channel|chat|server|community|class|league|waitlist|beta|trial|gym)\b/i;

/** Words just before a value that set it aside: "better than driving", "not missing nvim", "instead of the bus". */
const SET_ASIDE = /\b(?:than|instead of|rather than|not|no more|no longer|used to|switched from|moved from|from(?!\s+(?:(?:mon|tues|wednes|thurs|fri|satur|sun)day|today|tomorrow|tonight|now|next|then)\b)|ditched|dropped|quit|left|leaving|last day at|last day there at|without|over)\s+(?:\w+\s+){0,1}$/i;
/** Words before a value that make it not a statement of the present: "should I go keto", "thinking about the bus". */
const NOT_STATED = /\b(?:should I|thinking (?:about|of)|considering|maybe|might|if I|whether|would you|could I|try(?:ing)?|recommend|suggest)\b[^.!?]*$/i;

/** The clause a value stands in, up to the value: from the last stop, semicolon or comma-and. */
export function clauseBefore(sentence: string, index: number): string {
  const before = sentence.slice(0, index);
  const cut = Math.max(before.lastIndexOf(". "), before.lastIndexOf("; "), before.lastIndexOf("! "), before.lastIndexOf("? "), before.search(/,\s*(?:and|but|so)\s[^,]*$/));
  return cut >= 0 ? before.slice(cut + 1) : before;
}

/** The speaker's attribute values in one sentence (or short message). */
export function attributeValues(sentence: string, voice: Voice = "speaker"): AttributeValue[] {
  const out: AttributeValue[] = [];
  for (const c of CLASSES) {
    if (c.context && !c.context.test(sentence)) continue;
    for (const m of sentence.matchAll(c.pattern)) {
      const value = c.value(m as RegExpExecArray);
      const attribute = !value ? null : typeof c.attribute === "string" ? c.attribute : c.attribute(m as RegExpExecArray);
      if (!value || !attribute) continue;
      const end = m.index! + m[0].length;
      if (c.attribute === "diet" && (FOOD_AFTER.test(sentence.slice(end)) || /\bthe\s+$/i.test(sentence.slice(0, m.index)))) continue;
      if (c.attribute === "working hours" && OPENING.test(sentence.slice(Math.max(0, m.index! - 20), m.index! + 6))) continue;
      const clause = clauseBefore(sentence, m.index!);
      // a value asked about is not one stated ("are you still vegan?", "is the bus quicker?"), nor is one for a day
      // ("taking the bus to work today, the car's in the garage"): a standing attribute keeps its value
      if (/^[^.!?]*\?/.test(sentence.slice(end)) || TEMPORARY.test(sentence)) continue;
      // "a cat called Pixel" names a pet, not a phone
      if (c.owned && /\b(?:called|named)\s+$/i.test(clause)) continue;
      // a device is named with a model number or a determiner ("Pixel 9", "my pixel", "the iPhone"); a bare name is
      // a pet's or a person's ("the vet for Pixel")
      if (c.owned && !/^\s*\d/.test(sentence.slice(end)) && !/\b(?:my|the|a|an|new|your|our|his|her|their|old)\s+$/i.test(sentence.slice(0, m.index))) continue;
      if (c.owned && !(voice === "assistant" ? ADDRESSED : SPEAKER_WORD).test(clause) && !ARRIVED.test(sentence.slice(end, end + 30)) && !ACQUIRED.test(clause)) continue;
      // "joined Strava club" names a group, not an employer
      if (c.attribute === "employer" && GROUP_AFTER.test(sentence.slice(end))) continue;
      if ((voice === "assistant" ? !ADDRESSED.test(clause) : someoneElse(clause)) || SET_ASIDE.test(sentence.slice(Math.max(0, m.index! - 24), m.index)) || NOT_STATED.test(clause)) continue;
      out.push({ attribute, value, index: m.index!, length: m[0].length });
    }
  }
  return out;
}

/** Words an earlier statement of an attribute holds, to look for it in a store (its class's values and frame words). */
export function attributeSearchWords(attribute: string): string[] {
  switch (attribute) {
    case "diet":
      return ["vegetarian", "vegan", "pescatarian", "keto", "paleo", "carb", "mediterranean", "flexitarian", "diet", "meat", "fish"];
    case "commute":
      return ["drive", "driving", "cycle", "cycling", "bike", "bus", "train", "tube", "walk", "commute"];
    case "code editor":
      return ["vscode", "code", "vim", "neovim", "nvim", "emacs", "zed", "sublime", "intellij", "pycharm", "editor", "ide"];
    case "phone":
      return ["phone", "iphone", "pixel", "galaxy", "oneplus"];
    case "laptop":
      return ["laptop", "thinkpad", "macbook", "xps", "chromebook"];
    case "phone number":
      return ["mobile", "number", "phone", "cell"];
    case "email":
    case "work email":
      return ["email", "mail", "address"];
    case "manager":
      return ["manager", "boss"];
    case "working hours":
      return ["hours", "shift", "shifts", "crew", "rota", "working"];
    case "employer":
      return ["work", "job", "dev", "developer", "engineer", "designer", "joined", "company", "start", "started", "starting", "first", "hired", "offer", "employer"];
    default:
      return attribute.split(/\s+/).filter((w) => w !== "with");
  }
}

/**
 * The attribute a question that asks for the value of "my N" names: "what's my gym now?" → "gym", "who is my phone
 * contract with?" → "contract with". Only a question that asks for the value itself: "how many commits are in my
 * repository?" asks something else of it.
 */
const ASKS_VALUE = /^\s*(?:what|who|which|where)(?:'s|’s|\s+is|\s+are)\s+(?:my|your)\s+(?:[a-z]+\s+){0,2}?([a-z]+)(\s+with)?(?:\s+(?:now|these days|currently|at the moment|right now|nowadays))?\s*\??\s*$/i;

export function possessedAttribute(question: string): string | null {
  const m = ASKS_VALUE.exec(question);
  if (!m) return null;
  const noun = m[1].toLowerCase();
  if (NOT_ATTRIBUTE.has(noun)) return null;
  return m[2] ? `${noun} with` : noun;
}
