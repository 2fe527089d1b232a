/**
 * @module graph/detect
 * Revision detection on ingest: for a new memory, find earlier memories it may replace (its nearest
 * neighbours that happened before it, in its scope, on the same topic when both have one), ask the judge, and
 * sort the verdicts into edges (confident), suggestions (plausible) and nothing. Scope is never crossed: Bob's
 * "no longer prefers window seats" says nothing about Alice (model/scope.ts).
 */
import { pacer } from "../event-loop.js";
import type { EdgeDraft, Suggestion } from "../model/graph.js";
import { isUnscoped, sameScope, type Scope } from "../model/scope.js";
import type { RevisionJudge, Verdict } from "../ports/judge.js";
import type { Ranked } from "../model/types.js";
import type { Store } from "../ports/store.js";
import { judgedStatements, judgeStatements, leadingSentences } from "./statements.js";
import { judgeSlotsPaced } from "./slot-judge.js";
import { attributeSearchWords, attributeValues, voiceOf, type Voice } from "./attributes.js";
import { countedWords } from "./counts.js";

export interface DetectionOptions {
  enabled: boolean;
  edgeThreshold: number;
  suggestThreshold: number;
  candidates: number;
}

export const defaultDetection: Readonly<DetectionOptions> = Object.freeze({
  enabled: true,
  /** At or above: the edge is added (provenance heuristic or llm). */
  edgeThreshold: 0.8,
  /** At or above (and below edgeThreshold): recorded as a suggestion for a person to accept or reject. */
  suggestThreshold: 0.5,
  /** Earlier neighbours judged per new memory. */
  candidates: 5,
});


export interface NewMemory extends Scope {
  id: string;
  text: string;
  at: string;
  topic: string | null;
  /** Who said it: only the same speaker's earlier memories (or ones without a speaker) can be revised by it. */
  speaker: string | null;
  /** "user", "assistant", …: in one user's scope the assistant speaks for that user (a booking it made, moved). */
  role: string | null;
  /** The conversation it was said in: an assistant's turn there acknowledges what the user just told. */
  session: string | null;
  vector: Float32Array;
}

