/**
 * A write survives its enrichment: when entity extraction, topic placement or revision detection throws on a
 * text, the memory is stored without what that step adds, and the answer carries a warning naming the step and
 * the reason. A failure of the store itself still fails the write.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { test } from "node:test";
import { openMemory } from "../src/index.js";
import type { RevisionJudge } from "../src/ports/judge.js";
import type { EntityExtractor } from "../src/entities/extract.js";
import { extractEntities as offline } from "../src/entities/extract.js";
import { tempDir } from "./helpers.js";

const NOW = Date.parse("2026-11-20T12:00:00Z");

/** A judge that cannot read texts naming Oslo, as a rule could fail on input it was never written for. */
const brittleJudge: RevisionJudge = {
  id: "brittle",
  provenance: "heuristic",
  async judge(older, newer) {
    if (/Oslo/.test(newer.text)) throw new TypeError("Cannot read properties of undefined (reading 'toLowerCase')");
    return { confidence: /moved/.test(newer.text) ? 0.9 : 0, reason: "test" };
  },
};

const brittleExtractor: EntityExtractor = {
  id: "brittle",
  extract(text, speaker) {
    if (/Oslo/.test(text)) throw new RangeError("Invalid array length");
    return offline(text, speaker);
  },
};

test("a memory the judge and the extractor fail on is stored, with a warning for each step", async () => {
  const engine = await openMemory({ path: join(tempDir(), "m.db"), now: NOW, judge: brittleJudge, entities: { extractor: brittleExtractor } });
  try {
    await engine.remember({ text: "My flight to Oslo is on Monday with Ingrid.", at: "2026-11-01T09:00:00Z" });
    const r = await engine.remember({ text: "My flight to Oslo moved to Tuesday (they cannot) fly Monday.", at: "2026-11-02T09:00:00Z" });
    assert.match(r.id, /^m_/);
    assert.deepEqual(r.warnings?.map((w) => w.step).sort(), ["entities", "revisions"]);
    assert.match(r.warnings!.find((w) => w.step === "revisions")!.reason, /^TypeError: Cannot read properties/);
    assert.equal((await engine.show(r.id)).text, "My flight to Oslo moved to Tuesday (they cannot) fly Monday.");
    // a batch: the one text the steps fail on is warned about by its index; its neighbours are enriched as usual
    const batch = await engine.rememberMany([
      { text: "Lunch with Priya at the canteen.", at: "2026-11-03T12:00:00Z" },
      { text: "The Oslo office moved to the harbour.", at: "2026-11-03T13:00:00Z" },
      { text: "Priya moved lunch to the park.", at: "2026-11-04T12:00:00Z" },
    ]);
    assert.equal(batch.imported, 3);
    assert.deepEqual(batch.failed, []);
    assert.deepEqual(batch.warnings.map((w) => [w.index, w.step]).sort(), [[1, "entities"], [1, "revisions"]]);
    const found = await engine.recall("Priya lunch park", { k: 3 });
    assert.ok(found.hits.some((h) => h.id === batch.ids[2]));
  } finally {
    await engine.close();
  }
});

test("a clean write carries no warnings", async () => {
  const engine = await openMemory({ path: join(tempDir(), "m.db"), now: NOW });
  try {
    const r = await engine.remember({ text: "We keep the session cache in Redis.", at: "2026-11-01T09:00:00Z" });
    assert.equal(r.warnings, undefined);
    assert.deepEqual((await engine.rememberMany([{ text: "Standup is at 9:30." }])).warnings, []);
  } finally {
    await engine.close();
  }
});
