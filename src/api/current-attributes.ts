/**
 * @module api/current-attributes
 * The current-state view by attribute: for each standing attribute a holder stated (a diet, an employer, a way to
 * work, an editor… graph/attributes; the person in a role, graph/slots), the value that stands now, since when, in which memory and sentence, and the
 * values it followed, newest first. "Stands" is search's rule: the stating memory is not superseded and the
 * sentence giving the value was not revised. A holder is a scope and a speaker; in an assistant's turn the value
 * said of "you" is the scope's user's, so it is filed under the speaker who speaks most in that scope apart from
 * the assistant.
 */
import { voiceOf, type AttributeValue } from "../graph/attributes.js";
import { standingValues } from "../graph/slots.js";
import { stillStands, type Supersession } from "../graph/status.js";
import { sentenceSpans } from "../text/sentences.js";
import type { Memory } from "../model/types.js";

/** One earlier value of an attribute. */
export interface AttributeValueJson {
  value: string;
  /** The memory that stated it, and when it was true from. */
  id: string;
  since: string;
}

export interface AttributeStateJson {
  /** "diet", "employer", "favourite colour", "gym", … */
  attribute: string;
  value: string;
  /** The sentence that states it. */
  text: string;
  id: string;
  since: string;
  user: string | null;
  agent: string | null;
  /** Whose attribute it is (the speaker), when the memories name one. */
  holder: string | null;
  /** Earlier values, newest first (a value said again is listed once, at its latest statement). */
  before: AttributeValueJson[];
}

interface Stated {
  memory: Memory;
  value: AttributeValue;
  holder: string | null;
  standing: boolean;
}

/** Memories newest first, with their supersession status; returns one entry per holder and attribute. */
export function attributeStates(memories: Memory[], status: Map<string, Supersession>): AttributeStateJson[] {
  const usual = usualSpeakers(memories);
  const stated: Stated[] = [];
  for (const m of memories) {
    const voice = voiceOf(m);
    const holder = voice === "assistant" ? (usual.get(scopeKey(m)) ?? null) : m.speaker;
    const s = status.get(m.id);
    for (const value of standingValues(m.text, voice)) {
      const said = m.text.slice(value.index, value.index + value.length);
      const standing = s !== undefined && stillStands(s, said);
      stated.push({ memory: m, value, holder, standing });
    }
  }
  const groups = new Map<string, Stated[]>();
  for (const x of stated) {
    const key = `${scopeKey(x.memory)}\u0000${x.holder ?? ""}\u0000${x.value.attribute}`;
    groups.set(key, [...(groups.get(key) ?? []), x]);
  }
  const out: AttributeStateJson[] = [];
  for (const list of groups.values()) {
    list.sort((a, b) => Date.parse(b.memory.at) - Date.parse(a.memory.at) || (a.memory.id < b.memory.id ? 1 : -1));
    const now = list.find((x) => x.standing);
    if (!now) continue;
    const before: AttributeValueJson[] = [];
    for (const x of list.slice(list.indexOf(now) + 1)) {
      if (x.value.value === now.value.value || before.some((b) => b.value === x.value.value)) continue;
      before.push({ value: x.value.value, id: x.memory.id, since: x.memory.at });
    }
    const m = now.memory;
    out.push({ attribute: now.value.attribute, value: now.value.value, text: sentenceAt(m.text, now.value.index), id: m.id, since: m.at, user: m.user, agent: m.agent, holder: now.holder, before });
  }
  return out.sort((a, b) => (a.user ?? "").localeCompare(b.user ?? "") || (a.holder ?? "").localeCompare(b.holder ?? "") || a.attribute.localeCompare(b.attribute));
}

const scopeKey = (m: Memory) => `${m.user ?? ""}\u0000${m.agent ?? ""}`;

/** Per scope, the speaker of most of its memories that are not the assistant's: whom the assistant's "you" is. */
function usualSpeakers(memories: Memory[]): Map<string, string> {
  const counts = new Map<string, Map<string, number>>();
  for (const m of memories) {
    if (voiceOf(m) === "assistant" || !m.speaker) continue;
    const c = counts.get(scopeKey(m)) ?? new Map<string, number>();
    c.set(m.speaker, (c.get(m.speaker) ?? 0) + 1);
    counts.set(scopeKey(m), c);
  }
  return new Map([...counts].map(([k, c]) => [k, [...c].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))[0][0]]));
}

/** The sentence of a text that holds a position (text/sentences splits it). */
function sentenceAt(text: string, index: number): string {
  const span = sentenceSpans(text).find((x) => index < x.end) ?? { start: 0, end: text.length };
  return text.slice(span.start, span.end);
}
