import assert from "node:assert/strict";
import { test } from "node:test";
import fc from "fast-check";
import { toFtsQuery } from "../src/backends/sqlite/fts-query.js";
import { distinctContentWords } from "../src/text/tokenize.js";
import { demoEngine } from "./helpers.js";

const hostile = ['"', "'", "NEAR(", "NEAR", "AND", "OR", "NOT", "*", "^", ":", "(", ")", "{", "}", "-", "+", "body:", "title:",
  "🔥", "👩‍💻", "\u0000", "\uD800", "é", "ß", "日本", "\\", "%", "_", " ", "\t", "\n", "ECONNRESET", "config"];

const hostileString = fc.array(fc.oneof(fc.constantFrom(...hostile), fc.string({ unit: "grapheme", maxLength: 4 }), fc.string({ unit: "binary", maxLength: 4 })), { maxLength: 12 }).map((parts) => parts.join(""));

test("FTS5 syntax fuzz: search never throws, whatever the query (a blank one is the caller's mistake, said so)", async () => {
  const { engine } = await demoEngine();
  const ask = async (q: string, options: { channels?: ("bm25" | "curated")[]; k: number }) => {
    if (q.trim() === "") return assert.rejects(engine.recall(q, options), /^CascadeError: query: must not be empty/);
    const r = await engine.recall(q, options);
    assert.ok(Array.isArray(r.hits));
  };
  await fc.assert(
    fc.asyncProperty(hostileString, (q) => ask(q, { channels: ["bm25", "curated"], k: 5 })),
    { numRuns: 400, seed: 20261202 },
  );
  for (const q of ["", "   ", '"', 'NEAR(a b', "a AND", "OR OR", "NOT", "*", "^x", "title:x", "(((", "🔥🔥", '"unbalanced']) {
    await ask(q, { k: 3 });
  }
  await engine.close();
});

test("the MATCH expression quotes every term and keeps no operator", () => {
  const match = (text: string) => toFtsQuery(distinctContentWords(text));
  assert.equal(match('NEAR(config "yaml") AND title:*'), '"near" OR "config" OR "yaml" OR "title"');
  assert.equal(match("   "), null);
  assert.equal(match("🔥 ^ *"), null);
  assert.equal(match("the of and"), '"the" OR "of" OR "and"'); // only stop words: keep them rather than nothing
  assert.equal(toFtsQuery(['say "hi"']), '"say ""hi"""'); // a quote inside a term stays data
});
