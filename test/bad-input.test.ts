import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { CascadeError } from "../src/index.js";
import { demoEngine } from "./helpers.js";

async function rejects(p: Promise<unknown>, code: string, field: RegExp) {
  await assert.rejects(p, (err: unknown) => {
    assert.ok(err instanceof CascadeError, String(err));
    assert.equal(err.code, code);
    assert.match(err.message, field);
    assert.ok(!err.message.includes("\n"), "one line");
    return true;
  });
}

describe("bad input is refused with a clear error and changes nothing", async () => {
  const { engine } = await demoEngine();
  const before = await engine.stats();

  const cases: [string, unknown, RegExp][] = [
    ["empty text", { text: "" }, /^text: cannot be empty/],
    ["blank text", { text: "  \n\t " }, /^text: cannot be empty/],
    ["missing text", { title: "x" }, /^text: /],
    ["text not a string", { text: 42 }, /^text: /],
    ["bad date", { text: "hello", at: "last Tuesday-ish" }, /^at: .*not an ISO 8601/],
    ["impossible date", { text: "hello", at: "2026-02-30" }, /^at: .*not a real calendar date/],
    ["10 MB text", { text: "word ".repeat(2_000_000) }, /^text: has 10000000 characters/],
    ["lone high surrogate", { text: "broken \uD800 text" }, /^text: holds an unpaired UTF-16 surrogate/],
    ["lone low surrogate in title", { text: "ok", title: "bad \uDC00" }, /^title: holds an unpaired/],
    ["bad topic", { text: "ok", topic: "a..b" }, /^topic: label 2 .* is empty/],
    ["unknown field", { text: "ok", colour: "red" }, /unknown field/],
    ["bad tags", { text: "ok", tags: "a,b" }, /^tags: /],
    ["empty tag", { text: "ok", tags: ["a", " "] }, /^tags\.1: /],
  ];
  for (const [name, input, message] of cases) {
    test(name, async () => {
      await rejects(engine.remember(input as never), "INVALID_INPUT", message);
      assert.deepEqual(await engine.stats(), before);
    });
  }

  test("a valid pair of surrogates (emoji) is stored and found", async () => {
    const r = await engine.remember({ text: "Shipped the release 🚀 on Friday" });
    assert.equal((await engine.show(r.id)).text, "Shipped the release 🚀 on Friday");
    await engine.forget(r.id);
  });

  test("unknown ids are NOT_FOUND for show and forget", async () => {
    await rejects(engine.show("m_nope"), "NOT_FOUND", /no memory with id "m_nope"/);
    await rejects(engine.forget("m_nope"), "NOT_FOUND", /no memory with id "m_nope"/);
  });

  test("bad search options name the field", async () => {
    await rejects(engine.recall("x", { k: 0 }), "INVALID_INPUT", /^k: /);
    await rejects(engine.recall("x", { channels: ["bm25", "nope" as never] }), "INVALID_INPUT", /^channels\.1: a channel is one of/);
    await rejects(engine.recall("x", { weights: { bm25: -1 } }), "INVALID_INPUT", /^weights\.bm25: a weight cannot be negative/);
    await rejects(engine.recall("x", { since: "yesterday" }), "INVALID_INPUT", /^since: /);
    await rejects(engine.recall("x", { since: "2026-05-01", until: "2026-04-01" }), "INVALID_INPUT", /^since: must be earlier/);
    await rejects(engine.recall("x", { under: "ops..config" }), "INVALID_INPUT", /^under: /);
  });

  test("a batch keeps its good items and reports the bad ones by index", async () => {
    const r = await engine.rememberMany([{ text: "good one" }, { text: "" }, { text: "good two", at: "nope" }, { text: "good three" }]);
    assert.equal(r.imported, 2);
    assert.deepEqual(r.failed.map((f) => f.index), [1, 2]);
    assert.equal(r.ids.filter(Boolean).length, 2);
    for (const id of r.ids) if (id) await engine.forget(id);
    const after = await engine.stats();
    // the vocabulary is append-only (late interaction's term ids stay stable), so only rows are compared
    assert.deepEqual([after.memories, after.chunks], [before.memories, before.chunks]);
  });
});
