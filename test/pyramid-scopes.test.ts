/**
 * Summaries per scope: two people in one namespace over one week. Alice says a lot, Bob little; the whole
 * namespace's week is chosen from everyone's sentences, Bob's week from his alone. No node built for one user holds
 * another's text (on SQLite and on PostgreSQL through PGlite), `pyramid show --filter user=bob` prints his nodes
 * only, a filtered search's context comes from his nodes, and his trip cancelled the week after is not stated as
 * current in the week that planned it.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { test } from "node:test";
import { openMemory, parseInstant, type Engine, type MemoryInput } from "../src/index.js";
import { cli, cliHere, tempDir } from "./helpers.js";

const NOW = "2026-06-24T12:00:00Z";

const ALICE = [
  "Alice reviewed the quarterly budget with the finance team.",
  "Alice moved the design review to Thursday afternoon.",
  "Alice signed the lease for the new studio on Canal Street.",
  "Alice ordered twelve chairs and two standing desks for the studio.",
  "Alice interviewed three candidates for the illustrator role.",
  "Alice picked the blue tiles for the studio kitchen.",
  "Alice sent the invoice for the Harbour project to the client.",
  "Alice booked the photographer for the studio opening.",
  "Alice renewed the domain and the hosting plan for another year.",
  "Alice wrote the press release for the studio opening.",
  "Alice met the landlord about the broken heating in the studio.",
  "Alice asked the printer for a quote on two hundred posters.",
];
const BOB_TRIP = "Bob booked a flight to Oslo for the conference on Friday.";
const BOB_DENTIST = "Bob has a dentist appointment on Wednesday morning.";
const BOB_CANCEL = "Bob cancelled the Oslo trip, the conference went online.";

function notes(): MemoryInput[] {
  const week = ["2026-06-08", "2026-06-09", "2026-06-10", "2026-06-11", "2026-06-12", "2026-06-13"];
  return [
    ...ALICE.map((text, i) => ({ text, user: "alice", at: `${week[i % week.length]}T${String(9 + Math.floor(i / week.length)).padStart(2, "0")}:00:00Z` })),
    { text: BOB_TRIP, user: "bob", at: "2026-06-09T15:00:00Z" },
    { text: BOB_DENTIST, user: "bob", at: "2026-06-10T16:00:00Z" },
  ];
}

const ALICE_WORDS = /Alice|studio|invoice|illustrator|landlord|posters|budget|domain/;

async function household(path: string): Promise<{ engine: Engine; trip: string; cancel: string }> {
  const engine = await openMemory({ path, now: parseInstant("now", NOW) });
  const { ids } = await engine.rememberMany(notes(), { detect: false });
  const trip = ids[notes().findIndex((n) => n.text === BOB_TRIP)] as string;
  // the cancellation comes the week after and replaces the booking: the planning week was summarised before it
  const cancel = (await engine.rememberMany([{ text: BOB_CANCEL, user: "bob", at: "2026-06-16T10:00:00Z" }], { detect: false })).ids[0] as string;
  await engine.supersede(cancel, trip);
  return { engine, trip, cancel };
}

/** Every node made for one user holds only that user's memories and none of the other's words. */
async function assertNothingCrosses(engine: Engine) {
  const all = await engine.pyramid();
  const scoped = all.nodes.filter((n) => n.user !== null);
  assert.ok(scoped.some((n) => n.user === "bob") && scoped.some((n) => n.user === "alice"), "each user has nodes of their own");
  for (const n of scoped) {
    for (const s of n.sentences) {
      for (const source of s.sources) assert.equal((await engine.show(source)).user, n.user, `${n.id} quotes ${source}`);
    }
    if (n.user === "bob") assert.doesNotMatch(n.text, ALICE_WORDS, `${n.id} holds none of Alice's text`);
    if (n.user === "alice") assert.doesNotMatch(n.text, /Bob|Oslo|dentist/, `${n.id} holds none of Bob's text`);
  }
}

