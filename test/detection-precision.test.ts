/**
 * What the offline judge must not call a change: a reply that restates the value the turn before it gave (the value
 * and the date it takes effect from are that turn's), and two habits that only share a part of the day. Each case
 * is the shape of a wrong edge drawn on a scenario written apart from the rules (test/fixtures/scenario-changes-8.jsonl).
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { openMemory } from "../src/index.js";
import { judgeRevision } from "../src/graph/cue-judge.js";

test("a value the older memory already gives is not another value", () => {
  const v = judgeRevision(
    "Felipe says the knee is better. From next week he can only see me on Wednesdays, the same hour, because on Mondays he starts at another clinic.",
    "Noted: from next week your physiotherapy with Felipe is on Wednesdays at 11:00.",
  );
  assert.ok(v.confidence < 0.5, JSON.stringify(v));
});

test("the date a change takes effect from, said by both, is one change told twice", () => {
  const v = judgeRevision("letter from the landlord. from april the flat is 2950 a month. rising costs he says", "Updated: your rent to the landlord is 2950 a month from April.");
  assert.ok(v.confidence < 0.5, JSON.stringify(v));
  // another value from a date is still a change
  const changed = judgeRevision("rent for the flat is 2800 a month to the landlord", "letter from the landlord. from april the flat is 2950 a month");
  assert.ok(changed.confidence >= 0.8, JSON.stringify(changed));
});

test("two habits on other days are not one attribute because both are in the evening", async () => {
  const dir = mkdtempSync(join(tmpdir(), "cascade-precision-"));
  const engine = await openMemory({ path: join(dir, "m.db"), now: Date.parse("2026-04-01T00:00:00Z") });
  try {
    const say = (text: string, at: string) => engine.remember({ text, at, user: "rosa", role: "user", speaker: "rosa" });
    await say("On Tuesday evenings I sing in the choir of the parish.", "2026-03-02T10:00:00Z");
    await say("The library wants me for the reading sessions with the children on Friday evenings, I said yes.", "2026-03-20T10:00:00Z");
    const edges = (await engine.list({ limit: 10 })).edges.filter((e) => e.type === "supersedes" && e.retracted_at === null);
    assert.deepEqual(edges.map((e) => e.reason), []);
  } finally {
    await engine.close();
    rmSync(dir, { recursive: true, force: true });
  }
});
