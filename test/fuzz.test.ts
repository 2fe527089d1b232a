/**
 * Property-based fuzzing (fast-check, fixed seeds) of three boundaries: the lquery parser and matcher, the
 * JSONL importer, and the query path with arbitrary options. The property is always the same shape: an input
 * either works or is refused as INVALID_INPUT naming a field; nothing else escapes, and the store stays whole.
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import fc from "fast-check";
import { CascadeError, parseJsonlLine } from "../src/index.js";
import { matchesLquery, parseLquery } from "../src/topics/lquery.js";
import { demoEngine, emptyEngine } from "./helpers.js";
import { sentenceSpans } from "../src/text/sentences.js";

const refused = (err: unknown) => err instanceof CascadeError && err.code === "INVALID_INPUT" && typeof err.field === "string";

/** The obvious recursive matcher, as an oracle for the linear one (fine for the small inputs generated here). */
function referenceMatch(items: ReturnType<typeof parseLquery>, path: string): boolean {
  const labels = path.split(".");
  const go = (i: number, j: number): boolean => {
    if (i === items.length) return j === labels.length;
    const item = items[i];
    if (item.kind === "any") {
      for (let n = item.min; n <= item.max && j + n <= labels.length; n++) if (go(i + 1, j + n)) return true;
      return false;
    }
    if (j >= labels.length) return false;
    return matchesLquery([item], labels[j]) && go(i + 1, j + 1);
  };
  return go(0, 0);
}

const label = fc.constantFrom("a", "b", "ab", "a_b", "B", "ops", "x1");
const path = fc.array(label, { minLength: 1, maxLength: 7 }).map((l) => l.join("."));
const lqueryItem = fc.oneof(
  label,
  fc.constantFrom("*", "*{1}", "*{0,2}", "*{2,}", "*{,1}", "a*", "a@", "!a", "a|b", "a%", "!b|ab", "A@", "a_*%"),
);
const lquery = fc.array(lqueryItem, { minLength: 1, maxLength: 6 }).map((i) => i.join("."));

test("lquery: any string parses or is refused as INVALID_INPUT; the linear matcher agrees with the recursive one", () => {
  const junk = fc.string({ unit: fc.constantFrom(..."ab*.{},|!@%_-1 \u00e9"), maxLength: 40 });
  fc.assert(
    fc.property(fc.oneof(junk, lquery), (pattern) => {
      try {
        parseLquery(pattern);
      } catch (err) {
        assert.ok(refused(err), String(err));
      }
    }),
    { numRuns: 2000, seed: 15 },
  );
  fc.assert(
    fc.property(lquery, path, (pattern, p) => {
      const items = parseLquery(pattern);
      assert.equal(matchesLquery(items, p), referenceMatch(items, p), `${pattern} ~ ${p}`);
    }),
    { numRuns: 3000, seed: 1503 },
  );
});

const jsonValue = fc.oneof(
  fc.string({ maxLength: 20 }),
  fc.integer(),
  fc.constant(null),
  fc.boolean(),
  fc.array(fc.string({ maxLength: 5 }), { maxLength: 3 }),
  fc.dictionary(fc.string({ maxLength: 5 }), fc.string({ maxLength: 5 }), { maxKeys: 3 }),
);
const field = fc.constantFrom("text", "title", "description", "tags", "topic", "at", "role", "speaker", "session", "kind", "metadata", "ref", "supersedes", "bogus");
const record = fc.dictionary(field, fc.oneof(jsonValue, fc.constantFrom("2026-06-03", "2026-02-30", "a.b", "a..b", "note", "+99:99", "")), { maxKeys: 6 });
const line = fc.oneof(
  record.map((r) => JSON.stringify(r)),
  record.map((r) => JSON.stringify({ text: "always some text", ...r })),
  fc.string({ maxLength: 30 }),
  fc.constantFrom("", "   ", "\uFEFF", "[]", "null", '"text"', "{", '{"text": "ok"}', '\uFEFF{"text": "bom"}'),
);

test("JSONL importer: every line is imported, skipped as blank, or reported with its number; the store stays whole", async () => {
  const { engine } = await emptyEngine();
  let imported = 0;
  await fc.assert(
    fc.asyncProperty(fc.array(line, { minLength: 1, maxLength: 12 }), async (lines) => {
      const items = lines.map((l, i) => parseJsonlLine(l, i + 1)).filter((x) => x !== null);
      const good = items.filter((i): i is Extract<typeof i, { input: unknown }> => "input" in i);
      const r = await engine.rememberMany(good.map((g) => g.input as never));
      assert.equal(r.imported + r.failed.length, good.length);
      for (const f of r.failed) assert.match(f.error, /^[A-Za-z_.0-9]+: /, f.error);
      imported += r.imported;
    }),
    { numRuns: 150, seed: 1507 },
  );
  assert.equal((await engine.stats()).memories, imported);
  assert.equal((await engine.doctor()).ok, true);
  await engine.close();
});