test("the week node for user=bob holds only Bob's sentences, and all of them", async () => {
  const { engine, trip, cancel } = await household(join(tempDir(), "household.db"));
  try {
    const whole = (await engine.pyramid({ level: "week" })).nodes.find((n) => n.id === "p_week_2026-W24");
    assert.ok(whole && whole.user === null && whole.agent === null);

    const bob = await engine.pyramid({ level: "week", filter: { user: "bob" } });
    assert.deepEqual(bob.nodes.map((n) => [n.id, n.user]), [["p_week_2026-W24~user:bob", "bob"], ["p_week_2026-W25~user:bob", "bob"]]);
    const planning = bob.nodes[0];
    assert.deepEqual(planning.sentences.map((s) => s.text).sort(), [BOB_DENTIST, BOB_TRIP].sort());
    // the booking, replaced the week after, is not stated as current
    const booked = planning.sentences.find((s) => s.text === BOB_TRIP)!;
    assert.equal(booked.status, "superseded");
    assert.deepEqual(booked.superseded_by, [cancel]);
    assert.ok(planning.text.split("\n").includes(`${BOB_TRIP} [superseded by ${cancel}]`), planning.text);
    assert.ok(planning.sentences.filter((s) => s !== booked).every((s) => s.status === "current"));
    assert.ok(bob.nodes[1].sentences.every((s) => s.status === "current" && !s.sources.includes(trip)));

    await assertNothingCrosses(engine);

    // a search filtered to Bob reads his nodes: the week he asks about is his week
    const r = await engine.recall("what did I plan last week", { filter: { user: "bob" }, now: "2026-06-17T12:00:00Z" });
    const ids = r.context.map((c) => c.id);
    assert.ok(ids.includes("p_week_2026-W24~user:bob"), JSON.stringify(ids));
    assert.ok(ids.every((id) => !/^p_(day|week|month)_/.test(id) || id.endsWith("~user:bob")), `only Bob's nodes: ${JSON.stringify(ids)}`);
    assert.doesNotMatch(r.context.map((c) => c.text).join("\n"), ALICE_WORDS);
    const current = await engine.recall("what did I plan last week", { filter: { user: "bob" }, now: "2026-06-17T12:00:00Z", currentOnly: true });
    assert.ok(!current.context.some((c) => c.text.includes(BOB_TRIP)), "current-only leaves the replaced booking out");
  } finally {
    await engine.close();
  }
});

test("forgetting a user's only memory of a day removes that user's day node and keeps the others'", async () => {
  const engine = await openMemory({ path: join(tempDir(), "forget.db"), now: parseInstant("now", NOW) });
  try {
    const { ids } = await engine.rememberMany(notes(), { detect: false });
    const dentist = ids[notes().findIndex((n) => n.text === BOB_DENTIST)] as string;
    const day = "p_day_2026-06-10";
    const before = (await engine.pyramid({ level: "day" })).nodes.map((n) => n.id);
    assert.ok(before.includes(`${day}~user:bob`) && before.includes(`${day}~user:alice`) && before.includes(day));
    await engine.forget(dentist);
    const after = (await engine.pyramid({ level: "day" })).nodes.map((n) => n.id);
    assert.ok(!after.includes(`${day}~user:bob`), "Bob has nothing left that day");
    assert.ok(after.includes(`${day}~user:alice`) && after.includes(day));
  } finally {
    await engine.close();
  }
});

test("no node built for one user holds another's text on PostgreSQL (PGlite) either", async () => {
  const { engine } = await household("pglite:memory");
  try {
    await assertNothingCrosses(engine);
    const bob = await engine.pyramid({ level: "day", filter: { user: "bob" } });
    assert.deepEqual(bob.nodes.map((n) => n.id), ["p_day_2026-06-09~user:bob", "p_day_2026-06-10~user:bob", "p_day_2026-06-16~user:bob"]);
  } finally {
    await engine.close();
  }
});