export async function detectRevisions(
  store: Store,
  judge: RevisionJudge,
  memories: NewMemory[],
  opts: DetectionOptions,
  recordedAt: number,
): Promise<{ edges: EdgeDraft[]; suggestions: Omit<Suggestion, "id" | "status">[] }> {
  const edges: EdgeDraft[] = [];
  const suggestions: Omit<Suggestion, "id" | "status">[] = [];
  // the judge's own cheap test of a text worth judging (none: every memory is judged)
  const mayRevise = (text: string) => judge.mayRevise?.(text) ?? true;
  // a value of a standing attribute ("put me down as pescatarian") revises with no sign the judge looks for
  const attributes = new Map(memories.map((m) => [m, [...new Set(attributeValues(m.text, voiceOf(m)).map((v) => v.attribute))]]));
  // so is a count of a thing said weeks before ("4 cafecitos a day" → "two cafecitos a day")
  const counted = new Map(memories.map((m) => [m, countedWords(m.text)]));
  const judged = memories.filter((m) => (mayRevise(m.text) || attributes.get(m)!.length > 0) && !explanation(m));
  if (judged.length === 0) return { edges, suggestions };
  const near = await nearestInScope(store, judged, opts.candidates * 4);
  const recent = await recentInScope(store, judged);
  const stated = await attributeStatements(store, judged.map((m) => [m, attributes.get(m)!, counted.get(m)!]));
  // the memories found by what the new one states come first: the nearest and the recent fill the rest of its turn
  const neighbours = judged.map((m, i) => [...new Set([...stated[i], ...near[i].map((n) => n.memoryId), ...recent[i]])].filter((id) => id !== m.id));
  const all = [...new Set(neighbours.flat())];
  // summaries restate memories; they are never beliefs to revise
  const summaries = new Set((await store.pyramidNodes({ ids: all })).map((n) => n.id));
  const times = await store.eventTimes(all.filter((id) => !summaries.has(id)));
  // judging runs on the one thread, a batch's pairs one after another: a server answers others in between
  const pause = pacer();
  for (const [i, m] of judged.entries()) {
    const at = Date.parse(m.at);
    // two memories told at one instant (an import without times, a fixed --now) came in the order they were
    // written, which their ids keep (ingest/prepare.ts): the plan written first is the one the second revises
    const before = (id: string) => {
      const t = times.get(id) ?? Infinity;
      return t < at || (t === at && id < m.id);
    };
    const earlier = neighbours[i].filter((id) => !summaries.has(id) && before(id));
    // a memory already replaced whole is history: a later one restating the new value confirms that one
    const replaced = await whollySuperseded(store, earlier, edges);
    let taken = 0;
    for (const id of earlier) {
      if (taken === opts.candidates + recent[i].length + stated[i].length) break;
      if (replaced.has(id)) continue;
      await pause();
      const older = await store.getMemory(id);
      // another scope's memory does not count as a candidate (an unscoped one may sit among an unscoped memory's);
      // nor does another speaker's: a person revises their own statements, so one friend's plan never replaces
      // another's (notes have no speaker and are compared as before); in one user's scope, though, the assistant
      // states that user's bookings and plans, so its turns and the user's revise each other
      if (!older || !sameScope(older, m) || explanation(older)) continue;
      const assistantFor = m.user !== null && (older.role === "assistant" || m.role === "assistant");
      if (older.speaker && m.speaker && older.speaker !== m.speaker && !assistantFor) continue;
      taken++;
      // only topics people chose keep two memories apart: an automatic placement may be wrong
      const olderTopic = older.metadata.placement ? null : older.topic;
      if (m.topic && olderTopic && m.topic !== olderTopic) continue;
      const olderJudged = { text: older.text, at: older.at };
      const newerJudged = { text: m.text, at: m.at };
      // a rule-based judge reads statements, so a long memory is judged sentence by sentence (graph/statements.ts),
      // and the values its statements give (graph/slots.ts); a model reads the whole texts and names the statement
      const heuristic = judge.provenance === "heuristic";
      let verdict: Verdict = heuristic ? await judgeStatements(judge, olderJudged, newerJudged, mayRevise, pause) : await judge.judge(olderJudged, newerJudged);
      if (heuristic) verdict = await withSlots(verdict, judgedStatements(older.text, SLOT_OLDER), judgedStatements(m.text, SLOT_NEWER + 1), { older: voiceOf(older), newer: voiceOf(m) }, pause);
      if (verdict.confidence >= opts.edgeThreshold && heuristic && (await replacedBefore(store, edges, memories, id, verdict, m, pause))) continue;
      if (verdict.confidence >= opts.edgeThreshold) {
        edges.push({
          type: verdict.type ?? "supersedes",
          from: m.id,
          to: id,
          validFrom: at,
          validTo: null,
          recordedAt,
          provenance: judge.provenance,
          confidence: verdict.confidence,
          reason: verdict.reason,
          statement: verdict.statement ?? null,
        });
      } else if (verdict.confidence >= opts.suggestThreshold) {
        suggestions.push({ from: m.id, to: id, confidence: verdict.confidence, reason: verdict.reason, createdAt: recordedAt });
      }
    }
  }
  return { edges, suggestions };
}

/**
 * An assistant's reply of more than this many sentences explains or advises ("This reduces the amount of data
 * fetched", "Create a new directory for the blueprint"); the state of things is told by the user, or by the
 * assistant's short confirmations ("Booked: BA0816, Fri 30 Oct, 08:25"). On BEAM chats 1–10 (long tutorial replies)
 * such replies drew 456 of 480 edges, and the one labelled update linked was not among them: left out, 24 edges
 * remain, Recall@10 unchanged (0.527), nDCG@10 0.384 → 0.385 (docs/BENCHMARKS.md).
 */
const EXPLANATION_SENTENCES = 6;

