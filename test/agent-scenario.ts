/**
 * The one agent scenario every framework adapter's test plays with that framework's fake model: a store holds
 * Alex's old airline preference (and Bob's, which Alex's tools must never see); the model searches, reads the hit
 * the tool returned, stores the new preference as replacing it, and answers. Each adapter's test scripts the
 * model's turns in its framework's message format; the set-up and what must hold afterwards are here.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { openMemory, parseInstant, type Engine } from "../src/index.js";
import { tempDir } from "./helpers.js";

export const SCOPE = { user: "alex" } as const;
export const QUESTION = "I fly KLM to Berlin now, not Lufthansa. Please remember that.";
export const SEARCH_ARGS = { query: "which airline does the user prefer for Berlin" };
export const NEW_PREFERENCE = "Alex now prefers KLM for flights to Berlin";

export interface Seeded {
  engine: Engine;
  alexOld: string;
  bobs: string;
}

export async function seededEngine(): Promise<Seeded> {
  const engine = await openMemory({ path: join(tempDir(), "agent.db"), now: parseInstant("now", "2026-06-20T09:00:00Z") });
  const alexOld = (await engine.remember({ text: "Alex prefers Lufthansa for flights to Berlin", user: "alex", at: "2026-05-01T09:00:00Z" })).id;
  const bobs = (await engine.remember({ text: "Bob prefers Lufthansa for flights to Berlin too", user: "bob", at: "2026-05-02T09:00:00Z" })).id;
  return { engine, alexOld, bobs };
}

/** The arguments the scripted model sends to memory_add once it has read the search tool's answer. */
export function rememberArgs(searchAnswer: unknown): { text: string; supersedes: string[] } {
  const hits = (searchAnswer as { hits: { id: string }[] }).hits;
  return { text: NEW_PREFERENCE, supersedes: [hits[0].id] };
}

/** What the loop must have done: searched within Alex's scope only, stored the new preference as Alex's, superseding the old. */
export async function assertRemembered(s: Seeded, searchAnswer: unknown, addAnswer: unknown): Promise<void> {
  const found = (searchAnswer as { hits: { id: string; text: string; status: string }[] }).hits;
  assert.deepEqual(found.map((h) => h.id), [s.alexOld], "the search found Alex's memory and not Bob's");
  assert.equal(found[0].text, "Alex prefers Lufthansa for flights to Berlin");
  assert.equal(found[0].status, "current");
  const added = addAnswer as { id: string; supersedes: string[] };
  assert.deepEqual(added.supersedes, [s.alexOld]);
  const stored = await s.engine.show(added.id);
  assert.equal(stored.text, NEW_PREFERENCE);
  assert.equal(stored.user, "alex", "the write carries the tools' scope");
  const after = await s.engine.recall("airline for Berlin", { filter: { user: "alex" } });
  assert.deepEqual(after.hits.map((h) => [h.text, h.status]), [[NEW_PREFERENCE, "current"], ["Alex prefers Lufthansa for flights to Berlin", "superseded"]]);
  assert.equal((await s.engine.show(s.bobs)).status, "current", "Bob's memory is untouched");
}
