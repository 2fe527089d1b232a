import assert from "node:assert/strict";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { DATASET_READERS, defaultGloveEmbedder, evaluate, scratchStores, updateFirst } from "../src/index.js";
import { cli, cliHere, evalRefusedHere as refusedHere, tempDir, type CliResult } from "./helpers.js";
import { tinyLocomo } from "./fixtures/tiny-locomo.js";
import { tinyLongMemEval } from "./fixtures/tiny-longmemeval.js";
import { tinyMadialDialogues, tinyMadialMemories } from "./fixtures/tiny-madial.js";

const e = defaultGloveEmbedder();
const models = { embedder: e, tokens: e, stores: scratchStores() };
const jsonl = (rows: unknown[]) => rows.map((r) => JSON.stringify(r)).join("\n") + "\n";

/** Runs the CLI on a malformed input: exit 2 and one line on stderr matching `message`. */
function refused(args: string[], message: RegExp): void {
  checkRefusal(args, cli(args), message);
}

/** refused() through the CLI in this process (helpers cliHere), for a refusal of the command line itself. */
async function refusedInProcess(args: string[], message: RegExp): Promise<void> {
  checkRefusal(args, await cliHere(args), message);
}

function checkRefusal(args: string[], r: CliResult, message: RegExp): void {
  assert.equal(r.status, 2, `${args.join(" ")}: ${r.stderr}`);
  assert.match(r.stderr, message);
  assert.equal(r.stderr.trim().split("\n").length, 1, r.stderr);
}

function writeMadial(memories: unknown[] = tinyMadialMemories, dialogues: unknown[] = tinyMadialDialogues): string {
  const dir = tempDir();
  writeFileSync(join(dir, "en-memory.jsonl"), jsonl(memories));
  writeFileSync(join(dir, "en-dialogue.jsonl"), jsonl(dialogues));
  return dir;
}

test("eval longmemeval: one haystack per question asked at its date, turn- and session-level scores, abstention not scored", async () => {
  const file = join(tempDir(), "lme.json");
  writeFileSync(file, JSON.stringify(tinyLongMemEval));
  const convs = DATASET_READERS.longmemeval(file);
  assert.equal(convs.length, 2);
  const [q1] = convs;
  assert.deepEqual(q1.turns[2], { id: "s-b#0", input: { text: tinyLongMemEval[0].haystack_sessions[1][0].content, role: "user", speaker: "User", session: "s-b", at: "2023-05-10T18:30:00Z", kind: "turn" } });
  assert.deepEqual(q1.questions[0], { question: "What breed is my new dog?", category: "single-session-user", now: "2023-06-01T09:00:00Z", evidence: ["s-b#0"], sessions: ["s-b"] });
  const r = await evaluate("longmemeval", convs, models, { channels: ["bm25"], ablation: false });
  assert.equal(r.questions, 1);
  assert.equal(r.without_evidence, 1);
  assert.equal(r.overall["recall@10"], 1);
  assert.equal(r.sessions?.["recall@10"], 1);

  const bad = join(tempDir(), "bad.json");
  writeFileSync(bad, JSON.stringify([{ ...tinyLongMemEval[0], haystack_dates: ["2023/05/01 (Mon) 10:00"] }]));
  refused(["eval", "longmemeval", bad], /bad\.json\.0\.haystack_dates: 1 dates for 3 sessions/);
  writeFileSync(bad, JSON.stringify([{ ...tinyLongMemEval[0], question_date: "June 1st" }]));
  refusedHere("longmemeval", bad, /bad\.json\.0\.question_date: cannot read "June 1st"/);
  writeFileSync(bad, JSON.stringify([{ ...tinyLongMemEval[0], haystack_sessions: [[{ role: "user" }]] }]));
  refusedHere("longmemeval", bad, /bad\.json\.0\.haystack_sessions\.0\.0\.content/);
});

