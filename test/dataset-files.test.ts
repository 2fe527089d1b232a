/**
 * Every reader over every public file of its benchmark that this machine holds: each present file is read (none
 * skipped, no error), every question's evidence names items of its conversation, and only a file that is absent is
 * reported as skipped. Where each dataset lives: CASCADE_BEAM_DIR (BEAM's own tree, e.g. chats/100K/1..20),
 * CASCADE_LOCOMO_DIR, CASCADE_MADIAL_DIR, CASCADE_LONGMEMEVAL_DIR; a dataset not found is skipped, named.
 *
 * It reads and never scores: some of these files are held out from tuning, and no score of them is printed here.
 */
import assert from "node:assert/strict";
import { existsSync, readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { DATASET_READERS, type EvalConversation } from "../src/index.js";

const DATASETS: { name: string; env: string; fallback: string }[] = [
  { name: "beam", env: "CASCADE_BEAM_DIR", fallback: "/work/data/BEAM" },
  { name: "locomo", env: "CASCADE_LOCOMO_DIR", fallback: "/work/shared/data/locomo" },
  { name: "madial", env: "CASCADE_MADIAL_DIR", fallback: "/work/shared/data/madial" },
  { name: "longmemeval", env: "CASCADE_LONGMEMEVAL_DIR", fallback: "/work/shared/data/longmemeval" },
];

/** Every path named in a skip line must be absent: a file that is there has to be read. */
function assertOnlyAbsentSkipped(skipped: string[], root: string): void {
  for (const line of skipped) {
    const m = / (\/\S+) is missing$/.exec(line);
    assert.ok(m, `a file that is present was skipped: ${line} (under ${root})`);
    assert.equal(existsSync(m[1]), false, line);
  }
}

function assertWellFormed(convs: EvalConversation[]): void {
  assert.ok(convs.length > 0);
  for (const c of convs) {
    assert.ok(c.turns.length > 0, `${c.name}: no items`);
    const ids = new Set(c.turns.map((t) => t.id));
    assert.equal(ids.size, c.turns.length, `${c.name}: item ids repeat`);
    for (const t of c.turns) assert.equal(typeof t.input.text, "string", `${c.name}#${t.id}`);
    for (const q of c.questions) for (const id of q.evidence) assert.ok(ids.has(id), `${c.name}: evidence ${id} is not an item`);
  }
}

/** BEAM: how many chat folders hold both files the reader needs (each must be read). */
function completeBeamChats(root: string): number {
  let n = 0;
  const walk = (dir: string, depth: number) => {
    for (const d of readdirSync(dir)) {
      const path = join(dir, d);
      if (!statSync(path).isDirectory()) continue;
      if (existsSync(join(path, "chat.json")) && existsSync(join(path, "probing_questions", "probing_questions.json"))) n++;
      else if (depth > 1) walk(path, depth - 1);
    }
  };
  walk(root, 3);
  return n;
}

for (const { name, env, fallback } of DATASETS) {
  const dir = process.env[env] || fallback;
  const absent = existsSync(dir) ? false : `${name} is not on this machine (looked in ${dir}; set ${env} to its folder)`;
  test(`eval ${name} reads every file of the dataset found here`, { skip: absent }, (t) => {
    const skipped: string[] = [];
    const convs = DATASET_READERS[name](dir, (line) => skipped.push(line));
    assertWellFormed(convs);
    assertOnlyAbsentSkipped(skipped, dir);
    if (name === "beam") assert.equal(convs.length, completeBeamChats(dir), "every complete chat folder is read");
    const items = convs.reduce((n, c) => n + c.turns.length, 0);
    const questions = convs.reduce((n, c) => n + c.questions.length, 0);
    const chars = convs.reduce((n, c) => n + c.turns.reduce((m, i) => m + i.input.text.length, 0), 0);
    // counts only: what was read, never how well anything scores on it
    t.diagnostic(`${name}: ${convs.length} conversations, ${items} items (${chars} characters), ${questions} questions read from ${dir}; ${skipped.length} absent files skipped`);
  });
}
