/**
 * Two read-time steps of "what is true now": an assistant's echo found only through the turn before it ranks below
 * that turn (query/echoes), and a question about a former value ranks the replaced memory first (query/former-values).
 * Also: a device's name alone ("the vet for Pixel") is not a phone.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { openMemory } from "../src/index.js";
import { attributeValues } from "../src/graph/attributes.js";
import { asksForFormerValue } from "../src/query/former-values.js";

async function withEngine(run: (engine: Awaited<ReturnType<typeof openMemory>>) => Promise<void>) {
  const dir = mkdtempSync(join(tmpdir(), "cascade-echoes-"));
  const engine = await openMemory({ path: join(dir, "m.db"), now: Date.parse("2026-06-30T00:00:00Z") });
  try {
    await run(engine);
  } finally {
    await engine.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

/** One user's chat turns in one session: the user's own, or the assistant's reply. */
const turnOf = (engine: Awaited<ReturnType<typeof openMemory>>, user: string) => (text: string, role: string, at: string) =>
  engine.remember({ text, at, user, role, speaker: role === "user" ? user : "assistant", session: "s1" });

test("an assistant's echo found through the turn before it ranks below that turn; a reply holding the question's words does not", async () => {
  await withEngine(async (engine) => {
    const turn = turnOf(engine, "noor");
    // a long introduction: its first words are indexed with the short reply after it (ingest/context), which the
    // lexical channels then rank above it
    const intro = await turn(
      "hiya, setting you up. I'm Noor, our cat is called Biscuit. I work nights at the Royal Infirmary in the neonatal unit, three long shifts a week, usually Monday, Wednesday and Friday. My partner Sam teaches piano from home, so afternoons are quiet time in the flat. I swim on Sundays at the Commonwealth Pool before it gets busy, and I'm trying to learn Portuguese on the side because my grandmother was from Porto. We rent a two-bed in Marchmont, the landlord is decent, and the bins go out on Tuesday nights which I always forget.",
      "user",
      "2026-06-01T20:00:00Z",
    );
    const echo = await turn("Lovely to meet you, Noor! All saved. Anything you'd like me to keep an eye on first?", "assistant", "2026-06-01T20:01:00Z");
    await turn("oh and the flea drops are due on the 1st, remind me?", "user", "2026-06-01T20:02:00Z");
    await turn("Reminder set for the 1st: flea drops.", "assistant", "2026-06-01T20:03:00Z");
    const ask = await turn("can you book dinner somewhere near the infirmary for saturday?", "user", "2026-06-02T09:00:00Z");
    const booked = await turn("Booked: Ottolenghi on Saturday at 7pm for two, near the infirmary.", "assistant", "2026-06-02T09:01:00Z");
    const lexical = { k: 5, filter: { user: "noor" }, channels: ["bm25", "colbert", "recency"] as ("bm25" | "colbert" | "recency")[] };
    const cat = await engine.recall("what's our cat called?", lexical);
    const ids = cat.hits.map((h) => h.id);
    assert.ok(ids.includes(echo.id), "the echo is still a hit");
    assert.ok(ids.indexOf(intro.id) < ids.indexOf(echo.id), "the introduction first");
    const moved = cat.hits.find((h) => h.id === echo.id)!;
    assert.ok(moved.adjustments.some((a) => a.reason.startsWith(`an echo of ${intro.id}`)), JSON.stringify(moved.adjustments));
    const dinner = await engine.recall("where is dinner booked on saturday?", lexical);
    const order = dinner.hits.map((h) => h.id);
    assert.ok(order.includes(booked.id) && order.includes(ask.id));
    assert.ok(!dinner.hits.find((h) => h.id === booked.id)!.adjustments.some((a) => a.reason.startsWith("an echo")), "the booking answers for itself");
  });
});

