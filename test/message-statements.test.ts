/**
 * A short message is read as one statement when its sentences share the telling of a change: one names the thing
 * ("a letter from the landlord, Nowak"), the next gives the new value ("from June the room is 3100 zł a month").
 * Neither alone shares two words with the older statement, so sentence against sentence found nothing.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { join } from "node:path";
import { openMemory } from "../src/index.js";
import { tempDir } from "./helpers.js";

const INTRO =
  "hello, setting this up. my name is pawel and i live in poznan. i work nights at the bakery on garbary street. rent is 2700 zł to mrs nowak, due on the 5th. my bike is an old cannondale. i swim on saturdays at 9:00 at the city pool.";

async function withIntro(later: string, check: (edges: { reason: string | null; statement: string | null }[]) => void): Promise<void> {
  const dir = tempDir();
  const engine = await openMemory({ path: join(dir, "m.db"), now: Date.parse("2026-05-01T00:00:00Z") });
  try {
    const say = (text: string, at: string) => engine.remember({ text, at, user: "pawel", role: "user", speaker: "pawel" });
    await say(INTRO, "2026-03-01T08:00:00Z");
    await say(later, "2026-03-20T08:00:00Z");
    const edges = (await engine.list({ limit: 10 })).edges.filter((e) => e.type === "supersedes" && e.retracted_at === null);
    check(edges);
  } finally {
    await engine.close();
  }
}

test("a change told over a short message's sentences replaces the one statement it speaks of", async () => {
  await withIntro("got a letter from mrs nowak today. from june the room is 3100 zł a month, heating she says.", (edges) => {
    assert.equal(edges.length, 1, JSON.stringify(edges));
    assert.equal(edges[0].statement, "rent is 2700 zł to mrs nowak, due on the 5th.");
    assert.match(edges[0].reason ?? "", /2700 → 3100.*in the whole message/);
  });
});

test("the same value told over a short message's sentences changes nothing", async () => {
  await withIntro("mrs nowak stopped by today. the room stays 2700 zł a month for now, she says.", (edges) => {
    assert.deepEqual(edges, []);
  });
});
