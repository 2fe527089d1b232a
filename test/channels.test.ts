import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { DEMO_NOW, openMemory, parseInstant } from "../src/index.js";
import { demoEngine } from "./helpers.js";

describe("each channel finds what it exists for", async () => {
  const { engine } = await demoEngine();

  test("bm25 finds exact error strings", async () => {
    for (const [query, needle] of [["ECONNRESET", "ECONNRESET"], ["E11000", "E11000"]]) {
      const r = await engine.recall(query, { channels: ["bm25"], k: 3 });
      assert.ok(r.hits.length >= 1, query);
      assert.match(r.hits[0].text, new RegExp(needle));
      assert.deepEqual(r.hits[0].sources_hit, ["bm25"]);
    }
  });

  test("dense finds a paraphrase that shares no word with the memory", async () => {
    const r = await engine.recall("puppy chewed my earphones", { channels: ["dense"], k: 3 });
    assert.match(r.hits[0].text, /dog ate my headphones/);
  });

  test("colbert finds the same paraphrase on its own (its own candidate generation)", async () => {
    const r = await engine.recall("puppy chewed my earphones", { channels: ["colbert"], k: 3 });
    assert.match(r.hits[0].text, /dog ate my headphones/);
    assert.deepEqual(r.hits[0].sources_hit, ["colbert"]);
  });

  test("colbert matches words its model does not know, exactly", async () => {
    const r = await engine.recall("E11000", { channels: ["colbert"], k: 3 });
    assert.match(r.hits[0].text, /E11000/);
  });

  test("curated finds a memory by a tag that its body never uses", async () => {
    const r = await engine.recall("runbook", { channels: ["curated"], k: 3 });
    assert.equal(r.hits[0].title, "On-call handbook: database failover");
    const body = await engine.recall("runbook", { channels: ["bm25"], k: 3 });
    assert.ok(!body.hits.some((h) => h.title === "On-call handbook: database failover"));
  });

  test("curated finds a memory by its title", async () => {
    const r = await engine.recall("retro", { channels: ["curated"], k: 5 });
    assert.deepEqual(r.hits.map((h) => h.title).sort(), ["Retro: March", "Retro: May"]);
  });

  test("recency alone returns nothing: it only orders what other channels found", async () => {
    const r = await engine.recall("configuration", { channels: ["recency"] });
    assert.deepEqual(r.hits, []);
  });

  test("recency orders candidates newest first", async () => {
    const r = await engine.recall("configuration YAML", { channels: ["bm25", "recency"], k: 10 });
    const byRecency = r.hits.filter((h) => h.ranks.recency !== undefined).sort((a, b) => a.ranks.recency! - b.ranks.recency!);
    for (let i = 1; i < byRecency.length; i++) assert.ok(byRecency[i - 1].at >= byRecency[i].at);
  });
});

describe("late interaction remembers a word's nearest corpus words", async () => {
  test("and brings them up to date as the store grows: the answer equals a fresh engine's", async () => {
    const { engine, path } = await demoEngine();
    const query = "puppy chewed my earphones";
    const first = await engine.recall(query, { channels: ["colbert"], k: 5 });
    // new words close to the query's ("pup", "gnawed", "earbuds") arrive after the expansions were remembered
    await engine.remember({ text: "The pup gnawed through both earbuds overnight.", at: "2026-05-01T09:00:00Z" });
    const again = await engine.recall(query, { channels: ["colbert"], k: 5 });
    await engine.close();
    const fresh = await openMemory({ path, now: parseInstant("now", DEMO_NOW) });
    const expected = await fresh.recall(query, { channels: ["colbert"], k: 5 });
    await fresh.close();
    const view = (r: typeof again) => r.hits.map((h) => [h.text, h.ranks.colbert, h.rrf]);
    assert.deepEqual(view(again), view(expected));
    assert.notDeepEqual(view(again), view(first), "the new memory changes the answer");
    assert.ok(again.hits.some((h) => /pup gnawed/.test(h.text)));
  });
});