test("eval madial: the archive in one store per language, the dialogue before the test turn as the cue", async () => {
  const dir = writeMadial();
  const [en] = DATASET_READERS.madial(dir);
  assert.equal(en.name, "en");
  assert.deepEqual(en.turns[0].input, { text: "Bart danced at the Christmas party and felt very happy.", at: "2023-12-25T00:00:00Z", kind: "memory", metadata: { ref: "en#1", scene: "Activity", emotion: "Happy" } });
  // the assistant's recall (the test turn) would give the answer away: it is not in the cue
  assert.equal(en.questions[0].question, "Bart: I am going to perform at the New Year party!\nAssistant: Fantastic! What will you do?\nBart: Maybe I will dance again, like at the Christmas party.");
  assert.deepEqual(en.questions.map((q) => q.evidence), [["1"], ["2"]]);
  const r = await evaluate("madial", [en], models, { channels: ["bm25"], ablation: false });
  assert.equal(r.overall.mrr, 1);
  assert.deepEqual(Object.keys(r.by_category), ["en"]);

  refused(["eval", "madial", writeMadial(tinyMadialMemories, [{ ...tinyMadialDialogues[0], "relevant-id": [9] }])], /en-dialogue\.jsonl:1\.relevant-id: memory 9 is not in en-memory\.jsonl/);
  refusedHere("madial", writeMadial(tinyMadialMemories, [{ ...tinyMadialDialogues[0], "test-turn": [] }]), /en-dialogue\.jsonl:1\.test-turn/);
  refusedHere("madial", writeMadial([{ "1": { time: "yesterday", event: "x" } }]), /en-memory\.jsonl:1\.1\.time/);
  refusedHere("madial", tempDir(), /holds no MADial files/);
});

test("eval jsonl: a user's own memories and questions, any order; each mistake named by line and field", async () => {
  const file = join(tempDir(), "mine.jsonl");
  writeFileSync(
    file,
    jsonl([
      { question: "When is the dentist appointment?", evidence: ["m2"], type: "dates", now: "2024-05-01" },
      { id: "m1", text: "The car needs new tyres before winter.", time: "2024-04-01", speaker: "Sam" },
      { id: "m2", text: "Dentist appointment moved to Tuesday at nine.", time: "2024-04-02", session: "s1" },
      { question: "Did I mention a cat?", evidence: [] },
    ]),
  );
  const [conv] = DATASET_READERS.jsonl(file);
  assert.deepEqual(conv.turns[0].input, { text: "The car needs new tyres before winter.", at: "2024-04-01T00:00:00Z", speaker: "Sam", metadata: { ref: "m1" } });
  assert.deepEqual(conv.questions[0], { question: "When is the dentist appointment?", evidence: ["m2"], category: "dates", now: "2024-05-01T00:00:00Z" });
  const c = cli(["eval", "jsonl", file, "--no-ablation", "--json"]);
  assert.equal(c.status, 0, c.stderr);
  assert.equal(c.json.questions, 1);
  assert.equal(c.json.without_evidence, 1);
  assert.equal(c.json.overall["hit@10"], 1);

  const cases: [unknown[], RegExp][] = [
    [[{ id: "m1", text: "x" }, { question: "q", evidence: ["m9"] }], /:2\.evidence: "m9" is not the id of a memory/],
    [[{ id: "m1", text: "x" }, { question: "q", evidance: ["m1"] }], /:2\.evidence/],
    [[{ id: "m1", text: "x", time: "soon" }, { question: "q", evidence: ["m1"] }], /:1\.time: "soon" is not an ISO 8601 date/],
    [[{ id: "m1", text: "x" }, { id: "m1", text: "y" }, { question: "q", evidence: ["m1"] }], /:2\.id: "m1" is used by an earlier memory/],
    [[{ id: "m1" }, { question: "q", evidence: ["m1"] }], /:1\.text/],
    [[{ id: "m1", text: "x" }], /no questions/],
  ];
  for (const [i, [rows, message]] of cases.entries()) {
    writeFileSync(file, jsonl(rows));
    if (i === 0) refused(["eval", "jsonl", file], message);
    else refusedHere("jsonl", file, message);
  }
  writeFileSync(file, '{"id": "m1", "text": "x"}\n{"question": \n');
  refusedHere("jsonl", file, /mine\.jsonl:2 is not valid JSON/);
  // a folder: each .jsonl file in it is one conversation, in name order; a folder without one is refused
  const folder = tempDir();
  writeFileSync(join(folder, "b.jsonl"), jsonl([{ id: "m1", text: "Standup moved to Thursday." }, { question: "When is standup?", evidence: ["m1"] }]));
  writeFileSync(join(folder, "a.jsonl"), jsonl([{ id: "m1", text: "The gym opens at six." }, { question: "When does the gym open?", evidence: ["m1"] }]));
  writeFileSync(join(folder, "notes.txt"), "not a conversation");
  assert.deepEqual(DATASET_READERS.jsonl(folder).map((c) => c.turns[0].input.text), ["The gym opens at six.", "Standup moved to Thursday."]);
  refusedHere("jsonl", tempDir(), /holds no \.jsonl file/);
});