test("a reply that repeats the topics its source named, and no value of its own, ranks below the source; one with a value of its own does not", async () => {
  await withEngine(async (engine) => {
    const turn = turnOf(engine, "ade");
    const intro = await turn(
      "hiya! intro time. i'm ade, pharmacist in headingley, hours are tue-sat 9 to 6. gym is puregym in kirkstall, 25 pounds a month, mon and wed evenings. phone is on EE. my mum flies in from lagos on 14 March",
      "user",
      "2026-06-01T20:00:00Z",
    );
    // it names the gym, as the question does, and the 14 March the introduction gave: nothing of its own
    const ack = await turn("Lovely to meet you, Ade! I've saved your work pattern, gym and phone details, plus your mum's visit from 14 March.", "assistant", "2026-06-01T20:01:00Z");
    await turn("mostly reminders tbh", "user", "2026-06-01T20:02:00Z");
    const ask = await turn("my gym class moved, can you note it", "user", "2026-06-02T09:00:00Z");
    const noted = await turn("Noted: your gym class is on Thursday at 18:30 from 11 June.", "assistant", "2026-06-02T09:01:00Z");
    const lexical = { k: 5, filter: { user: "ade" }, channels: ["bm25", "colbert", "recency"] as ("bm25" | "colbert" | "recency")[] };
    const gym = await engine.recall("which gym am I with?", lexical);
    const ids = gym.hits.map((h) => h.id);
    assert.ok(ids.includes(ack.id), "the acknowledgement is still a hit");
    assert.ok(ids.indexOf(intro.id) < ids.indexOf(ack.id), `the introduction first: ${JSON.stringify(gym.hits.map((h) => [h.text.slice(0, 30), h.adjustments.map((a) => a.reason)]))}`);
    assert.ok(gym.hits.find((h) => h.id === ack.id)!.adjustments.some((a) => a.reason.startsWith(`an echo of ${intro.id}`)));
    // the note gives a day, a time and a date its source did not: it answers for itself
    const klass = await engine.recall("when is my gym class?", lexical);
    assert.ok(klass.hits.some((h) => h.id === ask.id) && klass.hits.some((h) => h.id === noted.id));
    assert.ok(!klass.hits.find((h) => h.id === noted.id)!.adjustments.some((a) => a.reason.startsWith("an echo")), "the note answers for itself");
  });
});

test("a question about a former value ranks the replaced memory first; one about the present ranks it below", async () => {
  await withEngine(async (engine) => {
    const say = (text: string, at: string) => engine.remember({ text, at, user: "ivo", role: "user", speaker: "ivo" });
    const old = await say("sorting my contacts: my mobile number is 07700 900111 and my email is ivo@example.org", "2026-06-01T10:00:00Z");
    const now = await say("got a new sim, my number is 07700 900222 now", "2026-06-10T10:00:00Z");
    const edges = (await engine.list({ limit: 10 })).edges.filter((e) => e.type === "supersedes");
    assert.deepEqual(edges.map((e) => [e.from, e.to]), [[now.id, old.id]], "the change is found");
    const before = await engine.recall("what was my old mobile number?", { k: 5, filter: { user: "ivo" } });
    assert.equal(before.hits[0]?.id, old.id);
    assert.match(before.hits[0].adjustments.map((a) => a.reason).join("; "), /a former value/);
    const current = await engine.recall("what's my mobile number?", { k: 5, filter: { user: "ivo" } });
    assert.equal(current.hits[0]?.id, now.id);
  });
  assert.equal(asksForFormerValue("what was my old mobile number?"), true);
  assert.equal(asksForFormerValue("who was my doctor before the insurance switch?"), true);
  assert.equal(asksForFormerValue("where was the party originally going to be?"), true);
  assert.equal(asksForFormerValue("what's my mobile number?"), false);
  assert.equal(asksForFormerValue("what did I have for dinner before the gig?"), true, "a former state of a plan or a habit alike");
  assert.equal(asksForFormerValue("I sold my old bike"), false, "not a question");
});

test("a device is named with a model number or a determiner; a bare name is a pet's or a person's", () => {
  const phones = (s: string, voice: "speaker" | "assistant" = "speaker") => attributeValues(s, voice).filter((v) => v.attribute === "phone").map((v) => v.value);
  assert.deepEqual(phones("Change of address list: your bank, the GP surgery and the vet for Pixel.", "assistant"), []);
  assert.deepEqual(phones("my pixel dies by 2pm every day"), ["pixel"]);
  assert.deepEqual(phones("caved and got the iPhone 15 on Three"), ["iphone"]);
  assert.deepEqual(phones("Pixel 9 arrived!!"), ["pixel"]);
});