const explanation = (m: { role: string | null; text: string }): boolean => m.role === "assistant" && leadingSentences(m.text, EXPLANATION_SENTENCES + 1).length > EXPLANATION_SENTENCES;

/** Earlier memories of a scoped memory's own scope looked at besides its nearest: a new address shares few words
 * with the old one, so similarity alone does not bring it up. */
const RECENT = 30;

async function recentInScope(store: Store, memories: NewMemory[]): Promise<string[][]> {
  const out: string[][] = [];
  for (const m of memories) {
    if (isUnscoped(m)) {
      out.push([]);
      continue;
    }
    const until = Date.parse(m.at);
    const { memories: listed } = await store.listMemories({ filter: { scope: { user: m.user, agent: m.agent }, until, excludeKinds: ["summary"] }, limit: RECENT, order: "desc" });
    out.push(listed.map((x) => x.id));
  }
  return out;
}

/** Earlier memories of an attribute's statements looked at per attribute a memory gives a value of. */
const STATED = 10;

/**
 * Earlier memories in a memory's scope that may state an attribute it gives a value of: the old diet or editor
 * shares no word with the new one ("vegetarian", "pescatarian"), so neither similarity nor recency brings it up;
 * the words of the attribute's class do. Likewise the earlier counts of what it counts.
 */
async function attributeStatements(store: Store, memories: [NewMemory, string[], string[]][]): Promise<string[][]> {
  const out: string[][] = [];
  for (const [m, attributes, counted] of memories) {
    if (attributes.length === 0 && counted.length === 0) {
      out.push([]);
      continue;
    }
    const words = [...new Set([...attributes.flatMap(attributeSearchWords), ...counted])];
    const filter = { scope: { user: m.user, agent: m.agent }, until: Date.parse(m.at), excludeKinds: ["summary"] };
    const found = await store.searchBody({ words, depth: STATED * (attributes.length + counted.length), filter });
    out.push([...new Set(found.map((r) => r.memoryId))]);
  }
  return out;
}

/**
 * Whether the statement of `olderId` that the new memory would replace was already replaced by a memory told before
 * it, of which the new one speaks too: then the new one confirms or revises that later statement, not the first
 * one ("Spectrum bill is $80" replaced "Spectrum, $70 a month"; "first AT&T bill came, $55" confirms the $80's
 * replacement, "$55 a month", and leaves the $70 alone). An assistant restating a change just made ("Noted: your
 * new number is …") is the common case. The later statement is read by the slots (graph/slot-judge): one that
 * gives a value of another thing in the same sentence ("I'm vegetarian, and I bus into town") keeps the edge.
 */
async function replacedBefore(
  store: Store,
  found: EdgeDraft[],
  batch: NewMemory[],
  olderId: string,
  verdict: Verdict,
  m: NewMemory,
  pause: () => Promise<void> | undefined,
): Promise<boolean> {
  const statement = verdict.statement ?? null;
  if (statement === null) return false;
  const stored = (await store.edgesTouching([olderId], "supersedes")).filter((e) => e.to === olderId && e.retractedAt === null && e.validTo === null && e.statement === statement);
  // the value that replaced the statement given again ("Noted: a standing order of 2950 zł" after "from april the flat
  // is 2950 zł") restates that change, though the two share no word the slots would tie them by
  const earlier = [...stored, ...found.filter((e) => e.type === "supersedes" && e.to === olderId && e.statement === statement)].filter((e) => e.from !== m.id);
  const given = newValues(verdict.reason);
  if (earlier.some((e) => newValues(e.reason ?? "").some((v) => given.includes(v)))) return true;
  for (const id of new Set(earlier.map((e) => e.from))) {
    const replacer = batch.find((b) => b.id === id) ?? (await store.getMemory(id));
    if (!replacer || Date.parse(replacer.at) > Date.parse(m.at)) continue;
    // the assistant acknowledging, in the same conversation, a change the user just told ("Noted - Ewelina signs off
    // your inspections, and Bartek has gone to Gdynia") restates that change; it does not replace the statement again
    if (m.role === "assistant" && m.session !== null && replacer.session === m.session && replacer.role !== "assistant") return true;
    // up to 400 sentences of the replacer read for their slots: paced, as the judging around it is
    const judged = await judgeSlotsPaced(judgedStatements(replacer.text, SLOT_OLDER), judgedStatements(m.text, SLOT_NEWER + 1), { older: voiceOf(replacer), newer: voiceOf(m) }, pause);
    if (judged) return true;
  }
  return false;
}

