import assert from "node:assert/strict";
import { test } from "node:test";
import { CascadeError, Engine, SqliteStore, defaultGloveEmbedder, parseTimeExpressions } from "../src/index.js";
import { windowAt, windowName } from "../src/time/windows.js";
import { namesOnlyTime } from "../src/time/only-time.js";

const NOW = Date.parse("2026-06-20T15:00:00Z"); // a Saturday
const iso = (ms: number) => new Date(ms).toISOString().replace(".000Z", "Z");

test("time expressions become windows relative to now, and leave the query", () => {
  const cases: [string, string, string, string, string][] = [
    // query, remaining text, start, end, level
    ["what happened last Tuesday", "what happened", "2026-06-16T00:00:00Z", "2026-06-17T00:00:00Z", "day"],
    ["what did we decide yesterday?", "what did we decide?", "2026-06-19T00:00:00Z", "2026-06-20T00:00:00Z", "day"],
    ["notes from March 3", "notes from", "2026-03-03T00:00:00Z", "2026-03-04T00:00:00Z", "day"],
    ["standup on 3 March 2025", "standup", "2025-03-03T00:00:00Z", "2025-03-04T00:00:00Z", "day"],
    ["release notes from December 24", "release notes from", "2025-12-24T00:00:00Z", "2025-12-25T00:00:00Z", "day"],
    ["what happened in June", "what happened", "2026-06-01T00:00:00Z", "2026-07-01T00:00:00Z", "month"],
    ["trips in September", "trips", "2025-09-01T00:00:00Z", "2025-10-01T00:00:00Z", "month"],
    ["What did Caroline do in May 2023?", "What did Caroline do?", "2023-05-01T00:00:00Z", "2023-06-01T00:00:00Z", "month"],
    ["last week's incidents", "incidents", "2026-06-08T00:00:00Z", "2026-06-15T00:00:00Z", "week"],
    ["this month", "", "2026-06-01T00:00:00Z", "2026-07-01T00:00:00Z", "month"],
    ["roadmap this quarter", "roadmap", "2026-04-01T00:00:00Z", "2026-07-01T00:00:00Z", "month"],
    ["how did the deployment plan evolve over the last 3 months", "how did the deployment plan evolve", "2026-03-20T00:00:00Z", "2026-06-21T00:00:00Z", "month"],
    ["two weeks ago", "", "2026-06-01T00:00:00Z", "2026-06-08T00:00:00Z", "week"],
    ["what did I cook a fortnight ago", "what did I cook", "2026-06-01T00:00:00Z", "2026-06-08T00:00:00Z", "week"],
    ["anything from the week of March 2nd?", "anything from?", "2026-03-02T00:00:00Z", "2026-03-09T00:00:00Z", "week"],
    ["notes from the week of 8 June 2026", "notes from", "2026-06-08T00:00:00Z", "2026-06-15T00:00:00Z", "week"],
    ["the 2026-06-03 standup", "the standup", "2026-06-03T00:00:00Z", "2026-06-04T00:00:00Z", "day"],
    ["Q1 results", "results", "2026-01-01T00:00:00Z", "2026-04-01T00:00:00Z", "month"],
    ["budget for 2026-02", "budget for", "2026-02-01T00:00:00Z", "2026-03-01T00:00:00Z", "month"],
  ];
  for (const [query, text, start, end, level] of cases) {
    const p = parseTimeExpressions(query, NOW);
    assert.ok(p.span, query);
    assert.deepEqual([p.text, iso(p.span.start), iso(p.span.end), p.span.level], [text, start, end, level], query);
  }
  for (const plain of ["plain question about pools", "may I ask about the march", "2026-13-45 is not a date", "on February 30"]) {
    assert.equal(parseTimeExpressions(plain, NOW).span, null, plain);
  }
  assert.equal(parseTimeExpressions("how did the pricing evolve", NOW).level, "month");
});

test("windows follow the time zone, across a change of daylight saving time", () => {
  const zone = "Europe/Berlin";
  const lateEvening = Date.parse("2026-06-15T23:30:00Z"); // 01:30 on the 16th in Berlin
  const day = windowAt("day", lateEvening, zone);
  assert.equal(iso(day.start), "2026-06-15T22:00:00Z");
  assert.equal(windowName(day, zone), "2026-06-16");
  const dst = windowAt("day", Date.parse("2026-03-29T12:00:00Z"), zone); // clocks go forward: a 23-hour day
  assert.equal(dst.end - dst.start, 23 * 3_600_000);
  const week = windowAt("week", lateEvening, zone);
  assert.equal(windowName(week, zone), "2026-W25");
  assert.equal(windowName(windowAt("week", Date.parse("2027-01-01T12:00:00Z")), "UTC"), "2026-W53");
  assert.equal(windowName(windowAt("week", Date.parse("2026-01-01T12:00:00Z")), "UTC"), "2026-W01");
});