test("eval reports how many labelled updates detection linked by an edge, beside the edges it drew", async () => {
  const file = join(tempDir(), "updates.jsonl");
  writeFileSync(
    file,
    jsonl([
      { id: "m1", text: "Standup is on Tuesdays at 10am.", time: "2024-04-01" },
      { id: "m2", text: "The gym opens at six on weekdays.", time: "2024-04-02" },
      { id: "m3", text: "Standup moved to Thursdays at 10am.", time: "2024-04-08" },
      { id: "m4", text: "The pool closes at nine in summer.", time: "2024-04-09" },
      { question: "When is standup?", evidence: ["m1", "m3"], update: { original: ["m1"], updated: ["m3"] } },
      { question: "When does the gym open?", evidence: ["m2", "m4"], update: { original: ["m2"], updated: ["m4"] } },
    ]),
  );
  const c = await cliHere(["eval", "jsonl", file, "--no-ablation", "--json"]);
  assert.equal(c.status, 0, c.stderr);
  assert.deepEqual(c.json.changes, { labelled: 2, linked: 1, edges: 1, recall: 0.5 });
  const text = await cliHere(["eval", "jsonl", file, "--no-ablation"]);
  assert.match(text.stdout, /labelled updates linked by an edge: 1 of 2 \(recall 0\.500\), among 1 supersedes or refines edge drawn/);
});

