/**
 * A person's standing attributes read from the statement (graph/attributes): a new diet, employer, way to work,
 * editor, office or favourite is a change with no word of change and no word in common; the same value again
 * confirms; someone else's value, a question, a value set aside and a value for one day change nothing.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { test } from "node:test";
import { openMemory, type AttributeStateJson } from "../src/index.js";
import { formatCurrent } from "../src/surfaces/cli/commands/current-command.js";
import { renderCurrent } from "../src/surfaces/mcp/graph-tools.js";
import { attributeValues } from "../src/graph/attributes.js";
import { judgeSlots } from "../src/graph/slot-judge.js";
import { judgedStatements } from "../src/graph/statements.js";
import { attributeAsked } from "../src/query/current-attribute.js";
import { tempDir } from "./helpers.js";

const judge = (older: string, newer: string, voices?: Parameters<typeof judgeSlots>[2]) => judgeSlots(judgedStatements(older, 400), judgedStatements(newer, 49), voices);

test("another value of a standing attribute is a change, in words that share nothing with the old", () => {
  const changes: [string, string, RegExp][] = [
    ["I'm vegetarian.", "put me down as pescatarian for restaurant bookings (meat is still a no)", /diet: vegetarian → pescatarian/],
    ["I'm vegetarian.", "I started eating fish again last month", /diet: vegetarian → eats fish/],
    ["I drive to work every day.", "I take the train to work now, so much less stressful", /commute: car → train/],
    ["I drive in most days (parking is a nightmare).", "train to the office is 12 mins, SO much better than driving every day", /commute: car → train/],
    ["Backend dev at Fernhill Software.", "Friday is my last day there and I start at Kestrel Labs on Monday", /employer: fernhill → kestrel/],
    ["fyi I live in Neovim, so if you're suggesting dev tools assume terminal + nvim", "been in Zed all week and honestly not missing nvim at all", /code editor: neovim → zed/],
    ["My office is in Berlin.", "we moved to the Munich office in March", /office: berlin → munich/],
    ["My favourite colour is green.", "honestly my favourite colour is yellow these days", /favourite colour: green → yellow/],
    ["my gym is PureGym", "my gym is Anytime Fitness now, cheaper", /gym: puregym → anytime/],
  ];
  for (const [older, newer, reason] of changes) {
    const v = judge(older, newer);
    assert.equal(v?.kind, "revises", newer);
    assert.equal(v?.confidence, 0.85, newer);
    assert.match(v!.reason, reason);
  }
});

test("the same value again confirms; someone else's, a question, a food and one day's value change nothing", () => {
  assert.equal(judge("I'm vegetarian.", "still vegetarian, so no steak place please")?.kind, "confirms");
  assert.equal(judge("I use VS Code for everything.", "VS Code update broke my extensions again")?.kind, "confirms");
  assert.equal(judge("Backend dev at Fernhill Software.", "first week at Fernhill done")?.kind, "confirms", "one employer named short or in full");
  for (const newer of [
    "my sister has gone vegan, can you find her a cookbook",
    "Sam's favourite colour is yellow",
    "everyone there uses Zed so I'll give it a go",
    "Tonight I'm cooking a vegan curry for Sam",
    "we're in Belém, where's good for lunch that's pescatarian friendly",
    "is the bus quicker than cycling to the office?",
    "the car's at the garage so I'm taking the bus to work this week",
    "should I apply for the job at Guy's?",
    "I joined Strava club last night",
  ]) {
    const v = judge(["I'm vegetarian.", "I use Neovim.", "I cycle to the office most days.", "I'm a nurse at St Mary's.", "My favourite colour is green."].join(" "), newer);
    assert.notEqual(v?.kind, "revises", newer);
  }
});

test("an assistant's words give the user's value only when said of 'you'", () => {
  assert.deepEqual(attributeValues("I've noted on the booking that you're vegetarian.", "assistant").map((v) => v.value), ["vegetarian"]);
  assert.deepEqual(attributeValues("Apple charges £95 for an iPhone 12 battery replacement.", "assistant"), []);
  assert.deepEqual(attributeValues("Apple charges £95 for an iPhone 12 battery replacement."), [], "a company's price names nobody's phone");
  assert.deepEqual(attributeValues("my iPhone 12 battery is at 78%").map((v) => `${v.attribute}: ${v.value}`), ["phone: iphone"]);
});

test("end to end: the old diet is found among many memories by its class, only in its own scope, and the present comes first", async () => {
  const memory = await openMemory({ path: join(tempDir(), "diet.db"), now: Date.parse("2026-11-20T12:00:00Z") });
  try {
    const day = (n: number) => new Date(Date.parse("2026-10-01T09:00:00Z") + n * 3_600_000).toISOString();
    const say = (user: string, text: string, n: number) => memory.remember({ text, at: day(n), user, role: "user", speaker: user });
    const old = await say("maya", "I'm vegetarian, and seriously allergic to peanuts.", 0);
    const other = await say("tom", "I'm vegan these days.", 1);
    // more than the 30 recent memories detection reads anyway, none of them about food
    const who = ["the plumber", "the dentist", "my landlord", "the bank", "Jess", "the garage", "the library", "the council"];
    const what = ["called back about the leak", "sent the forms over", "wants a reply by email", "left a voicemail", "is away until later", "asked about the parcel"];
    for (let i = 0; i < 40; i++) await say("maya", `${who[i % who.length]} ${what[i % what.length]}`, 2 + i);
    const now = await say("maya", "ok confession, had fish and chips last night. put me down as pescatarian for restaurant bookings", 50);
    const edges = (await memory.list({ limit: 100 })).edges.filter((e) => e.type === "supersedes" && e.retracted_at === null);
    assert.deepEqual(edges.map((e) => [e.from, e.to]), [[now.id, old.id]]);
    assert.ok(!edges.some((e) => e.to === other.id || e.from === other.id), "tom's diet is his own");
    const hits = (await memory.recall("what's my diet these days?", { k: 5, filter: { user: "maya" } })).hits;
    assert.equal(hits[0].id, now.id);
  } finally {
    await memory.close();
  }
});

test("a question names the attribute whose present value it asks for; a question about the past names none", () => {
  assert.equal(attributeAsked("Where do I work now?"), "employer");
  assert.equal(attributeAsked("what's my diet these days?"), "diet");
  assert.equal(attributeAsked("How do I usually get to work?"), "commute");
  assert.equal(attributeAsked("which editor am I using?"), "code editor");
  assert.equal(attributeAsked("what's my favourite colour?"), "favourite colour");
  assert.equal(attributeAsked("what's my gym?"), "gym");
  assert.equal(attributeAsked("Who is my phone contract with right now?"), "contract with");
  assert.equal(attributeAsked("How many commits have been merged into the main branch of my Git repository?"), null);
  assert.equal(attributeAsked("What was my diet before?"), null);
  assert.equal(attributeAsked("What is Gina's favorite style of dance?"), null, "someone else's attribute");
  assert.equal(attributeAsked("Where did I work in 2020?"), null);
  assert.equal(attributeAsked("Who's my manager these days?"), "manager", "a role asked for");
  assert.equal(attributeAsked("Who is my GP?"), "doctor", "a GP is the doctor role");
  assert.equal(attributeAsked("what shift am i on this month?"), "working hours");
  assert.equal(attributeAsked("when do I work these days?"), "working hours");
});

test("the hours someone works are a standing attribute: a new range replaces the old, a place's hours are nobody's", () => {
  const hours = (s: string) => attributeValues(s).filter((v) => v.attribute === "working hours").map((v) => v.value);
  assert.deepEqual(hours("new job at the bakery, shift is 5 to 1 wed-sun"), ["5-13"], "a day shift ending at a smaller hour ends after noon");
  assert.deepEqual(hours("from friday we're on 19:00-03:00 every weekend"), ["19-3"]);
  assert.deepEqual(hours("the pharmacy's opening hours are 9 to 5"), [], "a shop's hours");
  assert.deepEqual(hours("my sister's shift is 7 to 3 this week"), [], "someone else's, for one week");
  assert.deepEqual(hours("i'm on 2-3 coffees a day"), [], "a count, not hours");
  const moved = judgeSlots(["my shift is 8 to 4 mon-fri at the depot."], ["they moved me to the late crew, 15:00 to 23:00 from monday"]);
  assert.equal(moved?.kind, "revises");
  assert.match(moved!.reason, /working hours: 8-16 → 15-23/);
  assert.equal(judgeSlots(["my shift is 8 to 4 mon-fri"], ["noted, your shift is 08:00 to 16:00 on weekdays"], { older: "speaker", newer: "assistant" })?.kind, "confirms", "the same hours written on the 24-hour clock");
});

test("end to end: the latest statement of the attribute asked comes first, though it shares no word with the question", async () => {
  const memory = await openMemory({ path: join(tempDir(), "employer.db"), now: Date.parse("2026-10-25T12:00:00Z") });
  try {
    const say = (text: string, at: string) => memory.remember({ text, at, user: "tom", role: "user", speaker: "tom" });
    await say("Hey. Tom here. Backend dev at Fernhill Software. I drive in most days.", "2026-10-01T09:00:00Z");
    await say("my Pixel 7 screen's cracked in the corner, works fine tho. worth fixing?", "2026-10-04T09:00:00Z");
    await say("need a work-from-home chair, my back is wrecked", "2026-10-06T09:00:00Z");
    const now = await say("first day at Kestrel done! the team seems sound", "2026-10-19T18:00:00Z");
    await say("what should I cook tonight, something quick", "2026-10-20T18:00:00Z");
    const hits = (await memory.recall("Where do I work now?", { k: 5, filter: { user: "tom" } })).hits;
    assert.equal(hits[0].id, now.id);
    assert.ok(hits[0].adjustments.some((a) => /latest statement of employer \(kestrel\)/.test(a.reason)), JSON.stringify(hits[0].adjustments));
    // the past is asked for in the past tense, and nothing is moved for it
    const before = (await memory.recall("Where did I work before?", { k: 5, filter: { user: "tom" } })).hits;
    assert.ok(!before.some((h) => h.adjustments.some((a) => a.reason.startsWith("the latest statement of"))));
  } finally {
    await memory.close();
  }
});

test("end to end: the memory that handed a role over is the present holder, though it never says 'my manager is'", async () => {
  const memory = await openMemory({ path: join(tempDir(), "handover.db"), now: Date.parse("2026-10-25T12:00:00Z") });
  try {
    const say = (text: string, at: string) => memory.remember({ text, at, user: "ines", role: "user", speaker: "ines" });
    await say("Quick intro: I'm Ines, QA lead at Portline. My manager is Tomas Berg. I take the tram in.", "2026-10-01T09:00:00Z");
    await say("manager wants the regression report by friday, long week ahead", "2026-10-06T09:00:00Z");
    await say("my manager said the release slips a week, fine by me", "2026-10-09T09:00:00Z");
    const handover = await say("1:1 with Sofia Lindqvist today, she's taken over the QA group since Tomas left for the Oslo office.", "2026-10-15T09:00:00Z");
    const edges = (await memory.list({ limit: 50 })).edges.filter((e) => e.type === "supersedes");
    assert.ok(edges.some((e) => e.from === handover.id), "the hand-over replaced the statement of the manager");
    const hits = (await memory.recall("Who's my manager these days?", { k: 5, filter: { user: "ines" } })).hits;
    assert.equal(hits[0].id, handover.id, hits.map((h) => h.text).join(" | "));
    assert.match(JSON.stringify(hits[0].adjustments), /replaced the latest statement of manager/);
  } finally {
    await memory.close();
  }
});

test("the current-state view gives each holder's standing attributes, the value now and the values before it", async () => {
  const memory = await openMemory({ path: join(tempDir(), "state.db"), now: Date.parse("2026-11-20T12:00:00Z") });
  try {
    const say = (user: string, text: string, at: string, role = "user") => memory.remember({ text, at, user, role, speaker: role === "user" ? user : "assistant" });
    await say("maya", "I'm vegetarian. I cycle to the office most days. My manager is Priya Shah. Her boss is Tom.", "2026-10-01T09:00:00Z");
    await say("maya", "Booked Tharavadu for 19:30. I've noted on the booking that you're vegetarian.", "2026-10-03T09:00:00Z", "assistant");
    const now = await say("maya", "put me down as pescatarian for restaurant bookings (meat is still a no)", "2026-10-09T09:00:00Z");
    await say("tom", "Backend dev at Fernhill Software. I'm vegan these days.", "2026-10-01T09:00:00Z");
    const state = await memory.currentState({ filter: { user: "maya" } });
    const line = (a: AttributeStateJson) => `${a.holder} ${a.attribute}: ${a.value} <- ${a.before.map((b) => b.value).join(",")}`;
    assert.deepEqual(state.attributes.map(line), ["maya commute: bike <- ", "maya diet: pescatarian <- vegetarian", "maya manager: priya <- "]);
    const diet = state.attributes.find((a: AttributeStateJson) => a.attribute === "diet")!;
    assert.equal(diet.id, now.id);
    assert.equal(diet.text, "put me down as pescatarian for restaurant bookings (meat is still a no)");
    // as the world stood before the change, the old value stands and nothing came before it
    const then = await memory.currentState({ filter: { user: "maya" }, asOf: "2026-10-05T00:00:00Z" });
    assert.deepEqual(then.attributes.map(line), ["maya commute: bike <- ", "maya diet: vegetarian <- ", "maya manager: priya <- "]);
    // what a person and a model read
    const cli = formatCurrent(state);
    assert.match(cli, /^attributes now:\n {2}maya's commute: bike {2}since 2026-10-01 .*\n {2}maya's diet: pescatarian {2}since 2026-10-09 \(m_\w+; before: vegetarian \(2026-10-03\)\)/);
    assert.match(renderCurrent(state), /^Attributes now:\n- maya commute: bike .*\n- maya diet: pescatarian \(since 2026-10-09T09:00:00Z, \[m_\w+\]; before: vegetarian\)/);
    const tom = await memory.currentState({ filter: { user: "tom" } });
    assert.deepEqual(tom.attributes.map(line), ["tom diet: vegan <- ", "tom employer: fernhill <- "]);
  } finally {
    await memory.close();
  }
});
