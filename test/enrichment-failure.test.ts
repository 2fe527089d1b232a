/**
 * A write survives its enrichment: when entity extraction, topic placement or revision detection throws on a
 * text, the memory is stored without what that step adds, and the answer carries a warning naming the step and
 * the reason. A failure of the store itself still fails the write.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { test } from "node:test";
import Database from "better-sqlite3";
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

test("a failed step is recorded with the memory, listed by doctor, and cleared by doctor --repair once the step works", async () => {
  const path = join(tempDir(), "m.db");
  let broken = true;
  const judge: RevisionJudge = {
    id: "mendable",
    provenance: "heuristic",
    async judge(_older, newer) {
      if (broken && /Oslo/.test(newer.text)) throw new TypeError("cannot read this");
      return { confidence: /moved/.test(newer.text) ? 0.9 : 0, reason: "test" };
    },
  };
  const extractor: EntityExtractor = {
    id: "mendable",
    extract(text, speaker) {
      if (broken && /Oslo/.test(text)) throw new RangeError("Invalid array length");
      return offline(text, speaker);
    },
  };
  const engine = await openMemory({ path, now: NOW, judge, entities: { extractor } });
  try {
    const first = await engine.remember({ text: "My flight to Oslo is on Monday with Ingrid.", at: "2026-11-01T09:00:00Z" });
    const second = await engine.remember({ text: "My flight to Oslo moved to Tuesday, Ingrid says.", at: "2026-11-02T09:00:00Z" });
    const raw = new Database(path, { readonly: true });
    const rows = raw.prepare("SELECT m.id, f.step, f.reason, f.attempts FROM enrichment_failures f JOIN memories m ON m.rowid = f.memory_rowid ORDER BY m.id, f.step").all();
    raw.close();
    assert.deepEqual(rows, [
      { id: first.id, step: "entities", reason: "RangeError: Invalid array length", attempts: 1 },
      { id: second.id, step: "entities", reason: "RangeError: Invalid array length", attempts: 1 },
      { id: second.id, step: "revisions", reason: "TypeError: cannot read this", attempts: 1 },
    ]);
    // what a person reads: how many, by step, the first ones with why, and what to run
    const listed = (await engine.doctor()).checks.find((c) => c.name === "enrichment")!;
    assert.equal(listed.ok, true);
    assert.match(listed.detail, /^3 failed enrichment steps wait \(entities 2, revisions 1\): /);
    assert.match(listed.detail, new RegExp(`${second.id} revisions \\(1 attempt\\): TypeError: cannot read this`));
    assert.match(listed.detail, /cascade doctor --repair` retries them$/);
    // a retry while the steps still fail counts one more attempt
    const again = (await engine.doctor({ repair: true })).checks.find((c) => c.name === "enrichment")!;
    assert.match(again.detail, /^retried 3: 0 done, 3 failed again; 3 failed enrichment steps wait/);
    assert.match(again.detail, /\(2 attempts\)/);
    broken = false;
    const repaired = (await engine.doctor({ repair: true })).checks.find((c) => c.name === "enrichment")!;
    assert.equal(repaired.detail, "retried 3: 3 done, 0 failed again; no memory waits for an enrichment step");
    assert.equal(repaired.repaired, true);
    // what the steps add is there now: the mentions, and the revision edge
    const oslo = (await engine.entities()).entities.find((e: { name: string }) => e.name === "Oslo");
    assert.ok(oslo, "Oslo is an entity after the retry");
    const graph = await engine.graph(second.id);
    assert.ok(graph.edges.some((e) => e.type === "supersedes" || e.type === "revises"), JSON.stringify(graph.edges));
  } finally {
    await engine.close();
  }
});
