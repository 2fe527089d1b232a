/**
 * @module query/speakers
 * Who said it, an annotate step after fusion. A question that names someone who speaks in the store ("What
 * books has Melanie read?", "what did Mel decide?") is most often answered by what that person said: in the
 * shared LoCoMo conversations 97% of the evidence turns of the multi-hop questions naming one speaker are that
 * speaker's own. The channels cannot see this: the speaker's name is written in front of every turn they said
 * (ingest/prepare.ts), so in a conversation of two it is in half the chunks and weighs almost nothing, and it is
 * also in the other person's turns that address them by name.
 *
 * So a candidate said by a person the query names gains `share` of its score, listed in `adjustments`. Names
 * are read as at ingest (entities/extract.ts) and resolved through the store's aliases, so a short form
 * ("Mel") counts for the speaker it stands for. Only candidates move: the step never brings a memory in, and
 * when every candidate with a speaker would gain (both people of a conversation named) nothing changes. A
 * search of one channel (recency aside) is that channel's own ranking and is left as it is.
 *
 * In a chat between a person and an assistant, the question's "I", "my" and "me" name the person: the speaker (or
 * role) "user". On BEAM's user–assistant chats 1–10, 147 of 179 questions are answered by the user's messages
 * alone and 78% of all evidence messages are the user's, while the assistant's replies, ~17 times longer (median
 * 3,764 against 222 characters), fill most of every channel's list. So a first-person question raises what the user
 * said by `userShare` (chosen by leave-one-conversation-out, docs/BENCHMARKS.md), unless it asks what the assistant
 * did or said ("where did you book dinner for me?"). A conversation with no speaker called "user" (LoCoMo, a
 * household's named people, notes) is untouched.
 */
import { normalizeEntity } from "../entities/extract.js";
import type { EntityInfo } from "../model/entity.js";
import type { Store } from "../ports/store.js";
import { cueSpeakers } from "./cue.js";
import { compareScored, type Scored } from "./time.js";

export interface SpeakerOptions {
  /** The share of its own score a candidate said by a person the query names gains (0: off). */
  share: number;
  /** The share a candidate said by the user gains when the question speaks in the first person (0: off). */
  userShare: number;
  /** The share a note (a memory no one said) gains when it names a person who speaks in a conversational cue (0: off). */
  aboutShare: number;
}

/** The speaker (or role) a chat gives the person who talks to an assistant. */
const USER_SPEAKER = "user";