/** Mostly valid, sometimes not: so that both the answers and the refusals are exercised. */
const mostly = <T, U>(valid: fc.Arbitrary<T>, invalid: fc.Arbitrary<U>) => fc.oneof({ arbitrary: valid, weight: 5 }, { arbitrary: invalid, weight: 1 });

const options = fc.record(
  {
    k: mostly(fc.integer({ min: 1, max: 50 }), fc.oneof(fc.integer({ min: -5, max: 2000 }), fc.double())),
    channels: mostly(
      fc.uniqueArray(fc.constantFrom("bm25", "dense", "curated", "recency", "colbert", "time"), { minLength: 1, maxLength: 4 }),
      fc.array(fc.constantFrom("graph", "nope", "bm25"), { maxLength: 3 }),
    ),
    under: mostly(path, fc.string({ maxLength: 10 })),
    match: mostly(lquery, fc.string({ maxLength: 10 })),
    since: mostly(fc.constantFrom("2026-01-01", "0042-01-01", "2026-02-01T00:00:00+05:30"), fc.constantFrom("yesterday", "2026-13-01")),
    until: mostly(fc.constantFrom("2026-07-01", "2026-03-01T00:00:00+02:00"), fc.constantFrom("2026-03-01T00:00:00+25:00", "2026-02-30")),
    kinds: mostly(fc.array(fc.constantFrom("note", "turn", "summary", "decision"), { maxLength: 5 }), fc.array(fc.constantFrom("note", ""), { maxLength: 40 })),
    rrfK: mostly(fc.integer({ min: 0, max: 10_000 }), fc.constantFrom(-1, 20_000, Number.NaN)),
    currentOnly: fc.boolean(),
    asOf: mostly(fc.constant("2026-05-01"), fc.constant("not a date")),
    time: mostly(fc.constantFrom("boost", "restrict", "off"), fc.constant("sideways")),
  },
  { requiredKeys: [] },
);

test("query path: any query and options answer hits or INVALID_INPUT, nothing else", async () => {
  const { engine } = await demoEngine();
  const query = fc.oneof(fc.string({ maxLength: 40 }), fc.constantFrom("what changed in the pool config last week", 'NEAR("x"', "*", "🔥 ^ :"));
  let answered = 0;
  await fc.assert(
    fc.asyncProperty(query, options, async (q, o) => {
      try {
        const r = await engine.recall(q, o as never);
        assert.ok(r.hits.length <= (o.k as number) || o.k === undefined);
        answered++;
      } catch (err) {
        assert.ok(refused(err), `${JSON.stringify(q)} ${JSON.stringify(o)}: ${err}`);
      }
    }),
    { numRuns: 400, seed: 1511 },
  );
  assert.ok(answered > 20, `only ${answered} of 400 queries were valid: the generator is too hostile to test the happy path`);
  await engine.close();
});

test("sentence spans of any text are ordered, trimmed, cover every word, and never cross a line break", async () => {
  const piece = fc.constantFrom("The queue drains. ", "Dr. Smith said 'wait!' ", "Is it 3.5 now? ", "yes ", "日本語の文です。", "word ", "🔥 ", "\n\n", "no-end-here ", "J. R. ", "U.S. ", "…", "\n");
  fc.assert(
    fc.property(fc.array(piece, { minLength: 0, maxLength: 1600 }), (parts) => {
      const text = parts.join("");
      const spans = sentenceSpans(text);
      let covered = 0;
      for (const [i, s] of spans.entries()) {
        const sentence = text.slice(s.start, s.end);
        assert.ok(s.end > s.start && sentence.trim() === sentence, `span ${i} is trimmed and not empty`);
        assert.ok(i === 0 || s.start >= spans[i - 1].end, "in order, without overlap");
        assert.ok(!sentence.includes("\n"), "a line break ends a sentence");
        covered += sentence.replace(/\s/g, "").length;
      }
      assert.equal(covered, text.replace(/\s/g, "").length, "every character but white space is in a sentence");
    }),
    { numRuns: 100, seed: 1517 },
  );
});