test("the pyramid cuts windows in its configured zone; an unknown zone is refused", async () => {
  const e = defaultGloveEmbedder();
  const engine = await Engine.create({ store: new SqliteStore(":memory:"), embedder: e, tokens: e }, { detection: { enabled: false }, pyramid: { zone: "America/New_York" } });
  await engine.remember({ text: "Late call with the vendor about renewal terms and pricing.", at: "2026-06-16T02:00:00Z" }); // 22:00 on the 15th in New York
  await engine.buildPyramid();
  const { nodes, zone } = await engine.pyramid({ level: "day" });
  assert.equal(zone, "America/New_York");
  assert.deepEqual(nodes.map((n) => [n.id, n.start]), [["p_day_2026-06-15", "2026-06-15T04:00:00Z"]]);
  await engine.close();
  await assert.rejects(
    Engine.create({ store: new SqliteStore(":memory:"), embedder: e, tokens: e }, { pyramid: { zone: "Mars/Olympus" } }),
    (err: unknown) => err instanceof CascadeError && err.code === "INVALID_INPUT" && /pyramid.zone/.test(err.message),
  );
});

test("a question is only a time when what is left asks what took place and names no subject", () => {
  for (const rest of ["what happened", "what did I do?", "anything from?", "Catch me up on", "tell me about", "?", ""]) {
    assert.equal(namesOnlyTime(rest), true, rest);
  }
  for (const rest of ["what happened to the Postgres pool", "what did Caroline do?", "incidents", "what did we decide about configuration"]) {
    assert.equal(namesOnlyTime(rest), false, rest);
  }
});

/** [query, remaining text, start, end, level] read at `now`. */
type Case = [string, string, string, string, string];
function checkCases(now: string, cases: Case[]): void {
  for (const [query, text, start, end, level] of cases) {
    const p = parseTimeExpressions(query, Date.parse(now));
    assert.ok(p.span, `${query}: no span`);
    assert.deepEqual([p.text, iso(p.span.start), iso(p.span.end), p.span.level], [text, start, end, level], `${query} at ${now}`);
  }
}

test("weekends: last weekend is the latest whole weekend before now, the one before it when now is a weekend", () => {
  checkCases("2026-11-20T12:00:00Z", [ // a Friday
    ["what did I do last weekend?", "what did I do?", "2026-11-14T00:00:00Z", "2026-11-16T00:00:00Z", "day"],
    ["this past weekend", "", "2026-11-14T00:00:00Z", "2026-11-16T00:00:00Z", "day"],
    ["what happened over the weekend", "what happened", "2026-11-14T00:00:00Z", "2026-11-16T00:00:00Z", "day"],
    ["the weekend before last", "", "2026-11-07T00:00:00Z", "2026-11-09T00:00:00Z", "day"],
    ["two weekends ago", "", "2026-11-07T00:00:00Z", "2026-11-09T00:00:00Z", "day"],
    ["plans this weekend", "plans", "2026-11-21T00:00:00Z", "2026-11-23T00:00:00Z", "day"],
    ["the weekend before November 11", "", "2026-11-07T00:00:00Z", "2026-11-09T00:00:00Z", "day"],
    ["what did I do last weekend before November 11?", "what did I do?", "2026-11-07T00:00:00Z", "2026-11-09T00:00:00Z", "day"],
  ]);
  for (const now of ["2026-11-21T09:00:00Z", "2026-11-22T23:00:00Z"]) { // Saturday, Sunday: the weekend before this one
    checkCases(now, [
      ["last weekend", "", "2026-11-14T00:00:00Z", "2026-11-16T00:00:00Z", "day"],
      ["the weekend before last", "", "2026-11-07T00:00:00Z", "2026-11-09T00:00:00Z", "day"],
      ["this weekend", "", "2026-11-21T00:00:00Z", "2026-11-23T00:00:00Z", "day"],
      ["over the weekend", "", "2026-11-21T00:00:00Z", "2026-11-23T00:00:00Z", "day"],
    ]);
  }
  checkCases("2026-11-23T08:00:00Z", [ // a Monday: the weekend that just ended
    ["last weekend", "", "2026-11-21T00:00:00Z", "2026-11-23T00:00:00Z", "day"],
    ["over the weekend", "", "2026-11-21T00:00:00Z", "2026-11-23T00:00:00Z", "day"],
  ]);
  // in the pyramid's zone: the weekend starts at local midnight
  const p = parseTimeExpressions("last weekend", Date.parse("2026-11-20T12:00:00Z"), "Europe/Berlin");
  assert.deepEqual([iso(p.span!.start), iso(p.span!.end)], ["2026-11-13T23:00:00Z", "2026-11-15T23:00:00Z"]);
});

