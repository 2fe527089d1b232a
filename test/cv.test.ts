import assert from "node:assert/strict";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { leaveOneOut, type Metrics } from "../src/index.js";
import { cli, cliHere, tempDir } from "./helpers.js";

const m = (r: number): Metrics => ({ "recall@5": r, "recall@10": r, "hit@10": r, "ndcg@10": r, mrr: r });

test("leave-one-out chooses on the other conversations and scores the held-out one", () => {
  // three conversations of two questions; setting 1 wins conversations 0 and 1 by a little, loses 2 by a lot
  const questions = [0, 0, 1, 1, 2, 2].map((group) => ({ group, category: "1" }));
  const scores = [
    [0.5, 0.5, 0.5, 0.5, 0.9, 0.9].map(m), // setting 0 (the default)
    [0.6, 0.6, 0.6, 0.6, 0.1, 0.1].map(m), // setting 1
  ];
  const convs = ["a", "b", "c"];
  const r = leaveOneOut(scores, questions, ["default", "other"], convs, "recall@10");
  // holding out a: on b+c the default averages 0.7 against 0.35, so the default is chosen and scores 0.5 on a
  assert.deepEqual(r.folds.map((f) => f.chosen), ["default", "default", "other"]);
  assert.deepEqual(r.folds.map((f) => f.test["recall@10"]), [0.5, 0.5, 0.1]);
  assert.equal(r.cross_validated["recall@10"], 0.3667);
  assert.equal(r.best_in_sample.setting, "default");
  assert.equal(r.default["recall@10"], 0.6333);
  // equal training scores keep the earlier setting: a change must earn its place
  const tie = leaveOneOut([scores[0], scores[0]], questions, ["default", "same"], convs, "recall@10");
  assert.ok(tie.folds.every((f) => f.chosen === "default"));
});

const conversation = (speaker: string, pet: string) => ({
  speaker_a: speaker,
  speaker_b: "Ben",
  session_1_date_time: "1:56 pm on 8 May, 2023",
  session_1: [
    { speaker, dia_id: "D1:1", text: `I adopted a greyhound called ${pet} last week.` },
    { speaker: "Ben", dia_id: "D1:2", text: "Congratulations! I started learning the cello." },
  ],
  qa: [
    { question: `What is the name of ${speaker}'s greyhound?`, answer: pet, evidence: ["D1:1"], category: 4 },
    { question: "Which instrument is Ben learning?", answer: "cello", evidence: ["D1:2"], category: 1 },
  ],
});

test("eval --cv reports in-sample and cross-validated figures; --grid replaces the settings", async () => {
  const dir = tempDir();
  writeFileSync(join(dir, "conv-1.json"), JSON.stringify(conversation("Ana", "Pixel")));
  writeFileSync(join(dir, "conv-2.json"), JSON.stringify(conversation("Cleo", "Dot")));
  const other = tempDir(); // not beside the conversations: every .json there is read as one
  const grid = join(other, "grid.json");
  writeFileSync(grid, JSON.stringify([{ name: "default" }, { name: "no-bm25", engine: { search: { weights: { bm25: 0 } } } }]));
  const r = cli(["eval", "locomo", dir, "--cv", "--grid", grid, "--json"]);
  assert.equal(r.status, 0, r.stderr);
  assert.equal(r.json.questions, 4);
  assert.deepEqual(r.json.settings, ["default", "no-bm25"]);
  assert.equal(r.json.overall.folds.length, 2);
  assert.deepEqual(Object.keys(r.json.by_category), ["1", "4"]);
  const plain = (await cliHere(["eval", "locomo", dir, "--json", "--no-ablation"])).json;
  assert.deepEqual(r.json.overall.default, plain.overall);
  assert.equal(r.json.by_channel.bm25.default["recall@10"], 1);

  const bad = join(other, "bad.json");
  writeFileSync(bad, JSON.stringify([{ name: "x", weights: 1 }]));
  const refused = await cliHere(["eval", "locomo", dir, "--cv", "--grid", bad]);
  assert.equal(refused.status, 2);
  assert.match(refused.stderr, /--grid/);

  // the folds choose by another metric when asked; an unknown one is refused naming the flag
  const byNdcg = await cliHere(["eval", "locomo", dir, "--cv", "--grid", grid, "--select-by", "ndcg@10", "--json", "--no-ablation"]);
  assert.equal(byNdcg.status, 0, byNdcg.stderr);
  assert.equal(byNdcg.json.select_by, "ndcg@10");
  const unknown = await cliHere(["eval", "locomo", dir, "--cv", "--select-by", "precision"]);
  assert.equal(unknown.status, 2);
  assert.match(unknown.stderr.trim(), /^cascade: option '--select-by <metric>' argument 'precision' is invalid/);
});
