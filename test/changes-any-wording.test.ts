/**
 * Changes said without a word of change: counts, schedules of listed days, a value named again and set aside, phone
 * numbers and email addresses, a rebooking; and what must not count (someone else's dose, a pet called Pixel, a
 * dinner with a person cancelled, a question). The wordings come from a scenario written apart from the rules
 * (test/fixtures/scenario-changes-5.jsonl); docs/HOW-IT-WORKS.md, "Changes in any wording".
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { judgeSlots } from "../src/graph/slot-judge.js";
import { attributeValues } from "../src/graph/attributes.js";
import { countsIn } from "../src/graph/counts.js";
import { addressesIn } from "../src/graph/addresses.js";
import { sentencesOf } from "../src/text/sentences.js";
import { openMemory } from "../src/index.js";

const judge = (older: string, newer: string) => judgeSlots(sentencesOf(older, { chat: true }), sentencesOf(newer, { chat: true }));

test("a count of the same thing over the same period, or of the same occasion, is one attribute's value", () => {
  assert.deepEqual(countsIn("and i drink like 4 cafecitos a day").map((c) => [c.noun, c.value, c.per]), [["cafecito", "4", "day"]]);
  assert.deepEqual(countsIn("so we're 15 for thanksgiving").map((c) => [c.noun, c.value]), [["people", "15"]]);
  assert.deepEqual(countsIn("it's 3 weeks away and 4 years old"), [], "spans of time are not counts");
  const cafecitos = judge("and i drink like 4 cafecitos a day, don't judge me", "day 3 of two cafecitos a day. i am a shell of a woman");
  assert.equal(cafecitos?.kind, "revises");
  assert.equal(cafecitos?.confidence, 0.85);
  assert.match(cafecitos!.reason, /cafecito a day: 4 → 2/);
  const guests = judge("we're doing thanksgiving at our place this year, 11 people so far.", "mi prima Claudia is bringing her in-laws so we're 15 for thanksgiving, need a second table");
  assert.equal(guests?.kind, "revises");
  assert.match(guests!.reason, /11 → 15/);
  // two exercises' counts are two counts
  assert.equal(judge("I finished 12 problems on fractions today.", "I finished 15 problems on geometry today."), null);
});

test("days listed together are a schedule that recurs: another list replaces it, at any venue", () => {
  const practice = judge("sofia's soccer practice is tues & thurs 5:30 at Woodlawn Lake park.", "coach sent the fall schedule, practices are mon + wed 5:30, still at woodlawn lake");
  assert.equal(practice?.kind, "revises");
  assert.equal(practice?.confidence, 0.85, "a habit, not one event's day");
  const football = judge("five-a-side is tuesdays 8pm at Cardiff Met, Cyncoed campus.", "the lads voted, five-a-side is thursdays at 7 from next week, PlayZone at Ocean Park.");
  assert.equal(football?.kind, "revises");
  assert.match(football!.reason, /five-a-side/);
});

test("a value named again and set aside ends the statement that gave it; a person or a question does not", () => {
  for (const [older, newer, value] of [
    ["and I've got the Ibis on Featherston St for 2 nights", "cancelled the ibis, mereana insists I stay with her in Aro Valley", "ibis"],
    ["put down the brown Clenil 100 preventer, two puffs twice a day.", "nurse swapped the Clenil for Fostair 100/6, one puff twice a day", "clenil"],
    ["I drive a 2014 Honda Odyssey held together with prayers lol", "picked up the Sienna!!! 2021, silver. bye bye odyssey", "odyssey"],
  ]) {
    const v = judge(older, newer);
    assert.equal(v?.kind, "revises", newer);
    assert.match(v!.reason, new RegExp(`${value} set aside`));
  }
  assert.equal(judge("Ffion's a paramedic with the Welsh Ambulance Service.", "we cancelled dinner with Ffion's parents"), null, "the subject is not a value");
  assert.equal(judge("I've got the Ibis on Featherston St for 2 nights", "should I cancel the Ibis?"), null, "a question sets nothing aside");
  assert.equal(judge("Sean's staying with me 9th-11th", "Sean's gone home, flat feels weirdly quiet"), null, "gone home is not gone");
  assert.equal(judge("I use VS Code for everything.", "VS Code update broke my extensions again")?.kind, "confirms", "VS names the editor");
});

test("a name written in lowercase is a value too; a common word is not", () => {
  const car = judge("car is a 2011 vauxhall corsa, red, bit rusty", "finally sold the corsa to my neighbour, using his van till sunday");
  assert.equal(car?.kind, "revises");
  assert.match(car!.reason, /corsa set aside/);
  const gym = judge("gym is fitnessfirst on the high street, £30 a month", "cancelled fitnessfirst, the pool at the leisure centre is cheaper");
  assert.match(gym?.reason ?? "", /fitnessfirst set aside/);
  assert.equal(judge("i play football on tuesdays at the rec", "cancelled football tonight, pitch is flooded"), null, "a word any dictionary holds is no name");
});

test("a role's holder leaving, with the successor named by title a sentence later, hands the role over", () => {
  const doctor = judge("My doctor is Dra. Quiroga.", "Dra. Quiroga is retiring in June. From July I see Dr. Salinas at the same clinic.");
  assert.equal(doctor?.kind, "revises");
  assert.match(doctor!.reason, /doctor: quiroga → salinas/, "the title is neither the holder nor the successor");
  assert.equal(judge("My doctor is Dra. Quiroga.", "Dra. Quiroga is retiring in June. Should I ask for someone else?"), null, "no one is named after her");

  const boss = judge("my boss is kasia wrona, she's fine", "kasia is going, she got the warsaw office. from monday i report to tomek zielak");
  assert.equal(boss?.kind, "revises", "a holder written in lowercase, and a successor no dictionary knows");
  assert.match(boss!.reason, /manager: kasia → .*tomek/);
  assert.equal(judge("my boss is away till friday", "kasia is going, she got the warsaw office. from monday i report to tomek zielak"), null, "a common word after the role is no holder");
});

test("the assistant's acknowledgement of a change the user just told does not replace the statement a second time", async () => {
  const dir = mkdtempSync(join(tmpdir(), "cascade-ack-"));
  const engine = await openMemory({ path: join(dir, "m.db"), now: Date.parse("2026-05-30T00:00:00Z") });
  try {
    const said: [string, string, string][] = [
      ["user", "hi! i'm ola. my manager is Kasia Wrona and I work from the Poznan office.", "2026-05-01T09:00:00Z"],
      ["user", "Kasia is leaving for the Warsaw office, from Monday I report to Tomek Zielak.", "2026-05-12T09:00:00Z"],
      ["assistant", "Noted - Tomek Zielak signs off your work from 12 May, and Kasia Wrona has gone to the Warsaw office.", "2026-05-12T09:01:00Z"],
    ];
    const ids: string[] = [];
    for (const [role, text, at] of said) ids.push((await engine.remember({ text, at, user: "ola", role, speaker: role === "user" ? "ola" : "assistant", session: "s1" })).id);
    const edges = (await engine.list({ limit: 100 })).edges.filter((e) => e.type === "supersedes");
    assert.deepEqual(edges.map((e) => `${ids.indexOf(e.from)}>${ids.indexOf(e.to)}`), ["1>0"]);
    assert.match(edges[0].reason ?? "", /manager: kasia → .*tomek/);
    // days later, in another conversation, the new value restated in words of its own
    const later = await engine.remember({ text: "Reminder set: your 1:1 with your manager Tomek every Monday at 10:00.", at: "2026-05-20T09:00:00Z", user: "ola", role: "assistant", speaker: "assistant", session: "s2" });
    const after = (await engine.list({ limit: 100 })).edges.filter((e) => e.type === "supersedes");
    assert.ok(!after.some((e) => e.from === later.id && e.to === ids[0]), "the value that replaced it, given again, restates the change");
  } finally {
    await engine.close();
    rmSync(dir, { recursive: true, force: true });
  }
});

test("one of two dates moved and the other kept is a change, not a confirmation", () => {
  const trip = judge("Booked your ferry to Bastia on Tuesday 4 June at 08:00, back Friday 7 June at 18:00.", "Sorted: the ferry to Bastia now leaves Wednesday 5 June at 08:00, and the way back stays Friday 7 June.");
  assert.equal(trip?.kind, "revises");
  assert.match(trip!.reason, /06-04\/06-07 → 06-05\/06-07/);
  assert.equal(judge("Booked your ferry to Bastia on Tuesday 4 June at 08:00, back Friday 7 June at 18:00.", "Reminder: ferry to Bastia Tuesday 4 June, back Friday 7 June.")?.kind, "confirms");
});

test("an amount in any currency's word, or paid by the month with the currency dropped, is an amount", () => {
  const bill = judge("I pay the water to Aguas Andinas, 14.500 pesos a month.", "Aguas Andinas sent the new bill, now 16.200 a month for the water.");
  assert.equal(bill?.kind, "revises");
  assert.match(bill!.reason, /amount\): 14\.5 → 16\.2/);
  assert.equal(judge("rent is 2400 zł a month", "rent stays 2400 zł a month, he says")?.kind, "confirms");
});

test("an offer taken up is so; a weekly habit moved to another day and hour is a standing change", () => {
  const older = "my gym membership is £30 a month at the leisure centre.";
  const offer = "the leisure centre offered me the gym membership at £22 a month if I sign for a year.";
  assert.equal(judge(older, offer)?.kind, undefined, "an offer alone changes nothing");
  const taken = judge(older, `${offer} I accepted.`);
  assert.equal(taken?.kind, "revises");
  assert.match(taken!.reason, /30 → 22/);
  const choir = judge("I sing in the choir on Tuesdays at 19:00.", "new conductor, so we sing in the choir on Wednesdays at 18:30 these days.");
  assert.equal(choir?.confidence, 0.85, "the habit's hour moved with its day");
});

test("a home's street written in lowercase is an address; words before 'road' are not", () => {
  assert.deepEqual(addressesIn("first night at 27 quarrydale road 🏡 boxes everywhere").map((a) => a.value), ["27 quarrydale"]);
  assert.deepEqual(addressesIn("i live in a flat on tennisfield road with my partner").map((a) => a.value), ["tennisfield"]);
  assert.deepEqual(addressesIn("the bakery is 5 minutes down the road"), []);
  const moved = judge("i live in a flat on tennisfield road with my partner", "first night at 27 quarrydale road 🏡 boxes everywhere");
  assert.equal(moved?.kind, "revises");
  assert.match(moved!.reason, /address/);
});

test("phone numbers and email addresses are the speaker's attributes; someone else's are not", () => {
  assert.deepEqual(attributeValues("mobile 07700 900218, email callumreid34@outlook.com.").map((v) => [v.attribute, v.value]), [
    ["phone number", "07700900218"],
    ["email", "callumreid34@outlook.com"],
  ]);
  assert.deepEqual(attributeValues("her cell is 210-555-0178"), []);
  assert.deepEqual(attributeValues("We've got a cat called Pixel."), [], "a pet's name is no phone");
  assert.deepEqual(attributeValues("caved and got the iPhone 15 on Three").map((v) => v.value), ["iphone"], "a dropped subject still owns it");
  const email = judge("work email is hana.sato.ux@gmail.com", "hello@satostudio.co.nz for anything work please");
  assert.equal(email?.kind, "revises");
  assert.match(email!.reason, /work email/);
});

test("someone else's dose is not mine; a rebooking's new date is an edge, not a suggestion", () => {
  assert.equal(judge("I take lisinopril 10 mg every morning.", "my sister Lupe is on lisinopril too but 40 mg"), null);
  const rebooked = judge("Booked: Mt Eden Dental with Dr Singh, Thursday 8 October at 10am.", "Rebooked: Mt Eden Dental with Dr Singh, Thursday 15 October at 2:30pm.");
  assert.equal(rebooked?.kind, "revises");
  assert.equal(rebooked?.confidence, 0.85);
});

test("a chat's lowercase sentences are statements of their own: the fact that changed is named, the rest stays current", async () => {
  const chat = { chat: true };
  assert.deepEqual(sentencesOf("allergic to penicillin (hives). and i drink like 4 cafecitos a day", chat), ["allergic to penicillin (hives).", "and i drink like 4 cafecitos a day"]);
  assert.deepEqual(sentencesOf("“Are you coming?” she asked. We moved to the U.S. in 2019.", chat), ["“Are you coming?” she asked.", "We moved to the U.S. in 2019."]);
  assert.deepEqual(sentencesOf("allergic to penicillin (hives). and i drink", {}), ["allergic to penicillin (hives). and i drink"], "prose goes on after a full stop before lowercase");
  const dir = mkdtempSync(join(tmpdir(), "cascade-any-wording-"));
  const engine = await openMemory({ path: join(dir, "m.db"), now: Date.parse("2026-10-09T00:00:00Z") });
  try {
    const first = await engine.remember({ text: "health stuff: allergic to penicillin (hives). and i drink like 4 cafecitos a day, don't judge me", at: "2026-09-14T11:15:00Z", user: "rosa", role: "user", speaker: "rosa" });
    const later = await engine.remember({ text: "day 3 of two cafecitos a day. i am a shell of a woman", at: "2026-10-08T11:10:00Z", user: "rosa", role: "user", speaker: "rosa" });
    const edges = (await engine.list({ limit: 100 })).edges.filter((e) => e.type === "supersedes");
    assert.equal(edges.length, 1);
    assert.equal(edges[0].from, later.id);
    assert.equal(edges[0].to, first.id);
    assert.equal(edges[0].statement, "and i drink like 4 cafecitos a day, don't judge me", "only the changed sentence");
  } finally {
    await engine.close();
    rmSync(dir, { recursive: true, force: true });
  }
});

test("a restated change confirms it, a later value revises it, and neither replaces the first statement again or the message's other fact", async () => {
  const dir = mkdtempSync(join(tmpdir(), "cascade-restated-"));
  const engine = await openMemory({ path: join(dir, "m.db"), now: Date.parse("2026-05-30T00:00:00Z") });
  try {
    const said: [string, string, string][] = [
      ["user", "quick intro: I work from the Leeds office on Tuesdays. My gym membership is £32 a month at PureGym.", "2026-05-01T09:00:00Z"],
      ["user", "gym went up, it's £36 a month from this month", "2026-05-08T09:00:00Z"],
      ["assistant", "Noted: your gym membership is £36 a month now.", "2026-05-08T09:01:00Z"],
      ["user", "cancelled puregym and joined the leisure centre gym, £24 a month", "2026-05-20T09:00:00Z"],
    ];
    const ids: string[] = [];
    for (const [role, text, at] of said) ids.push((await engine.remember({ text, at, user: "sam", role, speaker: role === "user" ? "sam" : "assistant" })).id);
    const edges = (await engine.list({ limit: 100 })).edges.filter((e) => e.type === "supersedes");
    const pairs = edges.map((e) => `${ids.indexOf(e.from)}>${ids.indexOf(e.to)}`).sort();
    assert.deepEqual(pairs, ["1>0", "3>1", "3>2"], "the restatement and the later value leave the first message to the change that replaced it");
    assert.equal(edges.find((e) => e.from === ids[1])?.statement, "My gym membership is £32 a month at PureGym.", "the office stays current");
    assert.notEqual((await engine.show(ids[0])).status, "superseded");
  } finally {
    await engine.close();
    rmSync(dir, { recursive: true, force: true });
  }
});

test("a question about getting to school or into town asks for the commute, as one about work does", async () => {
  const { attributeAsked } = await import("../src/query/current-attribute.js");
  assert.equal(attributeAsked("how am I getting to school these days?"), "commute");
  assert.equal(attributeAsked("how do I get into town now?"), null, "into town is not to town");
  assert.equal(attributeAsked("how do I get to town now?"), "commute");
  assert.equal(attributeAsked("how did I get to school last year?"), null, "the past");
});

test("a home's street said without its number is an address; a street passed or viewed is not", () => {
  const moved = judgeSlots(["I rent a flat on Cathedral Road in Pontcanna with my partner Ffion."], ["WE'RE IN.", "23 Beechwood Drive, Whitchurch, CF14.", "the cat is hiding under the bath"]);
  assert.equal(moved?.kind, "revises");
  assert.match(moved!.reason, /address: cathedral → 23 beechwood/);
  assert.equal(judge("I rent a flat on Cathedral Road in Pontcanna.", "the flat is 14 Cathedral Road, by the way")?.kind, "confirms", "the same street with its number");
  assert.equal(judge("I live at 14 Alder Street in Leeds.", "just viewed a flat on Canal Wharf and put an offer in!!"), null, "viewed, not lived in");
  assert.equal(judge("I live at 14 Alder Street in Leeds.", "the 19 from right outside the flat drops me on Park Row by the office"), null, "passed on the way");
});

test("a doctor named by title and then called my PCP, or your primary care doctor, holds the role 'doctor'", async () => {
  const { roleValues } = await import("../src/graph/slots.js");
  const said = (text: string, voice: "speaker" | "assistant" = "speaker") => roleValues(text, voice).map((v) => [v.attribute, v.value]);
  assert.deepEqual(said("found one. Dr. Luis Alvarez at Westover Hills Family Medicine, takes aetna. he's my PCP going forward"), [["doctor", "luis"]]);
  assert.deepEqual(said("Saved: Dr. Luis Alvarez at Westover Hills Family Medicine is your primary care doctor.", "assistant"), [["doctor", "luis"]]);
  assert.deepEqual(said("Dr. Luis Alvarez at Westover Hills is your primary care doctor."), [], "'your' in the user's own words names someone else's");
  assert.deepEqual(said("my gp is Dr Patel"), [["doctor", "patel"]]);
  const changed = judgeSlots(["health stuff: my doctor is Dr. Anita Patel at the Medical Center."], ["found one.", "Dr. Luis Alvarez at Westover Hills Family Medicine, takes aetna, does 7:30 appointments.", "he's my PCP going forward"]);
  assert.equal(changed?.kind, "revises");
  assert.match(changed!.reason, /doctor: anita → luis/);
});