const FIRST_PERSON = /\b(i|me|my|mine|myself)\b|\bi['’](m|ve|d|ll)\b/i;

/** Whether a question speaks in the first person ("what did I decide", "my sprint"). */
export function speaksInFirstPerson(question: string): boolean {
  return FIRST_PERSON.test(question);
}

/** The one asked is the subject of something done before: "did you", "have you", "you booked", "you said". */
const ASSISTANT_DID = /\b(?:did|have|had)\s+you\b|\byou\s+(?:(?!need\b|feed\b|proceed\b|succeed\b|exceed\b)\w+ed|said|told|gave|made|found|sent|wrote|put|chose|took|bought|got|set|went|showed|brought|thought|meant|built|kept|paid)\b/i;

/**
 * Whether a question asks what the assistant did or said ("where did you book dinner for me?", "how did you
 * recommend structuring my week?"): its "me" and "my" name the user, but the answer is the assistant's own turn, so
 * the user's turns are not raised. A request ("can you", "would you suggest") is not such a question.
 */
export function asksWhatTheAssistantDid(question: string): boolean {
  return ASSISTANT_DID.test(question);
}

/**
 * share 20%: chosen by leave-one-conversation-out on the six shared LoCoMo conversations over share {0.1, 0.15,
 * 0.2, 0.3} × channel depth {75, 100} and the step off; every fold chose 0.2 with depth 100 (docs/benchmark-notes.md).
 * Its price: a question that names the wrong person on purpose (LoCoMo's adversarial category) finds the turn
 * that answers it lower (see the notes).
 * userShare 300% (the user's messages count four times for a first-person question): chosen by leave-one-conversation-out
 * on BEAM chats 1–10 over {0, 0.5, 1, 2, 3, 4} (every fold chose 3; docs/BENCHMARKS.md); LoCoMo has no speaker "user" and is unchanged.
 * aboutShare 50%: chosen by leave-one-language-out on MADial over {0, 0.5, 1, 2} with the cue's weights (query/cue.ts):
 * the Chinese fold chose 0.5 (English then 0.545), the English fold 2 (Chinese then 0.331); in-sample 0.5 gives 0.458
 * against 0.420 off. A question of one line is not a cue and is untouched.
 */
export const defaultSpeakers: Readonly<SpeakerOptions> = Object.freeze({ share: 0.2, userShare: 3, aboutShare: 0.5 });


export async function raiseNamedSpeakers(store: Pick<Store, "speakersOf" | "entities">, scored: Scored[], named: EntityInfo[], o: SpeakerOptions, question = ""): Promise<Scored[]> {
  if (scored.length < 2) return scored;
  // a person is an entity seen as a speaker (entities/extract.ts); the store resolved short forms to them
  const people = o.share > 0 ? new Set(named.filter((e) => e.kind === "person").map((e) => e.key)) : new Set<string>();
  const user = o.userShare > 0 && speaksInFirstPerson(question) && !asksWhatTheAssistantDid(question);
  const labels = o.aboutShare > 0 ? cueSpeakers(question) : [];
  if (people.size === 0 && !user && labels.length === 0) return scored;
  const speakers = await store.speakersOf(scored.map((s) => s.memoryId));
  if (labels.length) await raiseNotesAbout(store, scored, speakers, labels, 1 + o.aboutShare);
  const raise = (who: (speaker: string) => boolean, factor: number, why: (speaker: string) => string) => {
    const said = scored.filter((s) => {
      const speaker = speakers.get(s.memoryId);
      return speaker !== undefined && who(normalizeEntity(speaker));
    });
    // nothing to tell apart: no candidate said by them, or every candidate that has a speaker is theirs
    if (said.length === 0 || said.length === speakers.size) return;
    for (const s of said) {
      s.score *= factor;
      s.adjustments.push({ reason: why(speakers.get(s.memoryId)!), factor });
    }
  };
  if (people.size) raise((key) => people.has(key), 1 + o.share, (speaker) => `said by ${speaker}, whom the query names`);
  if (user) raise((key) => key === USER_SPEAKER, 1 + o.userShare, (speaker) => `said by ${speaker}, whom the question's "I" or "my" names`);
  return scored.sort(compareScored);
}

/**
 * A note no one said ("Bart danced at the Christmas party") is about the people it names: for a conversational cue,
 * a note naming a person who talks in it gains `factor`. In MADial's memory archive every memory a dialogue recalls
 * names its speaker, and about half of what the channels rank first names someone else.
 */
async function raiseNotesAbout(store: Pick<Store, "entities">, scored: Scored[], speakers: Map<string, string>, labels: string[], factor: number): Promise<void> {
  const talking = await store.entities.byKeys(labels.map(normalizeEntity));
  if (talking.length === 0) return;
  const ids = new Set(talking.map((e) => e.id));
  const notes = scored.filter((s) => !speakers.has(s.memoryId));
  const mentions = await store.entities.mentionsOf(notes.map((s) => s.memoryId));
  const about = notes.filter((s) => (mentions.get(s.memoryId) ?? []).some((e) => ids.has(e.id)));
  // nothing to tell apart: no note names them, or every note does
  if (about.length === 0 || about.length === notes.length) return;
  for (const s of about) {
    const who = (mentions.get(s.memoryId) ?? []).find((e) => ids.has(e.id))!.name;
    s.score *= factor;
    s.adjustments.push({ reason: `about ${who}, who speaks in the question's conversation`, factor });
  }
}