test("a range of days runs from the first day's midnight to the end of the last", () => {
  const [start, end, level] = ["2026-11-09T00:00:00Z", "2026-11-12T00:00:00Z", "week"]; // three days: week summaries
  checkCases("2026-11-20T12:00:00Z", [
    ["what did I do between November 9 and November 11?", "what did I do?", start, end, level],
    ["between Nov 9 and 11", "", start, end, level],
    ["from 9 to 11 November", "", start, end, level],
    ["November 9–11", "", start, end, level],
    ["November 9-11", "", start, end, level],
    ["from November 9 to 11", "", start, end, level],
    ["Nov 9th through 11th", "", start, end, level],
    ["between 9 and 11 November", "", start, end, level],
    ["9–11 Nov trip", "trip", start, end, level],
    ["from the 9th to the 11th of November", "", start, end, level],
    ["between 28 October and 3 November", "", "2026-10-28T00:00:00Z", "2026-11-04T00:00:00Z", "week"],
    ["November 9–11, 2025", "", "2025-11-09T00:00:00Z", "2025-11-12T00:00:00Z", "week"],
    ["from Dec 28 to Jan 3", "", "2025-12-28T00:00:00Z", "2026-01-04T00:00:00Z", "week"],
    ["between November 9 and 10", "", "2026-11-09T00:00:00Z", "2026-11-11T00:00:00Z", "day"],
    ["from 1 to 30 September", "", "2026-09-01T00:00:00Z", "2026-10-01T00:00:00Z", "month"],
  ]);
  // not ranges: two days named with "and", a range that ends before it starts, a day that does not exist
  checkCases("2026-11-20T12:00:00Z", [
    ["Nov 9 and 11", "and 11", "2026-11-09T00:00:00Z", "2026-11-10T00:00:00Z", "day"],
  ]);
  for (const q of ["from 9 to 5", "between 9 and 11", "November 11-9", "between November 9 and November 31"]) {
    const p = parseTimeExpressions(q, Date.parse("2026-11-20T12:00:00Z"));
    assert.ok(!p.span || p.span.end - p.span.start <= 86_400_000, `${q}: ${p.span && iso(p.span.start)} to ${p.span && iso(p.span.end)}`);
  }
});

test("a weekday N weeks ago is that one day of the week N weeks ago; the weekday before last or before a date", () => {
  checkCases("2026-11-20T12:00:00Z", [ // a Friday; two weeks ago is the week of 2-8 November
    ["what did I do two weeks ago on Saturday?", "what did I do?", "2026-11-07T00:00:00Z", "2026-11-08T00:00:00Z", "day"],
    ["on Saturday two weeks ago", "", "2026-11-07T00:00:00Z", "2026-11-08T00:00:00Z", "day"],
    ["the Saturday two weeks ago", "", "2026-11-07T00:00:00Z", "2026-11-08T00:00:00Z", "day"],
    ["a week ago Saturday", "", "2026-11-14T00:00:00Z", "2026-11-15T00:00:00Z", "day"],
    ["Tuesday 3 weeks ago", "", "2026-10-27T00:00:00Z", "2026-10-28T00:00:00Z", "day"],
    ["on Saturday last week", "", "2026-11-14T00:00:00Z", "2026-11-15T00:00:00Z", "day"],
    ["two weeks ago on the weekend", "", "2026-11-07T00:00:00Z", "2026-11-09T00:00:00Z", "day"],
    ["last Saturday", "", "2026-11-14T00:00:00Z", "2026-11-15T00:00:00Z", "day"],
    ["the Saturday before last", "", "2026-11-07T00:00:00Z", "2026-11-08T00:00:00Z", "day"],
    ["what did I do the Saturday before?", "what did I do?", "2026-11-14T00:00:00Z", "2026-11-15T00:00:00Z", "day"],
    ["the Saturday before November 11", "", "2026-11-07T00:00:00Z", "2026-11-08T00:00:00Z", "day"],
    ["the Friday before 13 November", "", "2026-11-06T00:00:00Z", "2026-11-07T00:00:00Z", "day"],
    ["a week ago", "", "2026-11-09T00:00:00Z", "2026-11-16T00:00:00Z", "week"],
  ]);
  checkCases("2026-11-21T09:00:00Z", [ // a Saturday: last Saturday is a week back
    ["last Saturday", "", "2026-11-14T00:00:00Z", "2026-11-15T00:00:00Z", "day"],
    ["two weeks ago on Saturday", "", "2026-11-07T00:00:00Z", "2026-11-08T00:00:00Z", "day"],
  ]);
  // the Saturday before something it cannot date is not read as a date
  assert.equal(parseTimeExpressions("the Saturday before the trip", Date.parse("2026-11-20T12:00:00Z")).span, null);
});