test("cascade pyramid show --filter user=bob prints only his nodes and sentences", async () => {
  const db = join(tempDir(), "household-cli.db");
  // the first call a CLI process, the others in this process (helpers cliHere: the same output and exit code)
  const proc = (...args: string[]) => cli([...args, "--db", db, "--now", NOW]);
  const run = (...args: string[]) => cliHere([...args, "--db", db, "--now", NOW]);
  // the store is written in this process (what is tested is `pyramid show`; `add --user` has its tests in
  // test/scope): fourteen `cascade add` processes cost more than the rest of the file
  const engine = await openMemory({ path: db, now: parseInstant("now", NOW) });
  try {
    for (const n of notes()) await engine.remember(n);
  } finally {
    await engine.close();
  }
  const shown = proc("pyramid", "show", "--filter", "user=bob");
  assert.equal(shown.status, 0, shown.stderr);
  assert.match(shown.stdout, /Oslo/);
  assert.match(shown.stdout, /dentist/);
  assert.doesNotMatch(shown.stdout, ALICE_WORDS);
  assert.match(shown.stdout, /p_week_2026-W24~user:bob  user bob/);
  const json = await run("pyramid", "show", "--filter", "user=bob", "--json");
  assert.ok(json.json.nodes.length > 0 && json.json.nodes.every((n: { user: string | null }) => n.user === "bob"));
  const all = await run("pyramid", "show", "--level", "week", "--json");
  assert.deepEqual(all.json.nodes.map((n: { id: string }) => n.id).sort(), ["p_week_2026-W24", "p_week_2026-W24~user:alice", "p_week_2026-W24~user:bob"]);
  const bad = await run("pyramid", "show", "--filter", "user");
  assert.equal(bad.status, 2);
});

test("a summary sentence whose statement a later memory revised is marked, the message's other sentences stay current", async () => {
  const engine = await openMemory({ path: join(tempDir(), "statement.db"), now: Date.parse("2026-11-20T12:00:00Z") });
  const fee = "The mooring fee for the boat is 180 pounds a month.";
  try {
    const long = await engine.remember({
      text: `I'm on the night shift at the depot from the 3rd. My sister's birthday is on the 22nd, so I need a present. ${fee}`,
      user: "bob",
      at: "2026-10-28T09:00:00Z",
    });
    const raised = await engine.remember({ text: "The mooring fee for the boat went up to 240 pounds a month.", user: "bob", at: "2026-11-10T09:00:00Z" });
    assert.equal(raised.edges[0]?.statement, fee, "the detector names the statement (graph/slots.ts)");
    assert.equal((await engine.show(long.id)).status, "current");
    const week = (await engine.pyramid({ level: "week", filter: { user: "bob" } })).nodes.find((n) => n.id === "p_week_2026-W44~user:bob");
    assert.ok(week, "Bob's week of the long message");
    const marked = week.sentences.find((s) => s.text === fee);
    assert.equal(marked?.status, "superseded");
    assert.deepEqual(marked?.superseded_by, [raised.id]);
    assert.ok(week.text.includes(`${fee} [superseded by ${raised.id}]`), week.text);
    assert.ok(week.sentences.filter((s) => s.text !== fee).every((s) => s.status === "current"));
  } finally {
    await engine.close();
  }
});

test("a statement revised within the same window leaves the message's other sentences in the window's summary", async () => {
  const engine = await openMemory({ path: join(tempDir(), "same-week.db"), now: Date.parse("2026-11-20T12:00:00Z") });
  const fee = "The mooring fee for the boat is 180 pounds a month.";
  const birthday = "My sister's birthday is on the 22nd, so I need a present.";
  try {
    await engine.remember({ text: `I'm on the night shift at the depot from the 3rd. ${birthday} ${fee}`, user: "bob", at: "2026-10-27T09:00:00Z" });
    const raised = await engine.remember({ text: "The mooring fee for the boat went up to 240 pounds a month.", user: "bob", at: "2026-10-29T09:00:00Z" });
    assert.equal(raised.edges[0]?.statement, fee);
    const day = (await engine.pyramid({ level: "day", filter: { user: "bob" } })).nodes.find((n) => n.id === "p_day_2026-10-27~user:bob");
    assert.ok(day?.sentences.some((s) => s.text === birthday), "the birthday, said in passing, is still in its day");
    const week = (await engine.pyramid({ level: "week", filter: { user: "bob" } })).nodes.find((n) => n.id === "p_week_2026-W44~user:bob");
    assert.ok(week?.sentences.some((s) => s.text === birthday), JSON.stringify(week?.sentences.map((s) => s.text)));
    assert.ok(!week?.sentences.some((s) => s.text === fee && s.status === "current"), "the old fee is not summarised as current");
  } finally {
    await engine.close();
  }
});
