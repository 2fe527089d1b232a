/**
 * A summary sentence whose source was superseded is marked (or left out with
 * current-only) wherever summaries are shown, and a filtered search's `context` quotes only memories that pass
 * the same filter. The offsite fixture: Berlin (week W23) superseded by Prague (W24); Alice's passport number
 * and Bob's notes in the same days.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { test } from "node:test";
import { openMemory, parseInstant, type ContextEntry, type Engine } from "../src/index.js";
import { BERLIN, BOB_ROOM, OFFSITE_NOW, PASSPORT, PRAGUE, offsiteNotes } from "./fixtures/offsite.js";
import { tempDir } from "./helpers.js";

async function offsite(config: Parameters<typeof openMemory>[0] extends infer O ? Partial<O> : never = {}) {
  const path = join(tempDir(), "offsite.db");
  const engine = await openMemory({ path, now: parseInstant("now", OFFSITE_NOW), ...config });
  const { ids } = await engine.rememberMany(offsiteNotes(), { detect: false });
  await engine.settlePyramid(); // the searches read the summaries (a search does not wait for their refresh)
  const id = (text: string) => ids[offsiteNotes().findIndex((m) => m.text === text)] as string;
  return { engine, path, berlin: id(BERLIN), prague: id(PRAGUE), passport: id(PASSPORT) };
}

const contextText = (context: ContextEntry[]) => context.map((c) => c.text).join("\n");

test("context: last week's summary marks the Berlin sentence superseded by Prague; current-only leaves it out", async () => {
  const { engine, berlin, prague } = await offsite();
  const r = await engine.recall("what was planned last week");
  const week = r.context.find((c) => c.id === "p_week_2026-W23");
  assert.ok(week, `last week's summary is in context: ${JSON.stringify(r.context.map((c) => c.id))}`);
  const line = week.text.split("\n").find((l) => l.includes("Berlin"));
  assert.equal(line, `Alice: ${BERLIN} [superseded by ${prague}]`);
  const sentence = week.sentences.find((s) => s.sources.includes(berlin));
  assert.equal(sentence?.status, "superseded");
  assert.deepEqual(sentence?.superseded_by, [prague]);
  assert.ok(week.sentences.filter((s) => s !== sentence).every((s) => s.status === "current" && s.superseded_by.length === 0));

  const current = await engine.recall("what was planned last week", { currentOnly: true });
  assert.ok(!contextText(current.context).includes(BERLIN), "current-only: the superseded sentence is left out");
  assert.ok(current.context.every((c) => !c.sources.includes(berlin)));
  assert.match(contextText(current.context), /passport/, "the rest of the week stays");
  await engine.close();
});

test("pyramid show and show ID mark the superseded sentence; as of before the change it is current", async () => {
  const { engine, berlin, prague } = await offsite();
  const week = (await engine.pyramid({ level: "week" })).nodes.find((n) => n.id === "p_week_2026-W23")!;
  assert.ok(week.text.includes(`Alice: ${BERLIN} [superseded by ${prague}]`), week.text);
  assert.deepEqual(week.sentences.find((s) => s.sources.includes(berlin))?.superseded_by, [prague]);
  const shown = await engine.show("p_week_2026-W23");
  assert.equal(shown.sentences?.find((s) => s.sources.includes(berlin))?.status, "superseded");
  // before Prague was written, Berlin was the plan
  const then = await engine.recall("what was planned last week", { asOf: "2026-06-08T00:00:00Z", now: "2026-06-08T00:00:00Z" });
  const w = then.context.find((c) => c.id === "p_week_2026-W23");
  assert.ok(w, JSON.stringify(then.context.map((c) => c.id)));
  assert.ok(w.text.includes(`Alice: ${BERLIN}`) && !w.text.includes("superseded"), w.text);
  await engine.close();
});

test("a search filtered to bob quotes none of Alice's sentences in context, and the other way round", async () => {
  const { engine, passport } = await offsite();
  const bob = await engine.recall("what happened last week", { filter: { user: "bob" } });
  assert.ok(bob.context.length > 0, "bob's own sentences still come");
  assert.doesNotMatch(contextText(bob.context), /passport|X4417728|Berlin/);
  assert.match(contextText(bob.context), /conference room/);
  assert.ok(bob.context.every((c) => !c.sources.includes(passport)));
  const alice = await engine.recall("what happened last week", { filter: { user: "alice" } });
  assert.doesNotMatch(contextText(alice.context), /conference room|revenue/);
  assert.ok(alice.context.every((c) => c.sentences.every((s) => s.speaker === "Alice")));
  // a user with no memories: every window's members are out of scope, so no summary comes
  assert.deepEqual((await engine.recall("what happened last week", { filter: { user: "carol" } })).context, []);
  await engine.close();
});

test("every window of the hits (engine.context.windows always) is filtered by the search's filter too", async () => {
  const { engine } = await offsite({ context: { windows: "always", minSimilarity: -1 } });
  const r = await engine.recall("conference room booking", { filter: { user: "bob" } });
  assert.equal(r.hits[0].text, BOB_ROOM);
  assert.ok(r.context.some((c) => c.level === "day"), JSON.stringify(r.context.map((c) => c.id)));
  assert.doesNotMatch(contextText(r.context), /Alice|passport|Berlin/);
  await engine.close();
});

test("PostgreSQL (PGlite): the same mark and the same filter, through the same store port", async () => {
  const { engine, prague } = await offsite({ path: "pglite:memory" });
  const week = (await engine.recall("what was planned last week")).context.find((c) => c.id === "p_week_2026-W23");
  assert.ok(week?.text.includes(`Alice: ${BERLIN} [superseded by ${prague}]`), week?.text);
  const bob = await engine.recall("what happened last week", { filter: { user: "bob" } });
  assert.match(contextText(bob.context), /conference room/);
  assert.doesNotMatch(contextText(bob.context), /passport|Berlin in September/);
  await engine.close();
});
