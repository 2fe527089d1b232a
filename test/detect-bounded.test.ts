/**
 * Revision detection reads a bounded part of an earlier memory whatever its size: its first statements, found
 * from as little of its text as holds them (the same sentences as splitting it whole), each statement of at most
 * a few thousand characters. A revision of one of those statements is still found in a 1 MB memory.
 */
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { CueJudge } from "../src/graph/cue-judge.js";
import { judgeStatements, leadingSentences, MAX_STATEMENT_CHARS, sentences } from "../src/graph/statements.js";
import { bigText } from "../bench/big-text.js";

const AT = "2026-06-20T09:00:00Z";

describe("detection against a big earlier memory", () => {
  test("a text's leading sentences are those of the whole text, however it is laid out", () => {
    const text = bigText(300_000, 5);
    const layouts = {
      paragraphs: text,
      "one line": text.replace(/\n+/g, " "),
      "code between paragraphs": text.replace(/\n\n/g, (_, i: number) => (i % 7 === 0 ? "\n\n```\nconst x = f(1);\n```\n\n" : "\n\n")),
    };
    for (const [name, t] of Object.entries(layouts)) {
      const whole = sentences(t + " "); // another string: the whole split is not the cached one
      for (const count of [1, 50, 400]) assert.deepEqual(leadingSentences(t, count), whole.slice(0, count), `${name}, ${count}`);
    }
  });

  test("a revision of a statement at the start of a 1 MB memory is found, the statement named", async () => {
    const judge = new CueJudge();
    const older = `Standup is on Tuesdays at 10.\n\n${bigText(975_000 - 40, 9)}`;
    const verdict = await judgeStatements(judge, { text: older, at: AT }, { text: "Standup is on Thursdays at 10 now. Priya asked for it.", at: AT }, (t) => judge.mayRevise(t));
    assert.ok(verdict.confidence >= 0.5, verdict.reason);
    assert.equal(verdict.statement, "Standup is on Tuesdays at 10.");
  });

  test("one 'sentence' of 500,000 characters is judged on its first characters", async () => {
    const judge = new CueJudge();
    const older = `standup is on tuesdays at 10 ${"and then more words without any stop ".repeat(13_000)}`;
    assert.ok(older.length > 100 * MAX_STATEMENT_CHARS);
    const newer = { text: "standup is on thursdays at 10 now", at: AT };
    const verdict = await judgeStatements(judge, { text: older, at: AT }, newer, (t) => judge.mayRevise(t));
    const onItsStart = await judgeStatements(judge, { text: older.slice(0, MAX_STATEMENT_CHARS), at: AT }, newer, (t) => judge.mayRevise(t));
    assert.deepEqual(verdict, onItsStart);
    assert.ok(verdict.confidence >= 0.5, verdict.reason);
  });
});
