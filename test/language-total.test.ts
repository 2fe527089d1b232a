/**
 * Every language step is total: for any string (any Unicode, any punctuation, any length up to the limit) the
 * sentence splitter, tokeniser, chunker, script segmenter, entity extractor, time-expression reader, revision
 * parser and judge, statement judge and summariser return a result; none throws. Three bodies of text:
 * generated strings (fast-check, fixed seeds), a stress set of hard cases written here, and every text of the
 * evaluation data this machine has (shared/data's LoCoMo and MADial, BEAM 100K chats 1–10 when fetched). The
 * write path then stores the stress set whole: no text breaks a write.
 */
import assert from "node:assert/strict";
import { existsSync, readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import fc from "fast-check";
import { CascadeError } from "../src/index.js";
import { extractEntities } from "../src/entities/extract.js";
import { DATASET_READERS } from "../src/eval/readers/index.js";
import { CueJudge, judgeRevision } from "../src/graph/cue-judge.js";
import { parseMemory } from "../src/graph/revision-parse.js";
import { judgeStatements, prose } from "../src/graph/statements.js";
import { informativeness } from "../src/pyramid/informative.js";
import { chunkText } from "../src/text/chunk.js";
import { segmentScripts } from "../src/text/segment.js";
import { sentencesOf } from "../src/text/sentences.js";
import { contentWords, words } from "../src/text/tokenize.js";
import { parseTimeExpressions } from "../src/time/expressions.js";
import { emptyEngine } from "./helpers.js";
import { UNICODE_STRESS } from "./fixtures/unicode-stress.js";

const NOW = Date.parse("2026-11-20T12:00:00Z");
const judge = new CueJudge();

/** Every step on one text, and the judges on it beside its neighbour; throws what a step throws, named. */
async function everyStep(text: string, previous: string): Promise<void> {
  const steps: [string, () => unknown][] = [
    ["sentences", () => sentencesOf(text)],
    ["words", () => [words(text), contentWords(text)]],
    ["chunk", () => chunkText(text, { maxChars: 800, overlapSentences: 1 })],
    ["segment", () => segmentScripts(text)],
    ["entities", () => extractEntities(text, "user")],
    ["time", () => parseTimeExpressions(text, NOW)],
    ["parse", () => parseMemory(text)],
    ["prose", () => prose(text)],
    ["informative", () => informativeness(text)],
    ["judge", () => [judgeRevision(previous, text), judgeRevision(text, previous)]],
  ];
  for (const [name, run] of steps) {
    try {
      run();
    } catch (err) {
      throw new Error(`${name} threw on ${JSON.stringify(text.slice(0, 120))}: ${(err as Error).stack}`);
    }
  }
  const at = "2026-11-01T00:00:00Z";
  await judgeStatements(judge, { text: previous, at }, { text, at }, (t) => judge.mayRevise(t));
}

test("the stress set: brackets, contractions, scripts, emoji, controls — every step returns", async () => {
  let previous = "My flight to Oslo is on Monday.";
  for (const text of UNICODE_STRESS) {
    await everyStep(text, previous);
    previous = text;
  }
  // the sentence that crashed every write: the tagger has no lemma for "cannot" inside brackets
  const parsed = parseMemory("My flight to Oslo moved to Tuesday (they cannot) fly Monday.");
  assert.ok(parsed.tokens.every((t) => typeof t.lemma === "string" && typeof t.pos === "string"));
  assert.equal(parsed.tokens.find((t) => t.lower === "cannot")?.lemma, "cannot");
});

test("generated text: any string, any mix of words, punctuation and scripts — every step returns", async () => {
  const piece = fc.oneof(
    fc.constantFrom("(", ")", "[", "]", "\"", "'", "’", "“", ",", ".", "?", "!", ":", ";", "-", "—", "…", " ", "\n", "\t"),
    fc.constantFrom("I", "my", "cannot", "can't", "won't", "they", "moved", "Monday", "Oslo", "3pm", "$20", "now", "no longer", "instead", "Dr.", "e.g.", "U.S.", "’s"),
    fc.constantFrom("ñ", "é", "\u0301", "\u200d", "\u202e", "👩‍👩‍👧", "🇳🇴", "中文", "العربية", "עברית", "\u0000", "\u0007", "\ufeff", "\ud800", "𝔘"),
    fc.string({ unit: "grapheme", maxLength: 12 }),
    fc.string({ unit: "binary", maxLength: 6 }),
  );
  const text = fc.array(piece, { maxLength: 40 }).map((p) => p.join(""));
  await fc.assert(fc.asyncProperty(text, text, async (a, b) => everyStep(a, b)), { seed: 45, numRuns: 400 });
});

test("time words in any order and any zone: the reader returns, and any window it gives runs forward", () => {
  const piece = fc.constantFrom(
    "last", "this", "past", "the", "on", "over", "weekend", "weekends", "week", "weeks", "ago", "before", "between", "from", "and", "to",
    "through", "-", "–", "—", ",", "?", "a", "two", "0", "9", "11", "31", "999", "Nov", "November", "Dec", "Feb", "29", "2025", "0042",
    "9th", "of", "Saturday", "Sunday", "Monday", "yesterday", "Q4", "2026-11-09", " ", "  ",
  );
  const text = fc.array(piece, { maxLength: 14 }).map((p) => p.join(" "));
  const zone = fc.constantFrom("UTC", "Europe/Berlin", "Pacific/Kiritimati", "America/St_Johns");
  const now = fc.integer({ min: Date.parse("1990-01-01"), max: Date.parse("2100-01-01") });
  fc.assert(
    fc.property(text, now, zone, (t, n, z) => {
      const p = parseTimeExpressions(t, n, z);
      return p.span === null || p.span.end > p.span.start;
    }),
    { seed: 44, numRuns: 3000 },
  );
});

/** Every text of the evaluation data this machine has: [dataset, texts]. */
function corpora(): [string, string[]][] {
  const out: [string, string[]][] = [];
  const shared = join(process.cwd(), "..", "shared", "data");
  const textsOf = (reader: string, path: string) => DATASET_READERS[reader](path).flatMap((c) => [...c.turns.map((t) => t.input.text), ...c.questions.map((q) => q.question)]);
  if (existsSync(join(shared, "locomo"))) out.push(["locomo", textsOf("locomo", join(shared, "locomo"))]);
  if (existsSync(join(shared, "madial"))) out.push(["madial", textsOf("madial", join(shared, "madial"))]);
  // the development chats only (1–10); the others are held out
  const beam = process.env.CASCADE_BEAM_DIR ?? "/work/data/BEAM/chats/100K";
  if (existsSync(beam)) {
    const chats = readdirSync(beam).filter((d) => /^([1-9]|10)$/.test(d) && statSync(join(beam, d)).isDirectory());
    out.push(["beam 1-10", chats.flatMap((d) => textsOf("beam", join(beam, d)))]);
  }
  return out;
}

test("every text of the evaluation data here: every step returns", async (t) => {
  const sets = corpora();
  if (sets.length === 0) return t.skip("no evaluation data on this machine (../shared/data, CASCADE_BEAM_DIR)");
  for (const [name, texts] of sets) {
    let previous = "";
    for (const text of texts) {
      await everyStep(text, previous);
      previous = text;
    }
    t.diagnostic(`${name}: ${texts.length} texts, ${texts.reduce((n, s) => n + s.length, 0)} characters`);
  }
});

test("the write path stores every text of the stress set, each beside the one before it", async () => {
  const { engine } = await emptyEngine();
  try {
    await engine.remember({ text: "My flight to Oslo is on Monday.", at: "2026-11-01T09:00:00Z" });
    let stored = 0;
    for (const [i, text] of UNICODE_STRESS.entries()) {
      try {
        const r = await engine.remember({ text, at: new Date(Date.parse("2026-11-02T00:00:00Z") + i * 60_000).toISOString() });
        assert.match(r.id, /^m_/);
        stored++;
      } catch (err) {
        // an empty text or an unpaired surrogate is the caller's mistake, refused naming the field; nothing else
        assert.ok(err instanceof CascadeError && err.code === "INVALID_INPUT" && err.field === "text", `${JSON.stringify(text.slice(0, 60))}: ${(err as Error).stack}`);
      }
    }
    assert.ok(stored >= UNICODE_STRESS.length - 4, `stored ${stored} of ${UNICODE_STRESS.length}`);
    const r = await engine.remember({ text: "My flight to Oslo moved to Tuesday (they cannot) fly Monday.", at: "2026-11-05T09:00:00Z" });
    assert.match(r.id, /^m_/);
  } finally {
    await engine.close();
  }
});
