import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { fuse, rrfScore, type Ranked } from "../src/index.js";
import { demoEngine } from "./helpers.js";

const list = (...memoryIds: string[]): Ranked[] => memoryIds.map((memoryId, i) => ({ memoryId, chunkId: i + 1, score: 100 - i }));

describe("fuse", () => {
  test("a memory ranked 3rd by three channels beats one ranked 1st by a single channel (k = 60)", () => {
    const fused = fuse(
      { bm25: list("solo", "x", "steady"), dense: list("a", "b", "steady"), colbert: list("c", "d", "steady") },
      { bm25: 1, dense: 1, colbert: 1 },
      60,
    );
    const steady = fused.find((f) => f.memoryId === "steady")!;
    const solo = fused.find((f) => f.memoryId === "solo")!;
    assert.equal(steady.rrf, 3 / 63); // 0.047619...
    assert.equal(solo.rrf, 1 / 61); // 0.016393...
    assert.equal(fused[0].memoryId, "steady");
    assert.deepEqual(steady.ranks, { bm25: 3, dense: 3, colbert: 3 });
    assert.deepEqual(steady.sourcesHit, ["bm25", "dense", "colbert"]);
  });

  test("weights scale each contribution", () => {
    const [f] = fuse({ bm25: list("m"), curated: list("m") }, { bm25: 2, curated: 0.5 }, 60);
    assert.equal(f.rrf, 2 / 61 + 0.5 / 61);
  });

  test("a channel with weight 0 contributes nothing but is still listed as a source", () => {
    const fused = fuse({ bm25: list("a", "b"), dense: list("b", "a") }, { bm25: 1, dense: 0 }, 60);
    assert.deepEqual(fused.map((f) => f.memoryId), ["a", "b"]);
    assert.equal(fused[0].rrf, 1 / 61);
    assert.deepEqual(fused[0].sourcesHit, ["bm25", "dense"]);
  });

  test("chunks collapse to their memory at the best chunk's rank", () => {
    const ranked: Ranked[] = [
      { memoryId: "m1", chunkId: 11, score: 3 },
      { memoryId: "m1", chunkId: 12, score: 2 },
      { memoryId: "m2", chunkId: 21, score: 1 },
    ];
    const fused = fuse({ bm25: ranked }, { bm25: 1 }, 60);
    assert.deepEqual(fused.map((f) => [f.memoryId, f.chunkId, f.ranks.bm25]), [["m1", 11, 1], ["m2", 21, 2]]);
  });

  test("ties break deterministically: best single rank, then id", () => {
    const a = fuse({ bm25: list("z", "y"), dense: list("y", "z") }, { bm25: 1, dense: 1 }, 60);
    const b = fuse({ dense: list("y", "z"), bm25: list("z", "y") }, { bm25: 1, dense: 1 }, 60);
    assert.deepEqual(a.map((f) => f.memoryId), ["y", "z"]);
    assert.deepEqual(b.map((f) => f.memoryId), ["y", "z"]);
  });

  test("k changes how much rank 1 dominates", () => {
    assert.equal(rrfScore({ bm25: 1 }, { bm25: 1 }, 0), 1);
    assert.equal(rrfScore({ bm25: 1, dense: 2 }, { bm25: 1, dense: 1 }, 1), 1 / 2 + 1 / 3);
  });
});

describe("search results carry their own explanation", () => {
  test("every hit's rrf equals the formula recomputed from its ranks and the reported weights", async () => {
    const { engine } = await demoEngine();
    for (const q of ["configuration decision", "ECONNRESET", "fraud scoring latency", "dog headphones", "Pix webhooks"]) {
      for (const weights of [undefined, { bm25: 2, recency: 0 }]) {
        const r = await engine.recall(q, { k: 10, rrfK: 30, weights });
        assert.ok(r.hits.length > 0, q);
        for (const h of r.hits) {
          assert.deepEqual(Object.keys(h.ranks).sort(), [...h.sources_hit].sort());
          let expected = 0;
          for (const c of h.sources_hit) expected += r.channels[c]!.weight / (r.rrf_k + h.ranks[c]!);
          assert.ok(Math.abs(h.rrf - expected) < 1e-12, `${q}: ${h.rrf} vs ${expected}`);
          // score = rrf × (product of factors) + (sum of deltas)
          let score = h.rrf;
          for (const a of h.adjustments) if ("factor" in a) score *= a.factor;
          for (const a of h.adjustments) if ("delta" in a) score += a.delta;
          assert.ok(Math.abs(h.score - score) < 1e-12, `${q}: score ${h.score} vs ${score}`);
        }
        for (let i = 1; i < r.hits.length; i++) assert.ok(r.hits[i - 1].score >= r.hits[i].score);
      }
    }
    await engine.close();
  });
});
