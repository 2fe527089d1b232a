import assert from "node:assert/strict";
import { test } from "node:test";
import { judgeRevision } from "../src/index.js";
import { revisionPairs2 } from "./fixtures/revision-pairs-2.js";

test("revision detection on a second fixture (not fitted to): precision and recall reported", () => {
  let tp = 0, fp = 0, fn = 0;
  const missed: string[] = [];
  const wrong: string[] = [];
  for (const p of revisionPairs2) {
    const v = judgeRevision(p.older, p.newer);
    const edge = v.confidence >= 0.8;
    if (edge && p.revises) tp++;
    if (edge && !p.revises) {
      fp++;
      wrong.push(`${p.kind}: ${p.newer} (${v.confidence})`);
    }
    if (!edge && p.revises) {
      fn++;
      missed.push(`${p.newer} (${v.confidence}: ${v.reason})`);
    }
  }
  const precision = tp / Math.max(1, tp + fp);
  const recall = tp / Math.max(1, tp + fn);
  console.log(`# second revision fixture: precision ${precision.toFixed(2)}, recall ${recall.toFixed(2)} (${tp} found, ${fn} missed, ${fp} false)` +
    (missed.length ? `\n#   missed: ${missed.join("; ")}` : "") + (wrong.length ? `\n#   false: ${wrong.join("; ")}` : ""));
  // the two revisions a new user tried are edges
  assert.ok(judgeRevision(revisionPairs2[0].older, revisionPairs2[0].newer).confidence >= 0.8);
  assert.ok(judgeRevision(revisionPairs2[1].older, revisionPairs2[1].newer).confidence >= 0.8);
  assert.ok(precision >= 0.9, `precision ${precision}`);
});

test("the two revisions a new user tried are linked on ingest, end to end", async () => {
  const { emptyEngine } = await import("./helpers.js");
  const { engine } = await emptyEngine("2026-07-01T00:00:00Z");
  for (const [older, newer] of [revisionPairs2[0], revisionPairs2[1]].map((p) => [p.older, p.newer])) {
    const a = await engine.remember({ text: older, at: "2026-03-01" });
    await engine.remember({ text: "Lunch is at noon in the big meeting room.", at: "2026-03-02" });
    const b = await engine.remember({ text: newer, at: "2026-05-01" });
    const h = await engine.history(a.id);
    assert.deepEqual(h.chain.map((c) => [c.id, c.status]), [[a.id, "superseded"], [b.id, "current"]], newer);
  }
  await engine.close();
});
