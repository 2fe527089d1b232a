import assert from "node:assert/strict";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { locomoDate, toLocomo } from "../bench/beam-to-locomo.js";
import { DATASET_READERS, defaultGloveEmbedder, evaluate, scratchStores, updateFirst } from "../src/index.js";
import { cli, cliHere, evalRefusedHere, tempDir } from "./helpers.js";
import { tinyBeamChat, tinyBeamQuestions, writeBeamChat } from "./fixtures/tiny-beam.js";

test("eval beam reads a chat: one session per batch dated by its anchor, role and speaker, markers stripped, every evidence form", () => {
  const dir = tempDir();
  writeBeamChat(dir, "2");
  writeBeamChat(dir, "10");
  const convs = DATASET_READERS.beam(dir);
  assert.deepEqual(convs.map((c) => c.name), ["2", "10"], "numbered chats in numeric order");
  const [chat] = convs;
  assert.equal(chat.turns.length, 8);
  assert.deepEqual(chat.turns[0].input, {
    text: "I'm planning the Lisbon offsite for the design team",
    role: "user",
    speaker: "User",
    session: "batch_1",
    at: "2024-03-15T00:00:00Z",
    kind: "turn",
    metadata: { ref: "2#0" },
  });
  assert.equal(chat.turns[4].input.text, "Finance approved more: the offsite budget is now 6500 euros");
  assert.deepEqual([chat.turns[5].input.speaker, chat.turns[5].input.session, chat.turns[5].input.at], ["Assistant", "batch_2", "2024-04-02T00:00:01Z"]);
  const byType = Object.fromEntries(chat.questions.map((q) => [q.category, q]));
  assert.deepEqual(byType.knowledge_update.evidence, ["2", "4"]);
  assert.deepEqual(byType.knowledge_update.update, { original: ["2"], updated: ["4"] });
  assert.deepEqual(byType.instruction_following.evidence, ["6"]);
  assert.deepEqual(byType.information_extraction.evidence, ["0"], "a chat_id reference is evidence");
  assert.deepEqual(byType.multi_session_reasoning.evidence, ["0", "2", "4"], "a list of chat_ids, and one without a colon");
  assert.deepEqual(byType.abstention.evidence, []);
  // one chat folder is read as well as a folder of them
  assert.equal(DATASET_READERS.beam(writeBeamChat(tempDir(), "solo")).length, 1);
});

test("eval beam scores per question type, counts abstention apart, and says whether the update ranks first", async () => {
  const dir = tempDir();
  writeBeamChat(dir, "1");
  const e = defaultGloveEmbedder();
  const r = await evaluate("beam", DATASET_READERS.beam(dir), { embedder: e, tokens: e, stores: scratchStores() }, { channels: ["bm25"], ablation: false });
  assert.equal(r.questions, 4);
  assert.equal(r.without_evidence, 1);
  assert.deepEqual(Object.keys(r.by_category), ["information_extraction", "instruction_following", "knowledge_update", "multi_session_reasoning"]);
  assert.equal(r.by_category.knowledge_update.update_first, 1);
  assert.equal(r.overall.update_first, 1);
  assert.equal(r.by_category.instruction_following["recall@10"], 1);

  const c = cli(["eval", "beam", dir, "--no-ablation"]);
  assert.equal(c.status, 0, c.stderr);
  assert.match(c.stdout, /beam: 1 conversation, 4 questions scored, 1 without evidence not scored/);
  assert.match(c.stdout, /category knowledge_update \(update_first \d\.\d{3}\)/);
});

test("update_first: the updated evidence must be in the top 10 and above the original", () => {
  const u = { original: ["a"], updated: ["b"] };
  assert.equal(updateFirst(["x", "b", "a"], u), 1);
  assert.equal(updateFirst(["a", "b"], u), 0);
  assert.equal(updateFirst(["x", "y"], u), 0);
  assert.equal(updateFirst(["b"], u), 1);
  assert.equal(updateFirst([...Array(10).fill("x"), "b"], u), 0);
});

test("eval beam refuses malformed chats in one line naming the field, exit 2", () => {
  const cases: [unknown, unknown, RegExp][] = [
    [[{ batch_number: 1, turns: [[{ role: "user", id: 0, content: "no anchor" }]] }], tinyBeamQuestions, /chat\.json\.0\.time_anchor: missing/],
    [[{ ...tinyBeamChat[0], time_anchor: "15/03/2024" }], tinyBeamQuestions, /time_anchor: cannot read "15\/03\/2024"/],
    [[{ batch_number: 1, turns: [[{ role: "bot", id: 0, content: "x" }]] }], tinyBeamQuestions, /chat\.json\.0\.turns\.0\.0\.role/],
    [tinyBeamChat, { knowledge_update: [{ question: "q", source_chat_ids: [99] }] }, /probing_questions\.json\.knowledge_update\.0\.source_chat_ids: message 99 is not in chat\.json/],
    [tinyBeamChat, { knowledge_update: [{ source_chat_ids: [1] }] }, /probing_questions\.json\.knowledge_update\.0\.question/],
  ];
  // the first as a CLI process; the reader's other refusals in this process (helpers: evalRefusedHere says why)
  for (const [i, [chat, questions, message]] of cases.entries()) {
    const dir = tempDir();
    writeBeamChat(dir, "1", chat, questions);
    if (i > 0) {
      evalRefusedHere("beam", dir, message);
      continue;
    }
    const r = cli(["eval", "beam", dir]);
    assert.equal(r.status, 2, r.stderr);
    assert.match(r.stderr, message);
    assert.equal(r.stderr.trim().split("\n").length, 1, r.stderr);
  }
  evalRefusedHere("beam", tempDir(), /holds no BEAM chat/);
});

