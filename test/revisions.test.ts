import assert from "node:assert/strict";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, test } from "node:test";
import { CueJudge, evaluateRevisions, judgeRevision, loadRevisionPairs } from "../src/index.js";
import { changeCues } from "../src/graph/revision-cues.js";
import { parseMemory } from "../src/graph/revision-parse.js";
import { valueChange } from "../src/graph/revision-values.js";
import { isStopWord } from "../src/text/stopwords.js";
import { cli, cliHere, tempDir } from "./helpers.js";

// the fixtures are JSONL beside the sources (tsc does not copy them into dist)
const fixture = (name: string) => fileURLToPath(new URL(`../../test/fixtures/${name}`, import.meta.url));
const SETS = [fixture("revisions-a.jsonl"), fixture("revisions-b.jsonl")];
const EDGE = 0.8;

test("both labelled sets, and a third written after the rule: edges at precision ≥ 0.95 and recall ≥ 0.85", async () => {
  const report = await evaluateRevisions([...SETS, fixture("revisions-c.jsonl")]);
  assert.equal(report.edge_threshold, EDGE);
  const c = report.sets.pop()!;
  console.log(`# ${c.set}: ${c.pairs} pairs, edges precision ${c.edges.precision} recall ${c.edges.recall}`);
  assert.ok(c.edges.precision >= 0.95 && c.edges.recall >= 0.85, `${c.set}: ${c.edges.precision} / ${c.edges.recall}`);
  for (const s of report.sets) {
    console.log(`# ${s.set}: ${s.pairs} pairs, edges precision ${s.edges.precision} recall ${s.edges.recall}; with suggestions precision ${s.detected.precision} recall ${s.detected.recall}`);
    assert.ok(s.pairs >= 150, `${s.set}: ${s.pairs} pairs`);
    assert.ok(s.edges.precision >= 0.95, `${s.set}: precision ${s.edges.precision}`);
    assert.ok(s.edges.recall >= 0.85, `${s.set}: recall ${s.edges.recall}`);
    assert.deepEqual(
      s.kinds.map((k) => k.kind).sort(),
      ["addition", "cancellation", "compatible", "hypothetical", "other-event", "other-person", "plan", "preference", "quantity", "question", "repetition", "replacement", "reschedule"],
    );
  }
});

test("eval revisions on the CLI: one line per set and kind, a bad line named with its file and number", async () => {
  const r = cli(["eval", "revisions", ...SETS]);
  assert.equal(r.status, 0, r.stderr);
  assert.match(r.stdout, /revisions-a \(168 pairs\)\n {2}edges: +precision 100\.0%/);
  assert.match(r.stdout, / {4}reschedule +20 revisions {2}linked \d+\/20/);
  const bad = join(tempDir(), "bad.jsonl");
  const missing = await cliHere(["eval", "revisions", bad]);
  assert.equal(missing.status, 2);
  assert.match(missing.stderr, /cannot read .*bad\.jsonl/);
  writeFileSync(bad, `{"older":"a","newer":"b","revises":true,"kind":"plan"}\n{"older":"a","newer":"b","revises":"yes","kind":"plan"}\n`);
  const refused = await cliHere(["eval", "revisions", bad]);
  assert.equal(refused.status, 2);
  assert.match(refused.stderr, /bad\.jsonl line 2: revises: /);
});

describe("what the judge reads off a memory", () => {
  test("a question, a proposal, a condition, a possibility or a wish asserts nothing; a preference does", () => {
    assert.equal(parseMemory("Should Sam move the Lisbon trip to December 27?").irrealis, "a question");
    assert.equal(parseMemory("If it rains, the picnic would move indoors.").irrealis, "a condition (if)");
    assert.equal(parseMemory("We might move the dinner to Sunday.").irrealis, "a possibility (might)");
    assert.equal(parseMemory("Zoe hopes to run 8 km by summer.").irrealis, "a wish or a thought (hopes)");
    assert.equal(parseMemory("Should the coach be late, we take the train.").irrealis, "a condition (should …)");
    assert.equal(parseMemory("Proposal: put all service configuration into YAML files.").irrealis, "a proposal (proposal)");
    assert.equal(parseMemory("Lily has decided she'd rather have a small wedding.").irrealis, null);
    assert.equal(parseMemory("Since May, the standup is at 10.").irrealis, null);
  });

  test("a verb of change counts when it acts on what the older memory said", () => {
    const cues = (older: string, newer: string) => changeCues(parseMemory(older), parseMemory(newer)).map((c) => `${c.kind}:${c.name}`);
    assert.deepEqual(cues("Plan: Sam flies to Lisbon on December 20.", "Sam moved the Lisbon trip to December 27."), ["reschedule:moved"]);
    // passive: what changed is the subject
    assert.deepEqual(cues("The quarterly review meeting is on March 4.", "The quarterly review has been postponed to March 11."), ["reschedule:postponed"]);
    assert.deepEqual(cues("Nadia is hosting a game night on Saturday.", "Nadia called off Saturday's game night."), ["end:called off"]);
    assert.deepEqual(cues("Ingrid's flight departs on the 3rd.", "Ingrid rebooked her flight for the 6th."), ["reschedule:rebooked"]);
    // stops eating, not the surgery; moves the service, not its owner
    assert.deepEqual(cues("Leo's surgery is scheduled for January 8.", "Leo has to stop eating at midnight before his surgery on January 8."), []);
    assert.deepEqual(cues("Priya owns the payments-api.", "The payments-api moved to Kubernetes."), []);
    // markers
    assert.deepEqual(cues("The trip to Crete is 3 days.", "The Crete trip went from 3 to 5 days."), ["replace:from … to"]);
    assert.deepEqual(cues("Sofia's running coach is Marta.", "Sofia has a new running coach, Daniel."), ["replace:new coach"]);
    assert.deepEqual(cues("Zoe runs 5 km every morning.", "Zoe bought new running shoes."), []);
    assert.deepEqual(cues("Our holiday this year is in Greece.", "This year's holiday is Portugal, not Greece."), ["replace:, not greece"]);
    assert.deepEqual(cues("Our mortgage rate is 4.5 percent.", "After remortgaging, our rate is 3.9 percent."), ["replace:remortgaging"]);
    // the date a new value takes effect
    assert.deepEqual(cues("Connection pool size is 50 in the service config.", "Pool size goes to 20 from June."), ["state:from june"]);
  });

  test("a value replaces another of the same slot; a value still stated, or of another kind, does not", () => {
    const change = (older: string, newer: string) => valueChange(parseMemory(older), parseMemory(newer), (t) => isStopWord(t.lower));
    assert.equal(change("Sam flies to Lisbon on December 20.", "Sam flies to Lisbon on December 27.")?.sameFrame, true);
    assert.match(change("Sam flies to Lisbon on December 20.", "Sam moved the Lisbon trip to December 27.")!.text, /20 → 27/);
    assert.equal(change("The team standup is on Tuesdays.", "The team standup is on Thursdays.")?.text, "tuesday → thursday");
    assert.equal(change("Our rent is $1,800 a month.", "Our rent went up to $1,950 a month.")?.text, "rent: 1800 → 1950");
    assert.equal(change("The guest list has 120 people.", "Of the 120 guests, 30 are children."), null);
    assert.equal(change("The kids' bedtime is 8:30.", "The kids read for 20 minutes before bedtime."), null);
    assert.equal(change("The cat gets two scoops of food a day.", "The cat should get one scoop of food a day.")?.text, "cat: 2 → 1");
  });
});