test("eval mixed --cv leaves one dataset out: each set's in-sample figure beside its cross-validated one", async () => {
  const mine = join(tempDir(), "mine.jsonl");
  writeFileSync(mine, jsonl([{ id: "m1", text: "Dentist appointment moved to Tuesday at nine." }, { id: "m2", text: "The car needs new tyres." }, { question: "When is the dentist?", evidence: ["m1"] }]));
  const lme = join(tempDir(), "lme.json");
  writeFileSync(lme, JSON.stringify(tinyLongMemEval));
  const grid = join(tempDir(), "grid.json");
  writeFileSync(grid, JSON.stringify([{ name: "default" }, { name: "rrf-k-10", engine: { search: { rrfK: 10 } } }]));
  const r = cli(["eval", "mixed", "--jsonl", mine, "--longmemeval", lme, "--madial", writeMadial(), "--cv", "--grid", grid, "--no-ablation", "--json"]);
  assert.equal(r.status, 0, r.stderr);
  assert.equal(r.json.fold_by, "dataset");
  assert.deepEqual(r.json.overall.folds.map((f: { held_out: string }) => f.held_out), ["longmemeval", "madial", "jsonl"]);
  for (const f of r.json.overall.folds) {
    assert.ok(f.default["recall@10"] >= 0 && f.best_in_sample.metrics["recall@10"] >= f.default["recall@10"]);
    assert.ok(["default", "rrf-k-10"].includes(f.chosen));
  }
  assert.deepEqual(Object.keys(r.json.by_category).sort(), ["jsonl:all", "longmemeval:single-session-user", "madial:en"]);
  const text = await cliHere(["eval", "mixed", "--jsonl", mine, "--madial", writeMadial(), "--cv", "--grid", grid, "--no-ablation"]);
  assert.match(text.stdout, /leave-one-dataset-out/);
  assert.match(text.stdout, /\| madial \| 2 \|/);
  // the command line's refusals in this process: eval's processes above meet malformed files
  await refusedInProcess(["eval", "mixed", "--jsonl", mine], /eval mixed: give at least two datasets/);
  await refusedInProcess(["eval", "beam"], /eval beam: the dataset's path is missing/);
  await refusedInProcess(["eval", "squad", "x"], /unknown dataset "squad"; known: locomo, beam, longmemeval, madial, jsonl, mixed/);
});

test("a JSONL question may mark a knowledge update; update_first skips a message that is both original and update", () => {
  const dir = tempDir();
  const file = join(dir, "mine.jsonl");
  const lines = [
    { id: "m1", text: "My quota is 1,000 calls a day.", time: "2026-01-01T10:00:00Z" },
    { id: "m2", text: "My quota is now 1,200 calls a day.", time: "2026-01-05T10:00:00Z" },
    { question: "What is my daily quota?", evidence: ["m1", "m2"], update: { original: ["m1"], updated: ["m2"] } },
  ];
  writeFileSync(file, lines.map((l) => JSON.stringify(l)).join("\n"));
  const [conv] = DATASET_READERS.jsonl(file);
  assert.deepEqual(conv.questions[0].update, { original: ["m1"], updated: ["m2"] });
  writeFileSync(file, [...lines.slice(0, 2), { ...lines[2], update: { original: ["m1"], updated: ["m3"] } }].map((l) => JSON.stringify(l)).join("\n"));
  assert.throws(() => DATASET_READERS.jsonl(file), /mine\.jsonl:3\.update: "m3" is not in the question's evidence/);
  assert.equal(updateFirst(["m1"], { original: ["m1"], updated: ["m1"] }), null);
});

test("eval --budget-words prints its evidence@N columns (they were measured but left out of the table)", async () => {
  const file = join(tempDir(), "budget.jsonl");
  const lines = [
    { id: "m1", text: "The quota is 1,000 calls a day.", time: "2026-01-01T10:00:00Z" },
    { id: "m2", text: "The deploy runs on Fridays.", time: "2026-01-02T10:00:00Z" },
    { question: "What is the quota?", evidence: ["m1"] },
  ];
  writeFileSync(file, lines.map((l) => JSON.stringify(l)).join("\n"));
  const r = await cliHere(["eval", "jsonl", file, "--no-ablation", "--budget-words", "250"]);
  assert.equal(r.status, 0, r.stderr);
  assert.match(r.stdout, /\| configuration \| recall@5 \| recall@10 \| hit@10 \| ndcg@10 \| mrr \| evidence@250 \|/);
  assert.match(r.stdout, /\| all channels \| [\d.]+ \| [\d.]+ \| [\d.]+ \| [\d.]+ \| [\d.]+ \| 1\.000 \|/);
});

test("eval readers take every public layout: LoCoMo's locomo10.json list, a folder of LongMemEval files; a file they cannot use is skipped, named", () => {
  const locomo = tempDir();
  writeFileSync(join(locomo, "locomo10.json"), JSON.stringify([{ sample_id: "conv-1", conversation: tinyLocomo }, { sample_id: "conv-2", conversation: tinyLocomo }]));
  writeFileSync(join(locomo, "notes.json"), "{ not json");
  const skipped: string[] = [];
  assert.deepEqual(DATASET_READERS.locomo(locomo, (l) => skipped.push(l)).map((c) => c.name), ["conv-1", "conv-2"]);
  assert.equal(skipped.length, 1);
  assert.match(skipped[0], /^eval: skipped \S+notes\.json is not valid JSON/);

  const lme = tempDir();
  writeFileSync(join(lme, "longmemeval_s.json"), JSON.stringify(tinyLongMemEval));
  writeFileSync(join(lme, "longmemeval_oracle.json"), JSON.stringify(tinyLongMemEval));
  writeFileSync(join(lme, "longmemeval_m.json"), JSON.stringify([{ ...tinyLongMemEval[0], question_date: "June 1st" }]));
  skipped.length = 0;
  const names = DATASET_READERS.longmemeval(lme, (l) => skipped.push(l)).map((c) => c.name);
  assert.equal(names.length, 2 * tinyLongMemEval.length);
  assert.ok(names.every((n) => /^longmemeval_(s|oracle)\//.test(n)), names.join());
  assert.deepEqual(skipped, ['eval: skipped longmemeval_m.json.0.question_date: cannot read "June 1st" as a date like "2023/05/20 (Sat) 02:21"']);
});
