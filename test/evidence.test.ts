import assert from "node:assert/strict";
import { test } from "node:test";
import { demoEngine, emptyEngine } from "./helpers.js";
import { PHYSICIAN, SOURDOUGH, physicianStore } from "./fixtures/physician-store.js";

test("recency nudges, never overrides: the physician note beats the fresh sourdough note", async () => {
  const { engine } = await emptyEngine("2026-07-01T00:00:00Z");
  await engine.rememberMany(physicianStore);
  const r = await engine.recall("doctor gave me pills for my headache", { now: "2026-07-01" });
  assert.equal(r.hits[0].text, PHYSICIAN);
  // the fresh note has no evidence for this question, so recency cannot bring it in
  assert.ok(!r.hits.some((h) => h.text === SOURDOUGH), JSON.stringify(r.hits.map((h) => [h.text, h.ranks])));
  // recency ranked only memories a channel found with evidence, not the whole store
  assert.ok(r.channels.recency!.candidates < 10, `recency ranked ${r.channels.recency!.candidates} memories`);
  await engine.close();
});

test("a query that matches nothing returns no hits", async () => {
  const { engine } = await demoEngine();
  const r = await engine.recall("zzzzqqq nonsense");
  assert.deepEqual(r.hits, []);
  // while a paraphrase with real evidence is still found
  const puppy = await engine.recall("puppy chewed my earphones");
  assert.match(puppy.hits[0].text, /dog ate my headphones/);
  await engine.close();
});

test("an older memory three channels agree on beats a fresher one that a single channel found", async () => {
  const { engine } = await emptyEngine("2026-07-01T00:00:00Z");
  const old = await engine.remember({ text: "The billing service retries a failed card charge three times before giving up.", at: "2025-01-10" });
  // fresh, and tagged "billing", but its body says nothing about retries or charges: only the curated channel finds it
  const fresh = await engine.remember({ text: "Lunch for the team moves to noon on Fridays.", tags: ["billing"], at: "2026-06-30" });
  for (const filler of ["The office plants need water on Mondays.", "Our wiki moved to a new server.", "The quarterly review is in March."]) {
    await engine.remember({ text: filler, at: "2025-06-01" });
  }
  const r = await engine.recall("how many times does billing retry a failed card charge", { now: "2026-07-01" });
  const oldHit = r.hits.find((h) => h.id === old.id)!;
  const freshHit = r.hits.find((h) => h.id === fresh.id)!;
  assert.ok(oldHit && freshHit, "both are found");
  assert.ok(["bm25", "dense", "colbert"].every((c) => oldHit.sources_hit.includes(c as never)), JSON.stringify(oldHit.ranks));
  assert.deepEqual(freshHit.sources_hit.filter((c) => c !== "recency"), ["curated"]);
  assert.equal(freshHit.ranks.recency, 1);
  assert.ok(r.hits.indexOf(oldHit) < r.hits.indexOf(freshHit));
  await engine.close();
});

test("a fresh memory with evidence beats an equally relevant old one", async () => {
  const { engine } = await emptyEngine("2026-07-01T00:00:00Z");
  const text = "The staging database password was rotated by the platform team.";
  const old = await engine.remember({ text, at: "2025-01-10" });
  const fresh = await engine.remember({ text, at: "2026-06-01" });
  await engine.remember({ text: "The production cluster runs in two regions.", at: "2025-03-01" });
  const r = await engine.recall("staging database password rotated", { now: "2026-07-01" });
  assert.deepEqual(r.hits.slice(0, 2).map((h) => h.id), [fresh.id, old.id]);
  // the channels cannot tell them apart, so they rank them alike and recency decides
  const [a, b] = r.hits;
  for (const c of ["bm25", "dense", "colbert"] as const) assert.equal(a.ranks[c], b.ranks[c], c);
  assert.ok(a.ranks.recency! < b.ranks.recency!);
  await engine.close();
});
