import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { hitAt, ndcgAt, recallAt, reciprocalRank, scoreQuestion } from "../src/index.js";

const gold = new Set(["a", "b", "c"]);

describe("retrieval metrics on hand-computed cases", () => {
  test("Recall@k with several gold items", () => {
    assert.equal(recallAt(["a", "x", "b", "y", "z", "c"], gold, 5), 2 / 3);
    assert.equal(recallAt(["a", "x", "b", "y", "z", "c"], gold, 10), 1);
    assert.equal(recallAt(["a", "a", "a"], gold, 10), 1 / 3); // a repeated hit counts once
    assert.equal(recallAt([], gold, 10), 0);
  });

  test("nDCG@10 with binary gains", () => {
    // hits at ranks 1 and 3: DCG = 1 + 1/log2(4) = 1.5; ideal for 3 gold = 1 + 1/log2(3) + 1/2
    const ideal = 1 + 1 / Math.log2(3) + 0.5;
    assert.ok(Math.abs(ndcgAt(["a", "x", "b"], gold, 10) - 1.5 / ideal) < 1e-12);
    assert.equal(ndcgAt(["a", "b", "c"], gold, 10), 1);
    assert.equal(ndcgAt(["c", "b", "a"], gold, 10), 1); // any order of all-relevant items is ideal (ties)
    assert.equal(ndcgAt(["x", "y"], gold, 10), 0);
  });

  test("MRR with no hit is 0; otherwise 1 / first relevant rank", () => {
    assert.equal(reciprocalRank(["x", "y", "z"], gold), 0);
    assert.equal(reciprocalRank(["x", "y", "c"], gold), 1 / 3);
    assert.equal(reciprocalRank(Array.from({ length: 10 }, (_, i) => `x${i}`).concat("a"), gold), 0); // beyond 10
  });

  test("Hit@10 and the bundle", () => {
    assert.equal(hitAt(["x", "b"], gold, 10), 1);
    assert.deepEqual(scoreQuestion(["x", "a"], new Set(["a"])), { "recall@5": 1, "recall@10": 1, "hit@10": 1, "ndcg@10": 1 / Math.log2(3), mrr: 0.5 });
  });
});

test("a result holding several items (a summary credited with its source turns) gains once", () => {
  const gold = new Set(["a", "b", "c"]);
  const ranked = [["x", "a", "b"], "y", "c"];
  assert.equal(recallAt(ranked, gold, 1), 2 / 3);
  assert.equal(recallAt(ranked, gold, 3), 1);
  assert.equal(hitAt([["x"], "y"], gold, 10), 0);
  assert.equal(reciprocalRank(["y", ["z", "c"]], gold), 1 / 2);
  // gains at ranks 1 and 3 against an ideal of ranks 1, 2, 3
  const ideal = 1 + 1 / Math.log2(3) + 1 / Math.log2(4);
  assert.ok(Math.abs(ndcgAt(ranked, gold, 10) - (1 + 1 / Math.log2(4)) / ideal) < 1e-12);
});
