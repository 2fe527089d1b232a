import assert from "node:assert/strict";
import { join } from "node:path";
import { test } from "node:test";
import { openMemory, parseInstant } from "../src/index.js";
import { cli, cliHere, tempDir } from "./helpers.js";

const POSTGRES = "We chose Postgres as the primary store for the billing service.";
const DYNAMO = "Change of plan for billing: we are no longer using Postgres, the billing service will run on DynamoDB instead.";
const QUESTION = "which database does the billing service use";

test("--now is only the reference for relative time: a later-recorded revision still counts (CLI)", async () => {
  const db = join(tempDir(), "billing.db");
  // both recorded today (the wall clock), about events in February and June
  const old = cli(["add", POSTGRES, "--at", "2026-02-10", "--db", db, "--json"]).json;
  const neu = (await cliHere(["add", DYNAMO, "--at", "2026-06-03", "--db", db, "--json"])).json;
  const h = (await cliHere(["history", old.id, "--db", db, "--json"])).json;
  assert.deepEqual(h.chain.map((c: { id: string }) => c.id), [old.id, neu.id], "detection linked them");
  for (const extra of [[], ["--now", "2026-07-01"]]) {
    const r = (await cliHere(["search", QUESTION, "--db", db, "--json", ...extra])).json;
    const byId = new Map(r.hits.map((x: { id: string }) => [x.id, x]));
    assert.equal((byId.get(old.id) as { status: string }).status, "superseded", extra.join(" "));
    assert.equal((byId.get(neu.id) as { status: string }).status, "current", extra.join(" "));
    assert.equal(r.hits[0].id, neu.id);
  }
  const hNow = (await cliHere(["history", old.id, "--db", db, "--now", "2026-07-01", "--json"])).json;
  assert.deepEqual(hNow.chain.map((c: { status: string }) => c.status), ["superseded", "current"]);
});

test("--known-at filters memories and edges by record time alike; search and history agree", async () => {
  const path = join(tempDir(), "billing.db");
  const feb = await openMemory({ path, now: parseInstant("now", "2026-02-10T12:00:00Z") });
  const old = await feb.remember({ text: POSTGRES, at: "2026-02-10" });
  await feb.close();
  const june = await openMemory({ path, now: parseInstant("now", "2026-06-03T12:00:00Z") });
  const neu = await june.remember({ text: DYNAMO, at: "2026-06-03" });
  await june.close();
  const later = await openMemory({ path, now: parseInstant("now", "2026-12-03T00:00:00Z") });

  // what the store knows now, whatever --now says
  const known = await later.recall(QUESTION, { now: "2026-07-01" });
  assert.equal(known.hits[0].id, neu.id);
  assert.equal(known.hits.find((h) => h.id === old.id)!.status, "superseded");

  // what it knew in April: the DynamoDB note was not recorded yet, so it is not returned, and the Postgres
  // note is current (the edge came with the June note)
  const april = await later.recall(QUESTION, { knownAt: "2026-04-01" });
  assert.deepEqual(april.hits.map((h) => [h.id, h.status]), [[old.id, "current"]]);
  const aprilHistory = await later.history(old.id, { knownAt: "2026-04-01" });
  assert.deepEqual(aprilHistory.chain.map((c) => [c.id, c.status]), [[old.id, "current"]]);
  const history = await later.history(old.id);
  assert.deepEqual(history.chain.map((c) => [c.id, c.status]), [[old.id, "superseded"], [neu.id, "current"]]);

  // the pyramid's summaries are memories too: built now, they were not known in April
  await later.buildPyramid();
  const withSummaries = await later.recall(QUESTION, { k: 20, kinds: ["summary"] });
  assert.ok(withSummaries.hits.some((h) => h.kind === "summary"));
  assert.ok((await later.recall(QUESTION, { k: 20 })).context.length > 0, "and they come back as context");
  const aprilSummaries = await later.recall(QUESTION, { k: 20, kinds: ["summary"], knownAt: "2026-04-01" });
  assert.ok(!aprilSummaries.hits.some((h) => h.kind === "summary"));
  assert.deepEqual((await later.recall(QUESTION, { k: 20, knownAt: "2026-04-01" })).context, [], "nor as context");
  await later.close();
});
