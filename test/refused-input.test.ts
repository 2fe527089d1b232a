/**
 * Input that was stored wrong or lost without a word: invalid UTF-8 in a JSONL line (stored
 * as U+FFFD), a LoCoMo file that spells one session twice (`session_1` beside `session_01`) or repeats a
 * `dia_id` (one turn silently skipped as the other's duplicate), and messages that named their field twice.
 */
import assert from "node:assert/strict";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { CascadeError, readLocomoConversation } from "../src/index.js";
import { cli, emptyEngine, tempDir } from "./helpers.js";

test("a JSONL line that is not UTF-8 is refused with its line number; the lines around it are stored", () => {
  const dir = tempDir();
  const file = join(dir, "notes.jsonl");
  const good = (text: string) => Buffer.from(JSON.stringify({ text }) + "\n");
  // 0xC3 0x28: a two-byte sequence cut short; a lenient reader stored "caf\uFFFD("
  writeFileSync(file, Buffer.concat([good("first note"), Buffer.from('{"text": "caf\xc3(", "tags": ["x"]}\n', "latin1"), good("third note, über UTF-8")]));
  const r = cli(["--db", join(dir, "memory.db"), "import", file, "--json"]);
  assert.equal(r.status, 1, r.stderr);
  assert.equal(r.json.imported, 2);
  assert.deepEqual(r.json.failed.map((f: { line: number }) => f.line), [2]);
  assert.match(r.json.failed[0].error, /not valid UTF-8/);
});

const session = (dia: string[]) => dia.map((dia_id, i) => ({ speaker: i % 2 ? "Bob" : "Ann", dia_id, text: `turn ${dia_id}` }));

test("a LoCoMo file spelling one session twice, or repeating a dia_id, is refused naming where", () => {
  const twice = {
    conversation: {
      session_1: session(["D1:1", "D1:2"]),
      session_1_date_time: "1:56 pm on 8 May, 2023",
      session_01: session(["D1:3"]),
      session_01_date_time: "1:56 pm on 8 May, 2023",
    },
  };
  assert.throws(() => readLocomoConversation(twice, "conv"), (err: CascadeError) => err.code === "INVALID_INPUT" && /^conv\.session_01: names the same session as session_1/.test(err.message));
  const repeated = {
    conversation: {
      session_1: session(["D1:1", "D1:2"]),
      session_1_date_time: "1:56 pm on 8 May, 2023",
      session_2: session(["D2:1", "D1:2"]),
      session_2_date_time: "2:00 pm on 9 May, 2023",
    },
  };
  assert.throws(() => readLocomoConversation(repeated, "conv"), (err: CascadeError) => err.code === "INVALID_INPUT" && err.message === 'conv.session_2.1.dia_id: "D1:2" is also the dia_id of session_1.1: each turn needs its own');
  // the ordinary layout still reads every turn, sessions in number order
  const fine = readLocomoConversation(
    { conversation: { ...repeated.conversation, session_2: session(["D2:1"]), session_10: session(["D10:1"]), session_10_date_time: "2:00 pm on 19 May, 2023" } },
    "conv",
  );
  assert.deepEqual(fine.turns.map((t) => t.id), ["D1:1", "D1:2", "D2:1", "D10:1"]);
});

test("a bound's message names its field once", async () => {
  const { engine } = await emptyEngine();
  try {
    await assert.rejects(engine.entities({ top: 20_000 }), (err: Error) => err.message === "top: at most 10000");
    await assert.rejects(engine.entities({ query: "a".repeat(300) }), (err: Error) => err.message === "query: at most 200 characters");
    await assert.rejects(engine.graph("m_x", { depth: 99 }), (err: Error) => /^depth: at most \d+$/.test(err.message));
  } finally {
    await engine.close();
  }
});