test("bench/beam-to-locomo writes a LoCoMo file that eval locomo reads back to the same text, dates, speakers and evidence", () => {
  const dir = tempDir();
  const [chat] = DATASET_READERS.beam(writeBeamChat(dir, "1"));
  const file = join(dir, "beam-1.json");
  writeFileSync(file, JSON.stringify(toLocomo(chat)));
  const [back] = DATASET_READERS.locomo(file);
  assert.deepEqual(back.turns.map((t) => [t.id, t.input.speaker, t.input.text, t.input.at]), chat.turns.map((t) => [`D${t.input.session!.slice(6)}:${t.id}`, t.input.speaker, t.input.text, t.input.at]));
  assert.deepEqual(back.questions.map((q) => [q.category, q.evidence]), chat.questions.map((q) => [q.category, q.evidence.map((id) => `D${Number(id) < 4 ? 1 : 2}:${id}`)]));
  assert.equal(locomoDate("2024-04-02T13:05:00Z"), "1:05 pm on 2 April, 2024");
});

test("eval --cv's default scores what eval scores, summaries included (the pyramid is built before the settings search)", async () => {
  const dir = tempDir();
  writeBeamChat(dir, "1");
  writeBeamChat(dir, "2");
  const grid = join(tempDir(), "grid.json");
  writeFileSync(grid, JSON.stringify([{ name: "default" }]));
  const plain = await cliHere(["eval", "beam", dir, "--no-ablation", "--json"]);
  const cv = cli(["eval", "beam", dir, "--no-ablation", "--cv", "--grid", grid, "--json"]);
  assert.equal(cv.status, 0, cv.stderr);
  const { update_first, ...metrics } = plain.json.overall;
  assert.equal(update_first, 1);
  assert.ok(metrics.mrr < 1, "a day summary outranks an evidence message here");
  assert.deepEqual(cv.json.overall.default, metrics);
});

test("eval beam: a reference given as message ids is evidence; in BEAM's own tree a chat it cannot use is skipped with one line, the rest evaluated", async () => {
  const dir = tempDir();
  const questions = { ...tinyBeamQuestions, event_ordering: [{ question: "In what order did the budget change?", source_chat_ids: [2, 4], conversation_references: [2, [4]] }] };
  writeBeamChat(join(dir, "chats", "100K"), "1", tinyBeamChat, questions);
  writeBeamChat(join(dir, "chats", "100K"), "2", tinyBeamChat, { ...questions, knowledge_update: [{ question: "Budget?", conversation_references: { bad: true } }] });
  mkdirSync(join(dir, "chats", "10M", "1"), { recursive: true });
  const skipped: string[] = [];
  const convs = DATASET_READERS.beam(dir, (line) => skipped.push(line));
  assert.deepEqual(convs.map((c) => c.name), ["chats/100K/1"]);
  assert.deepEqual(convs[0].questions.find((q) => q.category === "event_ordering")?.evidence, ["2", "4"]);
  assert.deepEqual(skipped, [
    "eval: skipped chats/100K/2/probing_questions.json.knowledge_update.0.conversation_references: Invalid input",
    `eval: skipped ${join(dir, "chats", "10M", "1", "chat.json")} is missing`,
  ]);
  // without a place to report them, the reader is strict: the first unusable chat is the error
  assert.throws(() => DATASET_READERS.beam(dir), /chats\/100K\/2\/probing_questions\.json\.knowledge_update\.0\.conversation_references/);

  const c = cli(["eval", "beam", dir, "--no-ablation"]);
  assert.equal(c.status, 0, c.stderr);
  assert.match(c.stdout, /beam: 1 conversation, 5 questions scored/);
  const lines = c.stderr.split("\n").filter((l) => l.startsWith("cascade: "));
  assert.deepEqual(lines.map((l) => l.replace(dir, "DIR")), ["cascade: eval: skipped chats/100K/2/probing_questions.json.knowledge_update.0.conversation_references: Invalid input", "cascade: eval: skipped DIR/chats/10M/1/chat.json is missing"]);
  // a chat named alone is the user's choice: its fault is the error, exit 2 and one line
  const alone = await cliHere(["eval", "beam", join(dir, "chats", "10M", "1")]);
  assert.equal(alone.status, 2);
  assert.equal(alone.stderr.trim(), `cascade: eval: ${join(dir, "chats", "10M", "1", "chat.json")} is missing`);
});
