/**
 * A question that names the kind of value it wants ("what dose", "how much does it cost", "when is") is answered
 * first by a memory that gives one, not by a short memory that only holds its words (query/answer-kind.ts).
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { test } from "node:test";
import { openMemory } from "../src/index.js";
import { tempDir } from "./helpers.js";

test("a hit giving the asked kind of value comes before one that only names the thing; other questions keep their order", async () => {
  const memory = await openMemory({ path: join(tempDir(), "kind.db"), now: Date.parse("2026-11-20T12:00:00Z"), detection: { enabled: false } });
  const say = (text: string, at: string, role = "user") => memory.remember({ text, at, user: "ada", role, speaker: role === "user" ? "ada" : "assistant" });
  try {
    const dose = await say("the clinic started me on metformin, 500mg with breakfast and dinner", "2026-11-02T09:00:00Z");
    const reminder = await say("Done: metformin reminder.", "2026-11-02T09:01:00Z", "assistant");
    await say("can you find a pharmacy open late near the station?", "2026-11-05T09:00:00Z");
    const ask = async (q: string) => (await memory.recall(q, { k: 5, filter: { user: "ada" } })).hits;
    const plain = await ask("metformin reminder");
    assert.equal(plain[0].id, reminder.id, "the short reminder matches the words best");
    const hits = await ask("What dose of metformin am I on?");
    assert.equal(hits[0].id, dose.id, "the memory that gives a dose first");
    assert.ok(hits[0].adjustments.some((a) => a.reason === "gives the kind of value the question asks for"));
    // a question that names no kind of value moves nothing
    const which = await ask("Which medication am I on?");
    assert.ok(!which.some((h) => h.adjustments.some((a) => a.reason.startsWith("gives the kind"))));
  } finally {
    await memory.close();
  }
});