/** The values a rule's reason says replaced the old one ("rent (amount): 2800 → 2950" → 2950; "kasia → tomek/zielak"). */
const newValues = (reason: string): string[] => /→\s*([^\s,;()]+)/.exec(reason)?.[1].split("/") ?? [];

/** Of these memories, those a supersedes edge replaces whole (stored, or found earlier in this batch). */
async function whollySuperseded(store: Store, ids: string[], found: EdgeDraft[]): Promise<Set<string>> {
  const out = new Set(found.filter((e) => e.type === "supersedes" && !e.statement).map((e) => e.to));
  if (ids.length === 0) return out;
  for (const e of await store.edgesTouching(ids, "supersedes")) {
    if (e.retractedAt === null && e.validTo === null && !e.statement && ids.includes(e.to)) out.add(e.to);
  }
  return out;
}


/** Up to this many sentences, a memory's values are read as statements (a chat message, a note). */
const SLOT_SENTENCES = 8;
/** Sentences of the older and the newer memory whose values are compared: the cost is bounded whatever their size. */
const SLOT_OLDER = 400;
const SLOT_NEWER = 48;

/**
 * The cue judge's verdict with the slots' (graph/slots.ts): another value for an attribute of the same thing is a
 * revision whatever its wording; the same value again a confirmation, never a revision; a delay a refinement.
 */
async function withSlots(verdict: Verdict, older: string[], newer: string[], voices: { older: Voice; newer: Voice }, pause: () => Promise<void> | undefined): Promise<Verdict> {
  // a long reply or a pasted document gives many values of many things: its values are not one person's statements
  if (newer.length > SLOT_SENTENCES) return verdict;
  // a short memory against a long one reads up to 400 of its sentences: paced like the judging
  const slots = await judgeSlotsPaced(older.slice(0, SLOT_OLDER), newer.slice(0, SLOT_NEWER), voices, pause);
  if (!slots) return verdict;
  const statement = older.length > 1 && slots.statement ? slots.statement : undefined;
  if (slots.kind === "refines") return { confidence: slots.confidence, reason: slots.reason, statement, type: "refines" };
  if (slots.kind === "confirms") return verdict.confidence > 0 ? { confidence: 0, reason: `${slots.reason}, not a change (${verdict.reason})` } : verdict;
  // the judge's verdict stands, but the slots know which of the older memory's statements it revises
  if (slots.confidence <= verdict.confidence) return slots.kind === "revises" && !verdict.statement && statement ? { ...verdict, statement } : verdict;
  return { confidence: slots.confidence, reason: `another value: ${slots.reason}`, statement: verdict.statement ?? statement };
}

/**
 * The nearest chunks of each memory, unfiltered, then "earlier" in memory: a time-filtered scan would read every
 * older chunk. Unscoped memories are searched in one batch call, so that a store can search them on every core,
 * and other scopes' memories are skipped afterwards; a scoped memory is searched within its scope, since in a store
 * shared by many users its own earlier memories may be none of the nearest of all.
 */
async function nearestInScope(store: Store, memories: NewMemory[], depth: number): Promise<Ranked[][]> {
  const unscoped = memories.filter(isUnscoped);
  const batch = unscoped.length ? await store.nearestChunksMany({ vectors: unscoped.map((m) => m.vector), depth }) : [];
  let next = 0;
  const out: Ranked[][] = [];
  for (const m of memories) {
    out.push(isUnscoped(m) ? batch[next++] : await store.nearestChunks({ vector: m.vector, depth, filter: { scope: { user: m.user, agent: m.agent } } }));
  }
  return out;
}
