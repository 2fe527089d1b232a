/**
 * Scope as a boundary, on a second fixture written before the rules (test/fixtures/scoped-household.ts): agent
 * scopes, scoped against unscoped, a session two users share, entities and an explicit edge out of the scope.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { test } from "node:test";
import { openMemory, parseInstant, type Engine, type Hit } from "../src/index.js";
import { crossAgentRevisions, entityNotes, linkedAcrossScopes, sameAgentRevision, sharedSession } from "./fixtures/scoped-household.js";
import { tempDir } from "./helpers.js";

const NOW = parseInstant("now", "2026-05-01T00:00:00Z");
// every case on both stores: SQLite in a file, PostgreSQL on PGlite in this process
const BACKENDS: [string, () => string][] = [["SQLite", () => join(tempDir(), "household.db")], ["PGlite", () => "pglite:memory"]];

for (const [backend, location] of BACKENDS) {
  const open = (): Promise<Engine> => openMemory({ path: location(), now: NOW });

  test(`${backend}: a revision stated in another scope (another agent, another user, scoped against unscoped) links nothing and suggests nothing`, async () => {
    const memory = await open();
    for (const { older, newer } of crossAgentRevisions) {
      const a = await memory.remember(older);
      const b = await memory.remember(newer);
      assert.deepEqual(b.edges, [], newer.text);
      assert.deepEqual(b.suggestions, [], newer.text);
      const h = await memory.history(a.id);
      assert.deepEqual(h.chain.map((c) => c.status), ["current"], older.text);
    }
    assert.deepEqual(await memory.suggestions("all"), []);
    // within one scope the same kind of revision is still found
    const a = await memory.remember(sameAgentRevision.older);
    const b = await memory.remember(sameAgentRevision.newer);
    assert.deepEqual(b.edges.map((e) => [e.type, e.to]), [["supersedes", a.id]]);
    await memory.close();
  });

  test(`${backend}: in a session two users share, one user's turns neither raise the other's hits nor are indexed as their context`, async () => {
    const memory = await open();
    const ids = (await memory.rememberMany(sharedSession)).ids as string[];
    await memory.settlePyramid(); // the dense channel's sample of the store counts the summaries: read them written
    const [quinnFirst, rosaFirst, rosaSecond, quinnSecond] = ids;
    // Rosa's question about firmware 2.4 came just before Quinn's reply: it is not Quinn's words
    const firmware = await memory.recall("firmware update 2.4", { k: 10, filter: { user: "quinn" }, pyramid: false });
    assert.deepEqual(firmware.hits.map((h) => h.id), [], "no Quinn turn holds Rosa's words");
    // unfiltered, every hit gains only from hits of its own user's turns
    const r = await memory.recall("router drops the connection every evening", { k: 10, pyramid: false });
    const byId = new Map<string, Hit>(r.hits.map((h) => [h.id, h]));
    const owner = new Map([[quinnFirst, "quinn"], [rosaFirst, "rosa"], [rosaSecond, "rosa"], [quinnSecond, "quinn"]]);
    for (const hit of r.hits) {
      const sameUser = r.hits.filter((o) => o !== hit && owner.get(o.id) === owner.get(hit.id));
      const expected = hit.rrf + 0.15 * sameUser.reduce((s, o) => s + o.rrf, 0);
      assert.ok(Math.abs(hit.score - expected) < 1e-12, `${hit.text}: ${hit.score} = rrf + 0.15 × its own user's neighbours (${expected})`);
    }
    assert.ok(byId.has(quinnFirst) && byId.has(rosaFirst), "both users' router turns are hits");
    await memory.close();
  });

  test(`${backend}: entities listed for one user are those her memories mention, counted in her scope`, async () => {
    const memory = await open();
    await memory.rememberMany(entityNotes);
    const names = (r: { entities: { name: string; memories: number }[] }) => new Map(r.entities.map((e) => [e.name, e.memories]));
    const all = names(await memory.entities({ top: 50 }));
    assert.equal(all.get("Zephyr Labs"), 4);
    const ursula = names(await memory.entities({ top: 50, filter: { user: "ursula" } }));
    assert.equal(ursula.get("Zephyr Labs"), 2);
    assert.equal(ursula.get("Okonkwo"), 1);
    assert.ok(!ursula.has("Marrakesh") && !ursula.has("Victor"), `Ursula's entities: ${[...ursula.keys()].join(", ")}`);
    const victor = names(await memory.entities({ top: 50, filter: { user: "victor" }, query: "zephyr" }));
    assert.deepEqual([...victor], [["Zephyr Labs", 2]]);
    assert.deepEqual((await memory.entities({ filter: { user: "nobody" } })).entities, []);
    await memory.close();
  });

  test(`${backend}: the graph channel does not reach a memory of the searched scope through an edge that leaves it`, async () => {
    const memory = await open();
    const kestrel = await memory.remember(linkedAcrossScopes.wendyKestrel);
    const xavier = await memory.remember(linkedAcrossScopes.xavierNote);
    const other = await memory.remember(linkedAcrossScopes.wendyOther);
    await memory.link(kestrel.id, xavier.id, { type: "relates_to" });
    await memory.supersede(other.id, xavier.id);
    const r = await memory.recall("Kestrel design review", { k: 10, filter: { user: "wendy" }, pyramid: false });
    assert.deepEqual(r.hits.map((h) => h.id), [kestrel.id], "only Wendy's Kestrel note: not her offsite note through Xavier's");
    await memory.close();
  });
}
