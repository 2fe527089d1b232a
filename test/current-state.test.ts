/**
 * What is true now, on every surface: a store with two users' memories, a change the caller names (a move), a
 * change the revision detector finds in one sentence of a long message (a fee), and the SDK, the CLI, HTTP and
 * MCP asked what is true now, as of a time before the changes, and for the other user.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { CascadeError, type CurrentStateJson } from "../src/index.js";
import { cli, cliHere, tempDir } from "./helpers.js";
import { openEverySurface, type EverySurface } from "./every-surface.js";

const NOW = "2026-11-20T12:00:00Z";
const FEE_40 = "My mooring fee is 40 euros a month.";

describe("what is true now", () => {
  const db = join(tempDir(), "current.db");
  let s: EverySurface;
  const id: Record<string, string> = {};

  before(async () => {
    s = await openEverySurface(db, NOW);
    const e = s.engine;
    id.berlin = (await e.remember({ text: "I live in Berlin, on Torstrasse 12.", user: "maya", at: "2026-11-01T09:00:00Z" })).id;
    id.long = (await e.remember({ text: `I work night shifts at the hospital this month. ${FEE_40} My sister's birthday is on March 3.`, user: "maya", at: "2026-11-02T09:00:00Z" })).id;
    const fee = await e.remember({ text: "The mooring fee went up: it is now 55 euros a month.", user: "maya", at: "2026-11-10T09:00:00Z" });
    id.fee = fee.id;
    // the detector's edge names the one sentence it replaces: the long message stays partly current
    assert.deepEqual(fee.edges.map((x) => [x.to, x.statement]), [[id.long, FEE_40]], "the detector links the fee to its sentence");
    id.munich = (await e.remember({ text: "We moved: I now live in Munich, on Leopoldstrasse 5.", user: "maya", at: "2026-11-12T09:00:00Z", supersedes: [id.berlin] })).id;
    id.tom = (await e.remember({ text: "I live in Hamburg near the harbour, and my mooring fee is 70 euros.", user: "tom", at: "2026-11-05T09:00:00Z" })).id;
  });
  after(async () => {
    await s?.close();
  });

  const ids = (state: CurrentStateJson) => state.facts.map((f) => f.id);

  test("SDK: the standing facts newest first, what each replaced, a partly current message without its old sentence", async () => {
    const now = await s.engine.currentState({ filter: { user: "maya" } });
    assert.deepEqual(ids(now), [id.munich, id.fee, id.long]);
    const munich = now.facts[0]!;
    assert.equal(munich.since, "2026-11-12T09:00:00Z");
    assert.deepEqual(munich.replaced.map((r) => [r.id, r.text, r.since, r.statement]), [[id.berlin, "I live in Berlin, on Torstrasse 12.", "2026-11-01T09:00:00Z", false]]);
    const fee = now.facts[1]!;
    assert.deepEqual(fee.replaced.map((r) => [r.id, r.text, r.statement]), [[id.long, FEE_40, true]]);
    assert.match(fee.replaced[0]!.reason ?? "", /40 → 55/);
    const long = now.facts[2]!;
    assert.equal(long.text, "I work night shifts at the hospital this month. My sister's birthday is on March 3.");
    assert.deepEqual(long.revised, [{ statement: FEE_40, by: id.fee }]);
    assert.ok(!JSON.stringify(now).includes("Hamburg"), "nothing of the other user");
  });

  test("SDK: as of a time before the changes the old values stand; history lists the older versions", async () => {
    const before = await s.engine.currentState({ filter: { user: "maya" }, asOf: "2026-11-05T00:00:00Z" });
    assert.deepEqual(ids(before), [id.long, id.berlin]);
    assert.ok(before.facts[0]!.text.includes(FEE_40), "the fee sentence was true then");
    const between = await s.engine.currentState({ filter: { user: "maya" }, asOf: "2026-11-11T00:00:00Z" });
    assert.deepEqual(ids(between), [id.fee, id.long, id.berlin]);
    const withHistory = await s.engine.currentState({ filter: { user: "maya" }, history: true, limit: 1 });
    assert.deepEqual(withHistory.facts[0]!.history?.map((h) => h.id), [id.berlin]);
    assert.equal(withHistory.truncated, true);
    // nothing had been recorded a day before the store was written
    assert.deepEqual(ids(await s.engine.currentState({ filter: { user: "maya" }, knownAt: "2026-11-19T00:00:00Z" })), []);
  });

  test("SDK: about an entity, the other user's scope, and mistakes named by field", async () => {
    const munich = await s.engine.currentState({ filter: { user: "maya" }, about: "munich" });
    assert.deepEqual(munich.about, { entity: { id: (munich.about as any).entity.id, name: "Munich", kind: "name" } });
    assert.deepEqual(ids(munich), [id.munich]);
    assert.deepEqual(ids(await s.engine.currentState({ filter: { user: "tom" } })), [id.tom]);
    assert.deepEqual(ids(await s.engine.currentState({ filter: { user: "tom" }, about: "mooring fee" })), [id.tom]);
    await assert.rejects(s.engine.currentState({ limit: 0 }), (e: unknown) => e instanceof CascadeError && e.message === "limit: at least 1");
    await assert.rejects(s.engine.currentState({ about: " " }), (e: unknown) => e instanceof CascadeError && e.message === "about: must not be empty: name an entity or say what about");
  });

  test("CLI: one line per fact with since and replaced; --json is the SDK's answer; bad flags exit 2 in one line", async () => {
    const r = cli(["--db", db, "--now", NOW, "current", "--filter", "user=maya"]);
    assert.equal(r.status, 0, r.stderr);
    const lines = r.stdout.trim().split("\n");
    assert.equal(lines[0], "what is true as of 2026-11-20T12:00:00Z: 3 facts");
    assert.equal(lines[1], `${id.munich}  "We moved: I now live in Munich, on Leopoldstrasse 5."  since 2026-11-12 [user maya]`);
    assert.equal(lines[2], `    replaced ${id.berlin} "I live in Berlin, on Torstrasse 12." (2026-11-01)`);
    assert.ok(!r.stdout.includes("Hamburg") && !r.stdout.includes("[object"), r.stdout);
    const old = await cliHere(["--db", db, "--now", NOW, "current", "--filter", "user=maya", "--as-of", "2026-11-05", "--json"]);
    assert.deepEqual(ids(old.json), [id.long, id.berlin]);
    assert.deepEqual(old.json, await s.engine.currentState({ filter: { user: "maya" }, asOf: "2026-11-05" }));
    for (const [flags, message] of [
      [["--limit", "0"], `cascade: option '--limit <n>' argument '0' is invalid. --limit must be an integer from 1 to 1000, got "0"`],
      [["--as-of", "soonish"], `cascade: --as-of: "soonish" is not an ISO 8601 date or date-time (e.g. 2026-06-03 or 2026-06-03T10:00:00Z)`],
      [["--about", " "], "cascade: about: must not be empty: name an entity or say what about"],
    ] as const) {
      const bad = await cliHere(["--db", db, "current", ...flags]);
      assert.equal(bad.status, 2);
      assert.equal(bad.stderr, `${message}\n`);
    }
  });

  test("HTTP: GET /v1/current answers as the SDK does; bad parameters are a 400 naming them", async () => {
    const get = async (q: string) => {
      const res = await fetch(`${s.server.url}/v1/current?${q}`);
      return { status: res.status, json: (await res.json()) as any };
    };
    const now = await get("filter=user%3Dmaya&history=true");
    assert.equal(now.status, 200);
    assert.deepEqual(now.json, await s.engine.currentState({ filter: { user: "maya" }, history: true }));
    assert.deepEqual(ids((await get("filter=user%3Dmaya&as_of=2026-11-05")).json), [id.long, id.berlin]);
    assert.deepEqual(ids((await get("filter=user%3Dtom")).json), [id.tom]);
    assert.deepEqual((await get("limit=0")).json, { error: { code: "INVALID_INPUT", message: "limit: at least 1", field: "limit" } });
    const bad = await get("as_of=soonish");
    assert.equal(bad.status, 400);
    assert.equal(bad.json.error.field, "as_of");
    assert.equal((await get("history=maybe")).json.error.message, 'history: true or false, got "maybe"');
  });

  test("MCP: memory_current names the current value and the one it replaced, and only the scope asked for", async () => {
    const r = (await s.mcp.callTool({ name: "memory_current", arguments: { filter: { user: "maya" } } })) as any;
    assert.notEqual(r.isError, true, r.content[0].text);
    const text: string = r.content[0].text;
    assert.match(text, /^True as of 2026-11-20T12:00:00Z/);
    assert.ok(text.includes(`- [${id.munich}] since 2026-11-12T09:00:00Z (user maya): We moved: I now live in Munich`), text);
    assert.ok(text.includes(`replaced [${id.berlin}] "I live in Berlin, on Torstrasse 12." (true since 2026-11-01T09:00:00Z)`), text);
    assert.ok(!text.includes("Hamburg"), text);
    const old = (await s.mcp.callTool({ name: "memory_current", arguments: { filter: { user: "maya" }, as_of: "2026-11-05" } })) as any;
    assert.ok(old.content[0].text.includes("I live in Berlin") && !old.content[0].text.includes("Munich"), old.content[0].text);
    const bad = (await s.mcp.callTool({ name: "memory_current", arguments: { limit: 0 } })) as any;
    assert.equal(bad.isError, true);
    assert.equal(bad.content[0].text, "error INVALID_INPUT: limit: at least 1");
  });
});
