/**
 * How the offline judge reads a statement's grammar (graph/revision-parse, graph/slots): a question mark on a
 * statement does not make it a question, a modal inside a subordinate clause does not make the statement a
 * possibility, a value the sentence denies is not a value it gives, a habit's day is a standing attribute, and a
 * value kept unchanged vouches for the change beside it. Each case is checked in both directions: what it lets
 * through and what it still keeps out.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { test } from "node:test";
import { openMemory } from "../src/index.js";
import { parseMemory } from "../src/graph/revision-parse.js";
import { judgeSlots } from "../src/graph/slot-judge.js";
import { slotsOf } from "../src/graph/slots.js";
import { tempDir } from "./helpers.js";

test("a question has the form of one; surprise written with '??' on a statement is a statement", () => {
  assert.equal(parseMemory("spotify took £19.99 for the family plan this month??").irrealis, null);
  assert.equal(parseMemory("they've hiked it again?").irrealis, null);
  for (const q of ["can you add a daily reminder for my sertraline?", "So is it worth paying for a new battery?", "what time is the train?", "ok did they move it?", "It's on Friday, right?", "any good themes?"]) {
    assert.equal(parseMemory(q).irrealis, "a question", q);
  }
});

test("a modal inside a subordinate clause leaves the statement a statement; one in the main clause does not", () => {
  assert.equal(parseMemory("went with Direct Line in the end, £368 for the year, starts on the 20th when the Admiral one would've renewed").irrealis, null);
  assert.match(parseMemory("we might move the review to Friday").irrealis ?? "", /possibility/);
  assert.match(parseMemory("Direct Line could be cheaper for the year").irrealis ?? "", /possibility/);
});

test("a value the sentence denies is not one it gives", () => {
  const days = (s: string) => slotsOf(s).filter((x) => x.kind === "weekday").flatMap((x) => [...x.values]);
  assert.deepEqual(days("Clifton Physio have me on Fridays 5:30 for the rest of the block, Thursdays won't work once I'm commuting"), ["friday"]);
  assert.deepEqual(days("not Monday but Wednesday for the call"), ["wednesday"]);
  assert.deepEqual(days("the call is on Monday and the review on Wednesday"), ["monday", "wednesday"]);
});

test("a habit's new day is a change of a standing attribute; a one-off day stays a suggestion", () => {
  const older = ["physio for my knee is thursdays 5:30 at Clifton Physio, six sessions"];
  const newer = ["Clifton Physio have me on Fridays 5:30 for the rest of the block, Thursdays won't work once I'm commuting to Bath"];
  const habit = judgeSlots(older, newer);
  assert.equal(habit?.kind, "revises");
  assert.equal(habit?.confidence, 0.85);
  assert.match(habit!.reason, /thursday → friday/);
  const once = judgeSlots(["the physio session at Clifton Physio is on Thursday at 5:30"], ["the physio session at Clifton Physio is on Friday at 5:30"]);
  assert.equal(once?.kind, "revises");
  assert.equal(once?.confidence, 0.6, "one session moved may be another session: a suggestion");
});

test("a value kept unchanged lets one shared word tie the changed value to it, never a confirmation", () => {
  const older = ["five-a-side is monday nights, 8pm at Goals Bristol."];
  const moved = judgeSlots(older, ["winter league fixtures are out, we're on Wednesdays now, 8pm at Goals, all season"]);
  assert.equal(moved?.kind, "revises");
  assert.match(moved!.reason, /monday → wednesday/);
  // nothing kept: one word in common is not enough to call two days one attribute
  assert.equal(judgeSlots(older, ["pub quiz with the Goals lot is on Wednesdays"]), null);
});

test("end to end: a habit moved in other words supersedes the old day, and the present question finds the new one first", async () => {
  const memory = await openMemory({ path: join(tempDir(), "habit.db"), now: Date.parse("2026-10-20T12:00:00Z") });
  try {
    const old = await memory.remember({ text: "five-a-side is monday nights, 8pm at Goals Bristol. don't let me book anything over it", at: "2026-10-02T10:00:00Z", user: "tom", role: "user", speaker: "tom" });
    await memory.remember({ text: "can you find me a cheap dentist near Temple Meads?", at: "2026-10-05T10:00:00Z", user: "tom", role: "user", speaker: "tom" });
    const now = await memory.remember({ text: "winter league fixtures are out, we're on Wednesdays now, 8pm at Goals, all season", at: "2026-10-11T10:00:00Z", user: "tom", role: "user", speaker: "tom" });
    const edges = (await memory.list({ limit: 50 })).edges.filter((e) => e.type === "supersedes");
    assert.deepEqual(edges.map((e) => [e.from, e.to]), [[now.id, old.id]]);
    const hits = (await memory.recall("Which night is five-a-side?", { k: 5, filter: { user: "tom" } })).hits;
    assert.equal(hits[0].id, now.id);
  } finally {
    await memory.close();
  }
});

test("a long assistant reply explains rather than states: it revises nothing and nothing revises it; a short confirmation still does", async () => {
  const memory = await openMemory({ path: join(tempDir(), "explain.db"), now: Date.parse("2026-10-20T12:00:00Z") });
  const turn = (text: string, at: string, role = "assistant") => memory.remember({ text, at, user: "sam", role, speaker: role });
  try {
    const advice = [
      "Use efficient querying techniques to minimize the amount of data processed.",
      "Add an index on the date column.",
      "Keep the page size small.",
      "Cache the totals per month.",
      "Avoid selecting every column.",
      "Check the plan with EXPLAIN.",
      "Measure again after each change.",
    ].join(" ");
    const later = [
      "Certainly! Let's take a closer look at your query.",
      "This reduces the amount of data that needs to be fetched and processed.",
      "Create a new index on the type column.",
      "Then run EXPLAIN again.",
      "Keep the page size small.",
      "Cache the totals per month.",
      "Measure again after each change.",
    ].join(" ");
    await turn(advice, "2026-10-02T10:00:00Z");
    await turn(later, "2026-10-09T10:00:00Z");
    const booked = await turn("Booked your dentist check-up at Headrow Dental for Fri 9 Oct, 16:00.", "2026-10-03T10:00:00Z");
    const moved = await turn("Done: the dentist check-up is moved to Wed 14 Oct at 08:30 instead.", "2026-10-05T10:00:00Z");
    const edges = (await memory.list({ limit: 50 })).edges.filter((e) => e.type === "supersedes" && e.retracted_at === null);
    assert.deepEqual(edges.map((e) => [e.from, e.to]), [[moved.id, booked.id]]);
  } finally {
    await memory.close();
  }
});

test("a short message in fragments is read whole: the thing named in one sentence, its value in the next", () => {
  const older = ["Ravi and Jo picked a date!!", "3 May 2027.", "put it in the calendar"];
  const newer = ["the registry office only had 10 May 2027 left, so that's the date"];
  const moved = judgeSlots(older, newer);
  assert.equal(moved?.kind, "revises");
  assert.equal(moved?.confidence, 0.85, "a value both call 'the date' is one attribute's, not two events'");
  assert.equal(moved?.statement, "3 May 2027.", "the edge names the sentence giving the value: the rest of the message stays current");
  // two events' dates, neither called the date: at most a suggestion
  assert.ok((judgeSlots(["Jo's recital is on 3 May 2027.", "so proud of her"], ["the school concert is on 10 May 2027"])?.confidence ?? 0) < 0.8);
});

test("a question's values are masked when a message is read whole; the thing it names still anchors the value beside it", () => {
  const asked = ["could you set a reminder for my levothyroxine?", "75mcg before breakfast"];
  const raised = judgeSlots(asked, ["levothyroxine went up to 100mcg after the blood test"]);
  assert.equal(raised?.kind, "revises");
  assert.match(raised?.reason ?? "", /75mcg → 100mcg/);
  // the value was only asked about, never stated: nothing to revise
  assert.equal(judgeSlots(["is my levothyroxine dose 75mcg?", "I always forget"], ["levothyroxine went up to 100mcg after the blood test"]), null);
});

test("a name far from the value's noun does not make it another thing; a name that names the thing does", () => {
  const paid = judgeSlots(["council tax went out, £142 to Hillside Council"], ["council tax here is £168 a month to Southmoor District"]);
  assert.equal(paid?.kind, "revises");
  assert.equal(paid?.confidence, 0.85);
  assert.equal(judgeSlots(["the Lisbon hotel is €120 a night"], ["the Porto hotel is €95 a night"]), null);
});

test("a street is read whether its kind has a capital or not; two homes are one attribute, a venue's address is not a home", () => {
  const moved = judgeSlots(["I live at 9 Birch Avenue, Sheffield"], ["we've moved into 31 Fernbank Road now"]);
  assert.equal(moved?.kind, "revises");
  assert.match(moved?.reason ?? "", /9 birch → 31 fernbank/);
  assert.equal(judgeSlots(["your induction is at 2 Quayside Court, ask for Mo at reception"], ["address for the form: 31 Fernbank Road, S11 8YZ"]), null);
});

test("a role handed to someone new is a change of its holder, though the role is not named again", () => {
  const handed = judgeSlots(["Our team lead is Hannah Berg."], ["Hannah retired in March and Marco runs the team now"]);
  assert.equal(handed?.kind, "revises");
  assert.equal(handed?.confidence, 0.85);
  assert.match(handed?.reason ?? "", /team lead: hannah → .*marco/);
  // the holder named beside someone else, with nothing said of leaving: no change
  assert.equal(judgeSlots(["Our team lead is Hannah Berg."], ["Hannah says Marco will join the review"]), null);
  // "Is Hannah leaving?" asks
  assert.equal(judgeSlots(["Our team lead is Hannah Berg."], ["Is Hannah leaving? Marco said so"]), null);
});

test("the parts of a text that end in a question mark are what the pattern they replace matches, in one pass", async () => {
  const { questioned } = await import("../src/graph/revision-parse.js");
  const pattern = /[^.!?\n]*\?+/g;
  for (const text of ["a. b? c?", "??", "spotify took £19.99 this month?? is that right?", "no question here.", "line one?\nline two!? three", "", "?a?b.c?!", "x".repeat(50) + "?"]) {
    assert.deepEqual([...questioned(text)], [...text.matchAll(pattern)].map((m) => m[0]), JSON.stringify(text));
  }
});
