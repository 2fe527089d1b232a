/**
 * A conversational cue (query/cue.ts): the recent dialogue passed as the question. Its vector channels weigh a
 * quarter, and a note naming a person who talks in it is raised (query/speakers.ts); a question of one line is
 * neither.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { test } from "node:test";
import { openMemory, parseInstant } from "../src/index.js";
import { cueSpeakers } from "../src/query/cue.js";
import { tempDir } from "./helpers.js";

const NOW = parseInstant("now", "2024-01-10T12:00:00Z");

test("the speakers of a cue are its lines' labels; a question of one line, or with one label, has none", () => {
  assert.deepEqual(cueSpeakers("Bart: I'm going to do a magic trick!\nAssistant: That's fantastic!\nBart: What should I wear?"), ["Bart", "Assistant"]);
  assert.deepEqual(cueSpeakers("小明：我明天要考试了\n助手：加油！"), ["小明", "助手"]);
  assert.deepEqual(cueSpeakers("What did Bart say: the party or the trick?"), []);
  assert.deepEqual(cueSpeakers("Note: the deploy is on Friday.\nAnd it moved."), []);
});

const NOTES = [
  { text: "Bart danced at the Christmas party and felt very happy.", at: "2023-12-25T20:00:00Z" },
  { text: "Lisa danced at the school party on Christmas and everyone cheered.", at: "2023-12-26T20:00:00Z" },
  { text: "Lisa danced with her friends at the Christmas party all night.", at: "2023-12-27T20:00:00Z" },
  { text: "At the sports festival Bart won first place in the 100 meters.", at: "2023-03-07T10:00:00Z" },
];
const CUE = ["Bart: I'm going to perform at the New Year's Eve party!", "Assistant: That's fantastic, everyone will love it.", "Bart: Do you think I could dance again like at Christmas?"].join("\n");

test("a cue raises the notes about the person who talks in it, with the reason, and weighs its vector channels a quarter", async () => {
  const memory = await openMemory({ path: join(tempDir(), "cue.db"), now: NOW });
  await memory.rememberMany(NOTES);
  const r = await memory.recall(CUE, { k: 3 });
  const plain = await memory.recall("who danced at the Christmas party", { k: 3 });
  await memory.close();
  assert.match(r.hits[0].text, /^Bart danced/);
  const about = r.hits[0].adjustments.find((a) => a.reason.startsWith("about "));
  assert.equal(about?.reason, "about Bart, who speaks in the question's conversation");
  assert.ok(!r.hits.some((h) => /^Lisa/.test(h.text) && h.adjustments.some((a) => a.reason.startsWith("about "))));
  assert.equal(r.channels.dense?.weight, 0.25);
  assert.equal(r.channels.colbert?.weight, 0.25);
  assert.equal(r.channels.bm25?.weight, 1);
  // a question of one line is not a cue
  assert.equal(plain.channels.dense?.weight, 1);
  assert.ok(!plain.hits.some((h) => h.adjustments.some((a) => a.reason.startsWith("about "))));
});

test("when every note names the person, nothing is raised", async () => {
  const memory = await openMemory({ path: join(tempDir(), "cue-all.db"), now: NOW });
  await memory.rememberMany(NOTES.filter((n) => n.text.includes("Bart")));
  const r = await memory.recall(CUE, { k: 3 });
  await memory.close();
  assert.ok(!r.hits.some((h) => h.adjustments.some((a) => a.reason.startsWith("about "))));
});