describe("verdicts and their reasons", () => {
  test("the Lisbon reschedule is an edge, with the cue and the value in its reason", () => {
    const v = judgeRevision("Plan: Sam flies to Lisbon on December 20", "Sam moved the Lisbon trip to December 27 because of a work deadline");
    assert.ok(v.confidence >= EDGE, String(v.confidence));
    assert.match(v.reason, /cue: moved; value .*20 → 27/);
  });

  test("someone else, a question, a hypothesis: nothing, and the reason says which", () => {
    const older = "Plan: Sam flies to Lisbon on December 20.";
    const rita = judgeRevision(older, "Rita flies to Lisbon on December 27.");
    assert.equal(rita.confidence, 0);
    assert.match(rita.reason, /^about someone else \(rita\)/);
    assert.match(judgeRevision("Marcus takes 20 mg daily.", "Marcus's wife takes 10 mg daily.").reason, /^about someone else \(wife\)/);
    assert.deepEqual(judgeRevision(older, "Should Sam move the Lisbon trip to December 27?"), { confidence: 0, reason: "a question, not a statement" });
    assert.equal(judgeRevision(older, "If the deadline slips, Sam might move the trip to December 27.").confidence, 0);
    // a new holder with a cue that says so takes the older one's place
    assert.ok(judgeRevision("Luca is the goalkeeper for the Sunday team.", "Pietro took over as goalkeeper for the Sunday team.").confidence >= EDGE);
  });

  test("a changed value alone: an edge when the statement is restated, nothing when it may be another event", () => {
    assert.ok(judgeRevision("The team standup is on Tuesdays.", "The team standup is on Thursdays.").confidence >= EDGE);
    const other = judgeRevision("Maya's piano recital is on June 3.", "Maya's school play is on June 10.");
    assert.ok(other.confidence < 0.5, other.reason);
    assert.match(other.reason, /in other words/);
  });

  test("a weak cue is a suggestion, unless one word of the statement is said otherwise", () => {
    const weak = judgeRevision("The design review happens in the big meeting room.", "The design review happens on video calls now.");
    assert.ok(weak.confidence >= 0.5 && weak.confidence < EDGE, String(weak.confidence));
    const swapped = judgeRevision("I prefer window seats on flights.", "On flights I prefer aisle seats now.");
    assert.ok(swapped.confidence >= EDGE, swapped.reason);
    assert.match(swapped.reason, /says window → aisl/);
  });

  test("the cheap test before any lookup lets every revision of both sets through, and plain chat not", () => {
    const judge = new CueJudge();
    for (const path of SETS) {
      for (const p of loadRevisionPairs(path).filter((p) => p.revises)) assert.ok(judge.mayRevise(p.newer), p.newer);
    }
    assert.equal(judge.mayRevise("Sounds great, see you there."), false);
  });
});

test("the Lisbon case end to end: a reschedule told at the same instant as the plan supersedes it, and search --current-only shows December 27", async () => {
  const db = join(tempDir(), "lisbon.db");
  // a fixed --now gives both memories one event time: the plan written first is the earlier one
  const run = (...args: string[]) => cliHere([...args, "--db", db, "--now", "2026-12-01T09:00:00Z"]);
  assert.equal((await run("add", "Plan: Sam flies to Lisbon on December 20")).status, 0);
  const added = await run("add", "Sam moved the Lisbon trip to December 27 because of a work deadline");
  assert.match(added.stdout, /supersedes m_\w+ \(detected, confidence 1\.00\)/);
  const found = await run("search", "travel plans", "--current-only");
  assert.equal(found.status, 0, found.stderr);
  const hits = found.stdout.split("context (summaries")[0];
  assert.match(hits, /December 27/);
  assert.doesNotMatch(hits, /December 20/);
});
