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
 */
import { normalizeEntity } from "../entities/extract.js";
import type { EntityInfo } from "../model/entity.js";
import type { Store } from "../ports/store.js";
import { compareScored, type Scored } from "./time.js";

export interface SpeakerOptions {
  /** The share of its own score a candidate said by a person the query names gains (0: off). */
  share: number;
}

/**
 * 20%: chosen by leave-one-conversation-out on the six shared LoCoMo conversations over share {0.1, 0.15, 0.2,
 * 0.3} × channel depth {75, 100} and the step off; every fold chose 0.2 with depth 100 (docs/benchmark-notes.md).
 * Its price: a question that names the wrong person on purpose (LoCoMo's adversarial category) finds the turn
 * that answers it lower (see the notes).
 */
export const defaultSpeakers: Readonly<SpeakerOptions> = Object.freeze({ share: 0.2 });

export async function raiseNamedSpeakers(store: Pick<Store, "speakersOf">, scored: Scored[], named: EntityInfo[], o: SpeakerOptions): Promise<Scored[]> {
  if (o.share <= 0 || scored.length < 2) return scored;
  // a person is an entity seen as a speaker (entities/extract.ts); the store resolved short forms to them
  const people = new Set(named.filter((e) => e.kind === "person").map((e) => e.key));
  if (people.size === 0) return scored;
  const speakers = await store.speakersOf(scored.map((s) => s.memoryId));
  const said = scored.filter((s) => {
    const speaker = speakers.get(s.memoryId);
    return speaker !== undefined && people.has(normalizeEntity(speaker));
  });
  // nothing to tell apart: no candidate said by them, or every candidate that has a speaker is theirs
  if (said.length === 0 || said.length === speakers.size) return scored;
  const factor = 1 + o.share;
  for (const s of said) {
    s.score *= factor;
    s.adjustments.push({ reason: `said by ${speakers.get(s.memoryId)}, whom the query names`, factor });
  }
  return scored.sort(compareScored);
}
