import assert from "node:assert/strict";
import { after, describe, test } from "node:test";
import { agreementWeights } from "../src/fuse/agreement.js";
import { DEMO_NOW, type Ranked } from "../src/index.js";
import { cli, cliHere, demoEngine } from "./helpers.js";

const list = (...memoryIds: string[]): Ranked[] => memoryIds.map((memoryId, i) => ({ memoryId, chunkId: i + 1, score: 100 - i }));

describe("agreementWeights", () => {
  const lists = {
    bm25: list("a", "b", "c"),
    curated: list("b", "a", "c"),
    colbert: list("a", "b", "c"),
    dense: list("x", "y", "a"),
  };

  test("the channel whose top memories the others do not share is damped; the most agreeing keep their weight", () => {
    const { weights, why } = agreementWeights(lists, { bm25: 1, curated: 1, colbert: 0.5, dense: 1 }, 60, { top: 3, floor: 0.5, full: 1 });
    // the three lexical lists share a, b and c with the fusion of the others; dense shares only a
    assert.deepEqual(why.bm25, { base: 1, shared: 3, of: 3, factor: 1 });
    assert.deepEqual(why.colbert, { base: 0.5, shared: 3, of: 3, factor: 1 });
    // raw 0.5 + 0.5 · 1/3 over the best 0.5 + 0.5 · 3/3
    assert.deepEqual(why.dense, { base: 1, shared: 1, of: 3, factor: 0.667 });
    assert.deepEqual(weights, { bm25: 1, curated: 1, colbert: 0.5, dense: 0.667 });
  });

  test("floor 1, fewer than three channels with a list, or weight 0 leave the weights as configured", () => {
    const base = { bm25: 1, curated: 1, colbert: 1, dense: 1 };
    assert.deepEqual(agreementWeights(lists, base, 60, { top: 3, floor: 1, full: 1 }), { weights: base, why: {} });
    assert.deepEqual(agreementWeights({ bm25: lists.bm25, dense: lists.dense, colbert: [] }, base, 60, { top: 3, floor: 0, full: 1 }), { weights: base, why: {} });
    assert.deepEqual(agreementWeights(lists, { ...base, colbert: 0, curated: 0 }, 60, { top: 3, floor: 0, full: 1 }).why, {});
  });

  test("recency, an ordering of the others' candidates, keeps its weight and is not compared", () => {
    const { weights, why } = agreementWeights({ ...lists, recency: list("z", "y", "x") }, { bm25: 1, curated: 1, colbert: 1, dense: 1, recency: 0.5 }, 60, { top: 3, floor: 0, full: 1 });
    assert.equal(weights.recency, 0.5);
    assert.equal(why.recency, undefined);
    assert.deepEqual(why.dense, { base: 1, shared: 1, of: 3, factor: 0.333 });
  });

  test("floor 0: a channel sharing none of its top memories gets weight 0", () => {
    const { weights } = agreementWeights({ ...lists, time: list("q", "r") }, { bm25: 1, curated: 1, colbert: 1, dense: 1, time: 1 }, 60, { top: 3, floor: 0, full: 1 });
    assert.equal(weights.time, 0);
    assert.equal(weights.bm25, 1);
  });
});

describe("search with agreement", async () => {
  const { engine, path } = await demoEngine();
  after(() => engine.close());
  const now = new Date(DEMO_NOW).toISOString();

  test("off by default: the reports carry the configured weights and no agreement", async () => {
    const r = await engine.recall("postgres connection pool", { now });
    for (const rep of Object.values(r.channels)) assert.equal(rep!.agreement, undefined);
  });

  test("on: each compared channel's report names its base weight and factor, and the weight used is their product", async () => {
    const r = await engine.recall("postgres connection pool", { now, agreement: true });
    const compared = Object.entries(r.channels).filter(([, rep]) => rep!.agreement);
    assert.ok(compared.length >= 3, `channels compared: ${compared.map(([c]) => c).join(", ")}`);
    for (const [c, rep] of compared) {
      const a = rep!.agreement!;
      assert.ok(a.shared <= a.of && a.factor > 0 && a.factor <= 1, c);
      assert.equal(rep!.weight, a.base * a.factor, c);
    }
    assert.ok(compared.some(([, rep]) => rep!.agreement!.factor === 1), "the most agreeing channel keeps its weight");
  });

  test("a mistaken value is refused naming the field", async () => {
    await assert.rejects(engine.recall("pool", { agreement: "yes" as unknown as boolean }), /agreement/);
  });

  test("the CLI's --agreement shows each compared channel's base weight, factor and shared count after the hits", async () => {
    const on = cli(["--db", path, "search", "postgres connection pool", "--agreement", "--now", now]);
    assert.equal(on.status, 0, on.stderr);
    assert.match(on.stdout, /bm25 \d+ in [\d.]+ ms \(weight [\d.]+ × [\d.]+: \d+\/\d+ of its top shared\)/);
    const off = await cliHere(["--db", path, "search", "postgres connection pool", "--no-agreement", "--now", now]);
    assert.doesNotMatch(off.stdout, /of its top shared/);
  });
});
