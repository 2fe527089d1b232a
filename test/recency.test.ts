import assert from "node:assert/strict";
import { test } from "node:test";
import { demoEngine } from "./helpers.js";

test("recency never adds a hit that no other channel found", async () => {
  const { engine } = await demoEngine();
  // The newest memory of all, on a subject no query below is about.
  const fresh = await engine.remember({ text: "The espresso machine on floor three is descaled and working again.", at: "2026-06-19T23:00:00Z" });
  const queries = ["configuration decision", "checkout latency p95", "Pix webhook incident", "vendor for tokenisation", "ECONNRESET", "summer sale date"];
  for (const q of queries) {
    const r = await engine.recall(q, { k: 20, depth: 20 });
    for (const h of r.hits) {
      if (h.sources_hit.length === 0) {
        // no channel found it: it can only be the current successor of a stale hit, brought in by the graph
        assert.match(h.adjustments[0]?.reason ?? "", /^current successor of m_/);
        continue;
      }
      assert.ok(h.sources_hit.some((c) => c !== "recency"), `${q}: ${h.id} was found by recency alone`);
    }
    assert.ok(!r.hits.slice(0, 5).some((h) => h.id === fresh.id), `${q}: the unrelated newest memory entered the top 5`);
  }
  await engine.close();
});
