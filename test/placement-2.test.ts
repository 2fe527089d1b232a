import assert from "node:assert/strict";
import { test } from "node:test";
import { emptyEngine } from "./helpers.js";
import { FITS_NOTHING_2, TO_PLACE_2, TOPICS_2 } from "./fixtures/topic-placement-2.js";

test("automatic placement on a second fixture (not fitted to): no wrong guesses, chat turns not placed", async () => {
  const { engine } = await emptyEngine();
  for (const t of TOPICS_2) {
    await engine.createTopic(t.path, { description: t.description });
    for (const s of t.seeds) await engine.remember({ text: s, topic: t.path });
  }
  let correct = 0;
  let notPlaced = 0;
  const wrong: string[] = [];
  for (const m of TO_PLACE_2) {
    const r = await engine.remember({ text: m.text });
    if (r.topic === m.topic) correct++;
    else if (r.topic === null) notPlaced++;
    else wrong.push(`${m.text} → ${r.topic}`);
  }
  const misplaced: string[] = [];
  for (const text of FITS_NOTHING_2) {
    const r = await engine.remember({ text });
    if (r.topic !== null) misplaced.push(`${text} → ${r.topic}`);
  }
  console.log(
    `# second placement fixture: ${correct} right, ${notPlaced} not placed, ${wrong.length} wrong of ${TO_PLACE_2.length}; ` +
      `${FITS_NOTHING_2.length - misplaced.length}/${FITS_NOTHING_2.length} that fit nothing not placed` +
      (wrong.length ? `\n#   wrong: ${wrong.join("; ")}` : "") +
      (misplaced.length ? `\n#   misplaced: ${misplaced.join("; ")}` : ""),
  );
  assert.ok(wrong.length <= 2, `wrong: ${wrong.join("; ")}`);
  assert.ok(misplaced.length <= 2, `misplaced: ${misplaced.join("; ")}`);
  await engine.close();
});
